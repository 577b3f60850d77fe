// The playground's reading and showing of tensors: shape and value text,
// numbers as the dtype holds them, tensors as grids, broadcasting as pictures.

import {
  DTYPE_INFO, encodeFloat16, decodeFloat16, encodeBfloat16, decodeBfloat16,
  float16ToNumber, numberToFloat16, bfloat16ToNumber, numberToBfloat16,
} from '/dist/esm/index.js';
import { $, h, product, showShape } from './dom.js';

/** Random fill and grid previews stay this small; the benchmark does big tensors. */
export const MAX_FILL = 100_000;
const GRID = { rows: 12, cols: 12, slices: 8 };

export const FLOATS = new Set(['float32', 'float64', 'float16', 'bfloat16']);
const BIGINTS = new Set(['int64', 'uint64']);
const INT_RANGE = {
  int8: [-128, 127],
  int16: [-32768, 32767],
  int32: [-2147483648, 2147483647],
  uint8: [0, 255],
  uint16: [0, 65535],
  uint32: [0, 4294967295],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};


// ---------------------------------------------------------------- parsing

const NUMBER_RE = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const INT_RE = /^[+-]?\d+$/;

/** Shape text ("2,3", "[2, 3]", "2x3", "" for a scalar) -> { shape } | { error }. */
export function parseShape(text) {
  const t = text.trim().replace(/^[[(]|[\])]$/g, '').trim();
  if (t === '') return { shape: [] };
  const tokens = t.split(/[\s,x×]+/).filter(Boolean);
  const shape = [];
  for (const tok of tokens) {
    if (!INT_RE.test(tok)) return { error: `shape: "${tok}" is not an integer` };
    shape.push(Number(tok));
  }
  return { shape };
}

function parseFloatToken(tok) {
  const l = tok.toLowerCase();
  if (l === 'nan' || l === '+nan' || l === '-nan') return NaN;
  if (['inf', '+inf', 'infinity', '+infinity', '∞'].includes(l)) return Infinity;
  if (['-inf', '-infinity', '-∞'].includes(l)) return -Infinity;
  if (!NUMBER_RE.test(tok)) return undefined;
  return Number(tok);
}

/** Value text -> { data: TypedArray of dtype } | { error }. */
export function parseValues(text, dtype) {
  const tokens = text.split(/[\s,;[\]()]+/).filter(Boolean);
  if (FLOATS.has(dtype)) {
    const nums = new Float64Array(tokens.length);
    for (let i = 0; i < tokens.length; i++) {
      const v = parseFloatToken(tokens[i]);
      if (v === undefined) return { error: `value ${i}: "${tokens[i]}" is not a number` };
      nums[i] = v;
    }
    if (dtype === 'float16') return { data: encodeFloat16(nums) };
    if (dtype === 'bfloat16') return { data: encodeBfloat16(nums) };
    return { data: new DTYPE_INFO[dtype].array(nums) };
  }
  const [lo, hi] = INT_RANGE[dtype];
  const big = BIGINTS.has(dtype);
  const data = new DTYPE_INFO[dtype].array(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    if (!INT_RE.test(tok)) return { error: `value ${i}: "${tok}" is not an integer (dtype ${dtype})` };
    const v = big ? BigInt(tok) : Number(tok);
    if (v < lo || v > hi) return { error: `value ${i}: ${tok} is out of range for ${dtype} [${lo}, ${hi}]` };
    data[i] = v;
  }
  return { data };
}

// ---------------------------------------------------------------- formatting

/** The shortest decimal that reads back to the same value of a narrow float format. */
function shortest(v, maxDigits, roundTrip) {
  for (let p = 1; p <= maxDigits; p++) {
    const x = Number(v.toPrecision(p));
    if (roundTrip(x) === v) return String(x);
  }
  return String(v);
}
function formatNumber(dtype, v) {
  if (typeof v === 'bigint') return v.toString();
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Inf';
  if (v === -Infinity) return '-Inf';
  if (Object.is(v, -0)) return '-0';
  // Whole numbers print exactly (65504, not the shorter 65500 that also reads back to it).
  if (Number.isInteger(v) && Math.abs(v) < 1e16) return String(v);
  switch (dtype) {
    case 'float32':
      return shortest(v, 9, Math.fround);
    case 'float16':
      return shortest(v, 5, (x) => float16ToNumber(numberToFloat16(x)));
    case 'bfloat16':
      return shortest(v, 4, (x) => bfloat16ToNumber(numberToBfloat16(x)));
    default:
      return String(v);
  }
}
/** A tensor's elements as numbers (float16/bfloat16 bits decoded) or BigInts. */
function elementValues(dtype, data) {
  if (dtype === 'float16') return decodeFloat16(data);
  if (dtype === 'bfloat16') return decodeBfloat16(data);
  return data;
}
/** The text of each element, plus a tooltip with the exact value and bits. */
function formatTensor(dtype, data) {
  const values = elementValues(dtype, data);
  const text = new Array(values.length);
  const titles = new Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    text[i] = formatNumber(dtype, v);
    if (dtype === 'float16' || dtype === 'bfloat16') {
      titles[i] = `${String(v)} (bits 0x${data[i].toString(16).padStart(4, '0')})`;
    } else if (dtype === 'float32' && text[i] !== String(v)) {
      titles[i] = `exactly ${String(v)}`;
    }
  }
  return { values, text, titles };
}
function cellClass(v) {
  if (typeof v === 'bigint') return v < 0n ? 'neg' : v === 0n ? 'zero' : 'pos';
  if (Number.isNaN(v)) return 'nan';
  return v < 0 ? 'neg' : v === 0 ? 'zero' : 'pos';
}

// ---------------------------------------------------------------- tensor grids

/**
 * A tensor as a readable grid: rank 0 one cell, rank 1 one row, rank 2 a
 * table, rank > 2 one 2-D table per index of the leading axes.
 * `cells[i]` = { text, title, cls } for flat index i.
 */
export function renderGrid(shape, cells, { testid, label } = {}) {
  const wrap = h('div', { class: 'tensor', 'data-testid': testid, 'data-shape': showShape(shape) });
  if (label) wrap.append(h('div', { class: 'tensor-label' }, label));
  const size = product(shape);
  if (size === 0) {
    wrap.append(h('p', { class: 'muted small' }, `empty tensor (shape ${showShape(shape)} has no elements)`));
    return wrap;
  }
  const rank = shape.length;
  const rows = rank >= 2 ? shape[rank - 2] : 1;
  const cols = rank >= 1 ? shape[rank - 1] : 1;
  const lead = shape.slice(0, Math.max(0, rank - 2));
  const nSlices = product(lead);
  const slices = h('div', { class: rank > 2 ? 'slices' : 'slices single' });
  const showSlices = Math.min(nSlices, GRID.slices);
  for (let sIdx = 0; sIdx < showSlices; sIdx++) {
    const base = sIdx * rows * cols;
    const slice = h('div', { class: 'slice' });
    if (rank > 2) {
      const idx = [];
      let r = sIdx;
      for (let a = lead.length - 1; a >= 0; a--) {
        idx.unshift(r % lead[a]);
        r = Math.floor(r / lead[a]);
      }
      slice.append(h('div', { class: 'slice-caption' }, `[${[...idx, ':', ':'].join(', ')}]`));
    }
    const table = h('table', { class: 'grid' });
    const showCols = Math.min(cols, GRID.cols);
    const showRows = Math.min(rows, GRID.rows);
    if (rank >= 1) {
      const head = h('tr', {}, h('th', { class: 'corner' }));
      for (let c = 0; c < showCols; c++) head.append(h('th', {}, String(c)));
      if (showCols < cols) head.append(h('th', {}, '…'));
      table.append(h('thead', {}, head));
    }
    const body = h('tbody');
    for (let r = 0; r < showRows; r++) {
      const tr = h('tr', {}, rank >= 2 ? h('th', {}, String(r)) : rank === 1 ? h('th', {}, '') : null);
      for (let c = 0; c < showCols; c++) {
        const i = base + r * cols + c;
        const cell = cells[i];
        tr.append(h('td', { class: `cell ${cell.cls ?? ''}`, title: cell.title, 'data-index': i }, cell.text));
      }
      if (showCols < cols) tr.append(h('td', { class: 'more' }, '…'));
      body.append(tr);
    }
    if (showRows < rows) body.append(h('tr', {}, h('th', {}, '⋮'), h('td', { class: 'more', colspan: showCols }, `${rows - showRows} more rows`)));
    table.append(body);
    slice.append(table);
    slices.append(slice);
  }
  wrap.append(slices);
  if (showSlices < nSlices) wrap.append(h('p', { class: 'muted small' }, `showing ${showSlices} of ${nSlices} slices`));
  return wrap;
}

export function tensorCells(dtype, data) {
  const { values, text, titles } = formatTensor(dtype, data);
  const cells = new Array(values.length);
  for (let i = 0; i < values.length; i++) cells[i] = { text: text[i], title: titles[i], cls: cellClass(values[i]) };
  return cells;
}

// ---------------------------------------------------------------- broadcasting pictures

/** Per output axis: how this input reaches it: 'kept', 'stretched' (dim 1), or 'new' (missing axis). */
export function axisStates(inShape, outShape) {
  const pad = outShape.length - inShape.length;
  return outShape.map((d, a) => {
    if (a < pad) return { state: 'new', from: null, to: d };
    const k = inShape[a - pad];
    if (k === d) return { state: 'kept', from: k, to: d };
    return { state: 'stretched', from: k, to: d };
  });
}

/** Which input element each output element reads (numpy broadcasting). */
function sourceIndex(inShape, outShape) {
  const pad = outShape.length - inShape.length;
  const strides = new Array(outShape.length).fill(0);
  let st = 1;
  for (let a = inShape.length - 1; a >= 0; a--) {
    strides[a + pad] = inShape[a] === 1 && outShape[a + pad] !== 1 ? 0 : st;
    st *= inShape[a];
  }
  const n = product(outShape);
  const map = new Int32Array(n);
  const coord = new Array(outShape.length).fill(0);
  for (let i = 0; i < n; i++) {
    let src = 0;
    let copy = false;
    for (let a = 0; a < outShape.length; a++) {
      src += coord[a] * strides[a];
      if (strides[a] === 0 && coord[a] > 0) copy = true;
    }
    map[i] = copy ? -1 - src : src; // negative: a repeated copy
    for (let a = outShape.length - 1; a >= 0; a--) {
      if (++coord[a] < outShape[a]) break;
      coord[a] = 0;
    }
  }
  return map;
}

export function renderBroadcast(parsed, outShape, dtype) {
  const box = $('#broadcast');
  box.replaceChildren();
  box.append(h('h4', {}, `Broadcasting to the output shape ${showShape(outShape)}`));
  const legend = h('div', { class: 'legend small' },
    h('span', { class: 'axis-box mini', 'data-state': 'kept' }, 'kept'), ' same size ',
    h('span', { class: 'axis-box mini', 'data-state': 'stretched' }, 'stretched'), ' size 1 repeated ',
    h('span', { class: 'axis-box mini', 'data-state': 'new' }, 'new'), ' missing axis, repeated');
  box.append(legend);
  const outRow = h('div', { class: 'bc-row bc-out' },
    h('div', { class: 'bc-name' }, 'output', h('div', { class: 'muted small' }, showShape(outShape))),
    h('div', { class: 'axes' }, outShape.map((d, a) => h('div', { class: 'axis-box out' }, h('span', { class: 'axis-label' }, `axis ${a}`), h('b', {}, String(d))))));
  box.append(outRow);
  parsed.forEach((p, idx) => {
    const states = axisStates(p.shape, outShape);
    const stretchedAxes = states.map((st, a) => (st.state === 'kept' ? null : a)).filter((a) => a !== null);
    const factor = product(outShape) / Math.max(1, product(p.shape));
    const summary = stretchedAxes.length === 0
      ? 'used as is'
      : `stretched along axis ${stretchedAxes.join(', ')}${factor > 0 && Number.isFinite(factor) ? ` (each value used ${factor}×)` : ''}`;
    const row = h('div', { class: 'bc-row', 'data-testid': `broadcast-input-${idx}`, 'data-stretched': stretchedAxes.join(',') },
      h('div', { class: 'bc-name' }, `input ${idx}`, h('div', { class: 'muted small' }, showShape(p.shape))),
      h('div', { class: 'axes' }, states.map((st, a) =>
        h('div', { class: 'axis-box', 'data-state': st.state, 'data-axis': a, title: `axis ${a}: ${st.state}` },
          h('span', { class: 'axis-label' }, st.state),
          h('b', {}, st.state === 'new' ? `– → ${st.to}` : st.state === 'stretched' ? `${st.from} → ${st.to}` : String(st.to))))),
      h('div', { class: 'bc-summary small' }, summary));
    box.append(row);
    // The input as the kernel sees it: stretched to the output shape, repeated copies faded.
    if (stretchedAxes.length > 0 && product(outShape) <= MAX_FILL) {
      const own = tensorCells(dtype, p.data);
      const map = sourceIndex(p.shape, outShape);
      const cells = Array.from(map, (m) => {
        const src = m < 0 ? -1 - m : m;
        const c = own[src];
        return { text: c.text, title: m < 0 ? `copy of input ${idx} element ${src}` : c.title, cls: `${c.cls}${m < 0 ? ' copy' : ''}` };
      });
      box.append(h('details', { class: 'bc-details' },
        h('summary', {}, `input ${idx} stretched to ${showShape(outShape)}`),
        renderGrid(outShape, cells, { testid: `broadcast-grid-${idx}` })));
    }
  });
}

