// The onnx-ops-wasm demo page: a playground for Max and Relu (op, opset,
// dtype, inputs, broadcasting, the library's own errors) and a benchmark.
// Plain ES module, no framework: it loads the library the way an app would.

import {
  createOps,
  broadcastShapes,
  supportedDtypes,
  opVersion,
  OP_VERSIONS,
  OnnxOpsError,
  DTYPES,
  DTYPE_INFO,
  encodeFloat16,
  decodeFloat16,
  encodeBfloat16,
  decodeBfloat16,
  float16ToNumber,
  numberToFloat16,
  bfloat16ToNumber,
  numberToBfloat16,
} from '/dist/esm/index.js';

// ---------------------------------------------------------------- constants

const MAX_OPSET = 24;
const DEFAULT_OPSET = 18;
/** Random fill and grid previews stay this small; the benchmark does big tensors. */
const MAX_FILL = 100_000;
const GRID = { rows: 12, cols: 12, slices: 8 };

const FLOATS = new Set(['float32', 'float64', 'float16', 'bfloat16']);
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

// ---------------------------------------------------------------- DOM helpers

const $ = (sel, root = document) => root.querySelector(sel);

/** h('div', { class: 'x', dataset: { a: 1 }, onclick }, child, ...) */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}
function append(el, children) {
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === 'text') el.textContent = v;
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c) el.append(c);
  return el;
}

const showShape = (shape) => `[${shape.join(',')}]`;
const product = (shape) => shape.reduce((a, b) => a * b, 1);

// ---------------------------------------------------------------- dtype facts

/** Why `dtype` is not allowed for `op` at `opset`, or '' when it is. */
function disallowReason(op, opset, dtype) {
  if (supportedDtypes(op, opset).includes(dtype)) return '';
  const since = OP_VERSIONS[op].find((v) => supportedDtypes(op, v).includes(dtype));
  return since === undefined ? `${op} never takes ${dtype}` : `${dtype} needs opset >= ${since}`;
}

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
function renderGrid(shape, cells, { testid, label } = {}) {
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

function tensorCells(dtype, data) {
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

function renderBroadcast(parsed, outShape, dtype) {
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

// ---------------------------------------------------------------- state

const state = {
  op: 'Max',
  opset: DEFAULT_OPSET,
  dtype: 'float32',
  allowDisallowed: false,
  inputs: [
    { shape: '2,3', values: '1, -2, 3\n-4, 5, -6' },
    { shape: '3', values: '0, 2, -1' },
  ],
};
let ops = null;
let runCount = 0;

const activeInputs = () => (state.op === 'Relu' ? state.inputs.slice(0, 1) : state.inputs);

// ---------------------------------------------------------------- controls

function renderOpsetOptions() {
  const sel = $('#opset');
  sel.replaceChildren();
  for (let v = 1; v <= MAX_OPSET; v++) sel.append(h('option', { value: v }, String(v)));
  sel.value = String(state.opset);
}

function renderControls() {
  $('#op-max').checked = state.op === 'Max';
  $('#op-relu').checked = state.op === 'Relu';
  $('#opset').value = String(state.opset);
  const version = opVersion(state.op, state.opset);
  const ver = $('#op-version');
  ver.textContent = `${state.op}-${version}`;
  ver.dataset.version = String(version);
  ver.title = `opset ${state.opset} runs ${state.op} version ${version} (the newest version not above the opset)`;

  const tl = $('#version-timeline');
  tl.replaceChildren(h('span', { class: 'muted small' }, `${state.op} versions:`));
  for (const v of OP_VERSIONS[state.op]) {
    tl.append(h('button', {
      type: 'button',
      class: `chip${v === version ? ' active' : ''}`,
      title: `use opset ${v}`,
      onclick: () => { state.opset = v; update(); },
    }, String(v)));
  }

  const allowed = supportedDtypes(state.op, state.opset);
  const sel = $('#dtype');
  sel.replaceChildren();
  for (const d of DTYPES) {
    const reason = disallowReason(state.op, state.opset, d);
    const opt = h('option', { value: d, 'data-allowed': reason ? 'false' : 'true', title: reason || undefined }, reason ? `${d} — ${reason}` : d);
    opt.disabled = Boolean(reason) && !state.allowDisallowed;
    opt.selected = d === state.dtype;
    sel.append(opt);
  }
  $('#allow-disallowed').checked = state.allowDisallowed;
  const note = $('#dtype-note');
  const reason = disallowReason(state.op, state.opset, state.dtype);
  note.replaceChildren(`${state.op}-${version} takes: ${allowed.join(', ')}.`);
  note.classList.toggle('warn', Boolean(reason));
  if (reason) note.append(h('br'), h('b', {}, `${state.dtype} is not allowed here (${reason}); the call runs anyway, so the library's error shows.`));

  $('#add-input').hidden = state.op !== 'Max';
}

// ---------------------------------------------------------------- input cards

function renderInputCards() {
  const list = $('#inputs');
  list.replaceChildren();
  state.inputs.forEach((inp, idx) => {
    const hiddenForRelu = state.op === 'Relu' && idx > 0;
    const shapeId = `input-${idx}-shape`;
    const valuesId = `input-${idx}-values`;
    const card = h('div', { class: 'card input-card', 'data-testid': `input-${idx}`, 'data-index': idx, hidden: hiddenForRelu },
      h('div', { class: 'card-head' },
        h('h4', {}, state.op === 'Relu' ? 'input 0 (X)' : `input ${idx}`),
        h('div', { class: 'row' },
          h('button', { type: 'button', class: 'secondary small-btn', 'data-testid': `input-${idx}-random`, onclick: () => { fillRandom(idx); update(); } }, 'Random'),
          state.op === 'Max' && state.inputs.length > 1
            ? h('button', { type: 'button', class: 'danger small-btn', 'data-testid': `input-${idx}-remove`, title: 'remove this input', onclick: () => { state.inputs.splice(idx, 1); renderInputCards(); update(); } }, 'Remove')
            : null)),
      h('div', { class: 'fields' },
        h('label', { for: shapeId }, 'shape'),
        h('input', { id: shapeId, 'data-testid': shapeId, class: 'shape-input', value: inp.shape, spellcheck: 'false', autocomplete: 'off', placeholder: 'e.g. 2,3 (empty: scalar)', oninput: (e) => { inp.shape = e.target.value; inp.note = ''; update(); } }),
        h('label', { for: valuesId }, 'values'),
        h('textarea', { id: valuesId, 'data-testid': valuesId, rows: 2, spellcheck: 'false', placeholder: 'e.g. 1, -2, 3.5', oninput: (e) => { inp.values = e.target.value; update(); } }, inp.values)),
      h('div', { class: 'input-problem', 'data-testid': `input-${idx}-problem`, hidden: true }),
      h('div', { class: 'input-preview', 'data-testid': `input-${idx}-preview` }));
    list.append(card);
  });
}

function randomValue(dtype) {
  if (FLOATS.has(dtype)) return (Math.round((Math.random() * 10 - 5) * 10) / 10).toString();
  const unsigned = dtype.startsWith('u');
  const v = unsigned ? Math.floor(Math.random() * 20) : Math.floor(Math.random() * 19) - 9;
  return String(v);
}

function fillRandom(idx) {
  const inp = state.inputs[idx];
  const p = parseShape(inp.shape);
  if (p.error || p.shape.some((d) => d < 0)) return; // the card shows the shape problem
  const n = product(p.shape);
  if (n > MAX_FILL) {
    inp.note = `Random fill makes at most ${MAX_FILL.toLocaleString('en-US')} values here (shape ${showShape(p.shape)} has ${n.toLocaleString('en-US')}); the benchmark below times big tensors.`;
    return;
  }
  inp.note = '';
  const cols = p.shape.length ? p.shape[p.shape.length - 1] : 1;
  const lines = [];
  for (let i = 0; i < n; i += Math.max(1, cols)) {
    const row = [];
    for (let j = 0; j < cols && i + j < n; j++) row.push(randomValue(state.dtype));
    lines.push(row.join(', '));
  }
  inp.values = lines.join('\n');
  $(`#input-${idx}-values`).value = inp.values;
}

function showProblem(card, text) {
  const el = $('.input-problem', card);
  el.hidden = !text;
  el.textContent = text ?? '';
  card.classList.toggle('invalid', Boolean(text));
}

// ---------------------------------------------------------------- running

function clearError() {
  $('#error').hidden = true;
  $('#error-code').textContent = '';
  $('#error-message').textContent = '';
  $('#error-detail').textContent = '';
  for (const c of document.querySelectorAll('.input-card.lib-error')) c.classList.remove('lib-error');
}

function showError(e) {
  const box = $('#error');
  box.hidden = false;
  const isLib = e instanceof OnnxOpsError;
  box.dataset.kind = isLib ? 'library' : 'unexpected';
  $('.error-title', box).textContent = isLib ? 'OnnxOpsError' : (e?.name ?? 'Error');
  $('#error-code').textContent = isLib ? e.code : '';
  $('#error-message').textContent = String(e?.message ?? e);
  $('#error-detail').textContent = isLib
    ? `code: ${e.code} · op: ${e.op} · input: ${e.input === undefined ? '(the call)' : e.input}`
    : 'not an OnnxOpsError: this is a bug (please report it)';
  if (isLib && typeof e.input === 'number') $(`[data-testid="input-${e.input}"]`)?.classList.add('lib-error');
}

function setResult(stateName, ...children) {
  const res = $('#result');
  res.dataset.state = stateName;
  res.dataset.run = String(runCount);
  res.replaceChildren(...children);
}

function run() {
  runCount++;
  clearError();
  $('#broadcast').replaceChildren();
  $('#result-meta').textContent = '';
  if (!ops) return;

  const dtype = state.dtype;
  const parsed = [];
  let invalid = false;
  activeInputs().forEach((inp, idx) => {
    const card = $(`[data-testid="input-${idx}"]`);
    const preview = $('.input-preview', card);
    preview.replaceChildren();
    const sp = parseShape(inp.shape);
    const vp = parseValues(inp.values, dtype);
    const problem = sp.error ?? vp.error;
    showProblem(card, problem);
    if (problem) {
      invalid = true;
      return;
    }
    if (inp.note) preview.append(h('p', { class: 'note warn', 'data-testid': `input-${idx}-note` }, inp.note));
    parsed.push({ shape: sp.shape, data: vp.data });
    const validShape = sp.shape.every((d) => Number.isSafeInteger(d) && d >= 0);
    const need = validShape ? product(sp.shape) : NaN;
    if (validShape && need === vp.data.length) {
      preview.append(renderGrid(sp.shape, tensorCells(dtype, vp.data), { testid: `input-${idx}-grid` }));
    } else {
      preview.append(h('p', { class: 'muted small' },
        validShape ? `${vp.data.length} value${vp.data.length === 1 ? '' : 's'} for shape ${showShape(sp.shape)}, which needs ${need}` : ''));
    }
  });
  if (invalid) {
    setResult('invalid', h('p', { class: 'muted' }, 'Fix the input marked in red to run.'));
    return;
  }

  const tensors = parsed.map((p) => ({ dtype, shape: p.shape, data: p.data }));
  const version = opVersion(state.op, state.opset);
  let result;
  const t0 = performance.now();
  try {
    result = state.op === 'Max' ? ops.max(tensors, { opset: state.opset }) : ops.relu(tensors[0], { opset: state.opset });
  } catch (e) {
    showError(e);
    setResult('error', h('p', { class: 'muted' }, `${state.op}-${version} refused the call: see the error above.`));
    if (!(e instanceof OnnxOpsError)) console.warn('unexpected error from the library', e);
    return;
  }
  const ms = performance.now() - t0;
  $('#result-meta').textContent = `${state.op}-${version} · ${ms < 0.1 ? '< 0.1' : ms.toFixed(1)} ms`;
  setResult('ok',
    h('div', { class: 'result-head' },
      h('span', {}, 'shape ', h('code', { 'data-testid': 'result-shape' }, showShape(result.shape))),
      h('span', {}, 'dtype ', h('code', { 'data-testid': 'result-dtype' }, result.dtype)),
      h('span', {}, 'elements ', h('code', {}, String(result.data.length)))),
    renderGrid(result.shape, tensorCells(result.dtype, result.data), { testid: 'result-grid' }));

  if (state.op === 'Max') {
    if (version < 8) {
      $('#broadcast').append(h('p', { class: 'muted small' }, `Max-${version} has no broadcasting (it comes with opset 8): all inputs have one shape.`));
    } else {
      renderBroadcast(parsed, broadcastShapes(...parsed.map((p) => p.shape)), dtype);
    }
  } else {
    $('#broadcast').append(h('p', { class: 'muted small' }, 'Relu is element-wise: the output has the input\'s shape.'));
  }
}

function update() {
  renderControls();
  run();
}

// ---------------------------------------------------------------- examples

const EXAMPLES = [
  { id: 'broadcast', label: 'Max [2,3] with [3]', op: 'Max', opset: 18, dtype: 'float32', inputs: [['2,3', '1, -2, 3\n-4, 5, -6'], ['3', '0, 2, -1']] },
  { id: 'broadcast-3d', label: 'Max [2,1,3] with [4,1]', op: 'Max', opset: 18, dtype: 'int32', inputs: [['2,1,3', '1 2 3\n-1 -2 -3'], ['4,1', '0 2 -5 9']] },
  { id: 'three-inputs', label: 'Max of 3 inputs', op: 'Max', opset: 13, dtype: 'float16', inputs: [['2,2', '0.1 -1 2.5 nan'], ['2,1', '0.3 -2'], ['', '0']] },
  { id: 'mismatch', label: 'Error: [2,3] with [4]', op: 'Max', opset: 18, dtype: 'float32', inputs: [['2,3', '1 2 3 4 5 6'], ['4', '0 0 0 0']] },
  { id: 'relu-int8', label: 'Relu int8 (opset 14)', op: 'Relu', opset: 14, dtype: 'int8', inputs: [['2,4', '-128 -5 0 7\n127 -1 3 -2']] },
  { id: 'relu-int8-13', label: 'Error: Relu int8 at opset 13', op: 'Relu', opset: 13, dtype: 'int8', inputs: [['2,4', '-128 -5 0 7\n127 -1 3 -2']] },
  { id: 'int64', label: 'Max int64', op: 'Max', opset: 13, dtype: 'int64', inputs: [['3', '9007199254740993 -9223372036854775808 5'], ['1', '9007199254740992']] },
];

function loadExample(ex) {
  state.op = ex.op;
  state.opset = ex.opset;
  state.dtype = ex.dtype;
  state.inputs = ex.inputs.map(([shape, values]) => ({ shape, values }));
  renderInputCards();
  update();
}

function renderExamples() {
  const bar = h('div', { class: 'examples', 'data-testid': 'examples' }, h('span', { class: 'muted small' }, 'Examples:'));
  for (const ex of EXAMPLES) {
    bar.append(h('button', { type: 'button', class: 'chip', 'data-testid': `example-${ex.id}`, onclick: () => loadExample(ex) }, ex.label));
  }
  $('#playground .controls').after(bar);
}

// ---------------------------------------------------------------- benchmark

/** Where demo/serve.mjs serves onnxruntime-web's dist/ when it is installed. */
const ORT_SERVED = '/ort/ort.wasm.min.mjs';
const ortPromises = new Map();
/**
 * onnxruntime-web, when the page has it: a global `ort`, `?ort=<module url>`, or, with
 * "compare with onnxruntime-web" ticked, the copy served at /ort/. Never fetched otherwise.
 * Resolves to { ort, source } or { ort: null, reason }.
 */
function getOrt() {
  if (globalThis.ort?.InferenceSession) return Promise.resolve({ ort: globalThis.ort, source: 'a global ort' });
  const param = new URLSearchParams(location.search).get('ort');
  const url = param ?? ($('#bench-ort-include').checked ? ORT_SERVED : null);
  if (!url) return Promise.resolve({ ort: null, reason: 'not included' });
  const href = new URL(url, location.href).href;
  if (!ortPromises.has(href)) {
    ortPromises.set(href, import(href).then((m) => {
      const ort = m.default?.InferenceSession ? m.default : m;
      ort.env.wasm.numThreads = 1;
      ort.env.wasm.wasmPaths = new URL('./', href).href;
      return { ort, source: url };
    }, (e) => ({
      ort: null,
      reason: url === ORT_SERVED
        ? 'not served at /ort/: install it (npm --prefix bench ci) and restart demo/serve.mjs'
        : `failed to load from ${url}: ${e?.message ?? e}`,
    })));
  }
  return ortPromises.get(href);
}

/** The bytes of an ONNX model with one Max (2 inputs) or Relu node over [N]. */
function onnxModel(op, dtype) {
  const ELEM = { float32: 1, uint8: 2, int8: 3, uint16: 4, int16: 5, int32: 6, int64: 7, float16: 10, float64: 11, uint32: 12, uint64: 13, bfloat16: 16 };
  const enc = new TextEncoder();
  const varint = (n) => { const out = []; while (n > 0x7f) { out.push((n & 0x7f) | 0x80); n >>>= 7; } out.push(n); return out; };
  const cat = (parts) => parts.flat();
  const int = (f, n) => [...varint(f << 3), ...varint(n)];
  const bytes = (f, b) => [...varint((f << 3) | 2), ...varint(b.length), ...b];
  const str = (f, t) => bytes(f, [...enc.encode(t)]);
  const valueInfo = (name) => cat([str(1, name), bytes(2, bytes(1, cat([int(1, ELEM[dtype]), bytes(2, bytes(1, str(2, 'N')))])))]);
  const ins = op === 'Max' ? ['a', 'b'] : ['x'];
  const node = cat([...ins.map((n) => str(1, n)), str(2, 'y'), str(4, op)]);
  const graph = cat([bytes(1, node), str(2, 'g'), ...ins.map((n) => bytes(11, valueInfo(n))), bytes(12, valueInfo('y'))]);
  const model = cat([int(1, 8), str(2, 'onnx-ops-wasm-demo'), bytes(7, graph), bytes(8, cat([str(1, ''), int(2, op === 'Max' ? 13 : 14)]))]);
  return new Uint8Array(model);
}

function randomArray(dtype, n) {
  const a = new DTYPE_INFO[dtype].array(n);
  if (FLOATS.has(dtype)) for (let i = 0; i < n; i++) a[i] = Math.random() * 2 - 1;
  else {
    const [lo, hi] = INT_RANGE[dtype];
    const span = Math.min(hi - lo + 1, 2 ** 31);
    const base = Math.max(lo, -(2 ** 30));
    for (let i = 0; i < n; i++) a[i] = base + Math.floor(Math.random() * span);
  }
  return a;
}

const nextFrame = () => new Promise((r) => setTimeout(r, 0));

/**
 * Median and best time (ms) of one call. Calls run in batches that take at
 * least 2 ms, since browsers coarsen performance.now() (to 0.1 ms here); a
 * batch that ran shorter (the JIT warmed up, say) doubles the batch size and
 * starts the samples over. Samples are taken within a time budget.
 */
async function timeIt(fn, { budgetMs = 400, minSamples = 3, maxSamples = 40 } = {}) {
  await fn();
  await fn();
  let batch = 1;
  let runs = 0;
  let times = [];
  const start = performance.now();
  while (times.length < minSamples || (times.length < maxSamples && performance.now() - start < budgetMs)) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) await fn();
    const dt = performance.now() - t0;
    runs += batch;
    if (dt < 2 && batch < 1 << 16) {
      batch *= 2;
      times = [];
      continue;
    }
    times.push(dt / batch);
  }
  times.sort((x, y) => x - y);
  return { median: times[Math.floor(times.length / 2)], min: times[0], runs };
}

/** Bit for bit, but any NaN matches any NaN (Object.is tells -0 from +0). */
function sameData(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

async function runBench() {
  const btn = $('#bench-run');
  const status = $('#bench-status');
  const op = $('#bench-op').value;
  const dtype = $('#bench-dtype').value;
  const n = Number($('#bench-size').value);
  btn.disabled = true;
  status.dataset.state = 'running';
  status.textContent = `Running ${op} on ${n.toLocaleString('en-US')} ${dtype} elements…`;
  $('#bench-chart').replaceChildren();
  $('#bench-table').replaceChildren();
  showFreshNote(null);
  showGapNote(null);
  await nextFrame();

  const rows = [];
  const a = randomArray(dtype, n);
  const b = randomArray(dtype, n);
  const Ctor = DTYPE_INFO[dtype].array;
  const opset = op === 'Max' ? 13 : 14;
  const js = () => {
    const o = new Ctor(n);
    if (op === 'Max') for (let i = 0; i < n; i++) { const x = a[i], y = b[i]; o[i] = x >= y ? x : y; }
    else for (let i = 0; i < n; i++) { const x = a[i]; o[i] = x < 0 ? 0 : x; }
    return o;
  };
  const expected = js();

  const contestants = [
    {
      name: 'onnx-ops-wasm',
      detail: 'plain arrays (copies in and out)',
      fn: () => (op === 'Max'
        ? ops.max([{ dtype, shape: [n], data: a }, { dtype, shape: [n], data: b }], { opset })
        : ops.relu({ dtype, shape: [n], data: a }, { opset })).data,
    },
    {
      name: 'onnx-ops-wasm zero-copy',
      detail: 'ops.tensor() inputs, out tensor',
      setup() {
        this.ta = ops.tensor(dtype, [n], a);
        this.tb = op === 'Max' ? ops.tensor(dtype, [n], b) : null;
        this.out = ops.tensor(dtype, [n]);
      },
      fn() {
        if (op === 'Max') ops.max([this.ta, this.tb], { opset, out: this.out });
        else ops.relu(this.ta, { opset, out: this.out });
      },
      result() { return this.out.data; },
      teardown() { this.ta?.dispose(); this.tb?.dispose(); this.out?.dispose(); },
    },
    { name: 'plain JS loop', detail: 'a for loop over typed arrays', fn: js },
  ];
  const useWorker = $('#bench-worker').checked;
  if (useWorker) {
    contestants.splice(2, 0, {
      name: 'onnx-ops-wasm worker',
      detail: 'createOps({ worker: true }): await ops.max(), inputs copied',
      async setup() { this.ops = await workerOps(); },
      async fn() {
        return (await (op === 'Max'
          ? this.ops.max([{ dtype, shape: [n], data: a }, { dtype, shape: [n], data: b }], { opset })
          : this.ops.relu({ dtype, shape: [n], data: a }, { opset }))).data;
      },
    });
  }

  const { ort, reason: ortReason } = await getOrt();
  renderOrtBadge();
  if (ort) {
    contestants.push({
      name: 'onnxruntime-web',
      detail: 'wasm backend, 1 thread (session.run)',
      async setup() {
        this.session = await ort.InferenceSession.create(onnxModel(op, dtype), { executionProviders: ['wasm'] });
        this.feeds = op === 'Max'
          ? { a: new ort.Tensor(dtype, a, [n]), b: new ort.Tensor(dtype, b, [n]) }
          : { x: new ort.Tensor(dtype, a, [n]) };
      },
      async fn() { this.last = (await this.session.run(this.feeds)).y; return this.last.data; },
      result() { return this.last?.data; },
      async teardown() { await this.session?.release?.(); },
    });
  }

  try {
    for (const c of contestants) {
      status.textContent = `Timing ${c.name}…`;
      await nextFrame();
      try {
        await c.setup?.();
        const t = await timeIt(() => c.fn(), n >= 5e6 ? { budgetMs: 600, minSamples: 3, maxSamples: 10 } : {});
        const out = c.result ? c.result() : await c.fn();
        rows.push({ ...c, ...t, ok: sameData(out, expected) });
      } catch (e) {
        rows.push({ ...c, error: e instanceof OnnxOpsError ? `${e.message}` : String(e?.message ?? e) });
      } finally {
        await c.teardown?.();
      }
    }
    status.textContent = 'Timing a fresh array of the result\'s size…';
    await nextFrame();
    await showFreshShare(rows.find((r) => r.name === 'onnx-ops-wasm'), Ctor, n);
    status.textContent = 'One call of each form while the page draws frames…';
    await showGaps({ op, dtype, n, a, b, opset, expected, useWorker });
  } finally {
    btn.disabled = false;
  }

  drawChart(rows, { op, dtype, n });
  drawTable(rows, n);
  const mem = ops.memoryStats();
  status.dataset.state = 'done';
  const ortNote = ort ? '' : ortReason === 'not included'
    ? 'onnxruntime-web was not included (tick "compare with onnxruntime-web"). '
    : `onnxruntime-web was skipped: ${ortReason}. `;
  status.textContent = `${op} on ${n.toLocaleString('en-US')} ${dtype} elements: done. ${ortNote}`
    + `wasm memory ${(mem.memoryBytes / 2 ** 20).toFixed(0)} MiB, ${mem.liveAllocations} live allocation${mem.liveAllocations === 1 ? '' : 's'} after the run.`;
}

/**
 * A plain call returns a fresh array, and the first write to each of its memory
 * pages costs what the machine charges for fresh memory, on some machines far more
 * than the call's own work (bench/README.md, "Fresh memory"). Times that alone (an
 * array of the result's size, one write per page) and says so when it is more than
 * half of the plain call: then page faults, not the library, set the plain figure,
 * and onnxruntime-web's and the JS loop's fresh results pay them too.
 */
async function showFreshShare(plain, Ctor, n) {
  if (!plain || plain.error) return showFreshNote(null);
  const stride = Math.max(1, 4096 / Ctor.BYTES_PER_ELEMENT);
  const fresh = await timeIt(() => {
    const o = new Ctor(n);
    for (let i = 0; i < n; i += stride) o[i] = 1;
    return o;
  });
  showFreshNote({ freshMs: fresh.median, plainMs: plain.median, n, name: Ctor.name });
}

function showFreshNote(f) {
  const el = $('#bench-fresh');
  if (!f) {
    el.textContent = '';
    delete el.dataset.freshMs;
    delete el.dataset.plainMs;
    delete el.dataset.dominates;
    return;
  }
  const share = f.freshMs / f.plainMs;
  const dominates = share > 0.5;
  const what = `a fresh ${f.name} of ${f.n.toLocaleString('en-US')} elements alone (allocated, each 4 KiB page written once) took ${fmtMs(f.freshMs)} ms here, ${(100 * share).toFixed(0)} % of the plain call's ${fmtMs(f.plainMs)} ms.`;
  el.dataset.freshMs = String(f.freshMs);
  el.dataset.plainMs = String(f.plainMs);
  el.dataset.dominates = String(dominates);
  el.textContent = dominates
    ? `Fresh arrays dominate what was measured: ${what} This machine charges that much for fresh memory, and every plain call's result array pays it (the JS loop's and onnxruntime-web's too); pass { out } or keep tensors in wasm memory (zero-copy) to avoid it.`
    : `${what[0].toUpperCase()}${what.slice(1)}`;
}

// ---------------------------------------------------------------- the page's frames

/** The worker form, started when the benchmark first asks for it. */
let workerOpsPromise = null;
function workerOps() {
  workerOpsPromise ??= createOps({ worker: true }).catch((e) => {
    workerOpsPromise = null;
    throw e;
  });
  return workerOpsPromise;
}

const nextAnimationFrame = () => new Promise((r) => requestAnimationFrame(r));

/** The indicator: moved on every animation frame, so it stops whenever the page's thread is busy. */
function animatePulse(now) {
  const dot = $('#bench-pulse');
  const span = dot.parentElement.clientWidth - dot.offsetWidth;
  const phase = (now / 1500) % 2; // there and back in 3 s
  dot.style.transform = `translateX(${(span * (phase < 1 ? phase : 2 - phase)).toFixed(1)}px)`;
  requestAnimationFrame(animatePulse);
}

/**
 * Runs `run` (a call) right after an animation frame and resolves to
 * { gapMs, callMs, frameMs, result }: the longest time between two of the
 * page's frames, from that one to the first after the call returned; the
 * call's time; and the usual time between frames (the median step of the
 * six frames before). Frames are stamped with performance.now() when they
 * run (a frame's own timestamp may be older than a stall).
 */
async function longestFrameGap(run) {
  const log = [];
  let on = true;
  let ready;
  const six = new Promise((r) => { ready = r; });
  const tick = () => {
    log.push(performance.now());
    if (log.length === 6) ready();
    if (on) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  await six;
  const t0 = performance.now();
  const result = await run();
  const callMs = performance.now() - t0;
  await nextAnimationFrame();
  await nextAnimationFrame();
  on = false;
  let gapMs = 0;
  for (let i = 5; i + 1 < log.length; i++) gapMs = Math.max(gapMs, log[i + 1] - log[i]);
  const steps = log.slice(1, 6).map((t, i) => t - log[i]).sort((x, y) => x - y);
  return { gapMs, callMs, frameMs: steps[2], result };
}

/**
 * One sync plain call, and with the worker toggle one worker-form call with
 * { transfer: true } (fresh copies of the inputs, made before), each while
 * the page counts its frames: the longest frame gap shows whether the page
 * stalled. Both results are checked against the JS loop's.
 */
async function showGaps({ op, dtype, n, a, b, opset, expected, useWorker }) {
  const inputs = (x, y) => (op === 'Max' ? [{ dtype, shape: [n], data: x }, { dtype, shape: [n], data: y }] : [{ dtype, shape: [n], data: x }]);
  const call = (o, options) => (op === 'Max' ? o.max(options.inputs, options) : o.relu(options.inputs[0], options));
  const sync = await longestFrameGap(() => call(ops, { inputs: inputs(a, b), opset }));
  let worker = null;
  if (useWorker) {
    const w = await workerOps();
    const moved = inputs(a.slice(), b.slice());
    worker = await longestFrameGap(() => call(w, { inputs: moved, opset, transfer: true }));
  }
  showGapNote({ sync, worker, ok: sameData(sync.result.data, expected) && (!worker || sameData(worker.result.data, expected)) });
}

function showGapNote(g) {
  const el = $('#bench-gaps');
  for (const k of ['syncGapMs', 'workerGapMs', 'frameMs', 'ok']) delete el.dataset[k];
  if (!g) {
    el.textContent = '';
    return;
  }
  const part = (r) => `${fmtMs(r.gapMs)} ms (the call took ${fmtMs(r.callMs)} ms)`;
  el.dataset.syncGapMs = String(g.sync.gapMs);
  if (g.worker) el.dataset.workerGapMs = String(g.worker.gapMs);
  el.dataset.frameMs = String(g.sync.frameMs);
  el.dataset.ok = String(g.ok);
  el.textContent = `Longest gap between this page's frames during one call: sync plain call ${part(g.sync)}; `
    + (g.worker ? `worker form with { transfer: true } ${part(g.worker)}. ` : 'tick "also run in a worker" to compare the worker form. ')
    + `The page draws a frame every ${fmtMs(g.sync.frameMs)} ms when idle.${g.ok ? '' : ' A RESULT DIFFERS from the JS loop\'s.'}`;
}

const fmtMs = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3));
const throughput = (n, ms) => n / (ms / 1000) / 1e6; // M elements / s
const fmtRate = (r) => (r >= 100 ? r.toFixed(0) : r >= 10 ? r.toFixed(1) : r.toFixed(2));

function drawChart(rows, { op, dtype, n }) {
  const W = 720;
  const labelW = 210;
  const barH = 26;
  const gap = 12;
  const top = 34;
  const right = 150;
  const H = top + rows.length * (barH + gap) + 18;
  const rates = rows.map((r) => (r.error || !(r.median > 0) ? 0 : throughput(n, r.median)));
  const maxRate = Math.max(...rates, 1e-9);
  const scale = (W - labelW - right) / maxRate;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'data-testid': 'bench-svg', class: 'bench-svg',
    'aria-label': `throughput of ${op} on ${n} ${dtype} elements` });
  svg.append(s('text', { x: 0, y: 18, class: 'chart-title', text: `${op} · ${dtype} · ${n.toLocaleString('en-US')} elements — million elements per second (longer is faster)` }));
  rows.forEach((r, i) => {
    const y = top + i * (barH + gap);
    const w = Math.max(r.error ? 0 : 2, rates[i] * scale);
    svg.append(s('text', { x: labelW - 10, y: y + barH / 2 + 5, 'text-anchor': 'end', class: 'bar-label', text: r.name }));
    const rect = s('rect', { x: labelW, y, width: w.toFixed(1), height: barH, rx: 4, class: `bar bar-${i}`, 'data-testid': 'bench-bar', 'data-name': r.name,
      'data-rate': r.error ? '' : rates[i].toFixed(3) },
    s('title', { text: r.error ? `${r.name}: ${r.error}` : `${r.name}: median ${fmtMs(r.median)} ms, ${fmtRate(rates[i])} M elements/s` }));
    svg.append(rect);
    svg.append(s('text', { x: labelW + w + 8, y: y + barH / 2 + 5, class: r.error ? 'bar-value error-text' : 'bar-value',
      text: r.error ? 'failed (see table)' : `${fmtRate(rates[i])} M/s · ${fmtMs(r.median)} ms` }));
  });
  svg.append(s('line', { x1: labelW, x2: labelW, y1: top - 6, y2: H - 14, class: 'axis-line' }));
  $('#bench-chart').replaceChildren(svg);
}

function drawTable(rows, n) {
  const js = rows.find((r) => r.name === 'plain JS loop');
  const table = h('table', { class: 'bench-table', 'data-testid': 'bench-results' },
    h('thead', {}, h('tr', {}, ['', 'median', 'best', 'M elements/s', 'vs JS loop', 'runs', 'result (bits vs JS)'].map((t) => h('th', {}, t)))));
  const body = h('tbody');
  for (const r of rows) {
    if (r.error) {
      body.append(h('tr', { 'data-name': r.name }, h('td', {}, h('b', {}, r.name), h('div', { class: 'muted small' }, r.detail)), h('td', { colspan: 6, class: 'error-text' }, r.error)));
      continue;
    }
    const speed = js && !js.error ? js.median / r.median : NaN;
    body.append(h('tr', { 'data-name': r.name },
      h('td', {}, h('b', {}, r.name), h('div', { class: 'muted small' }, r.detail)),
      h('td', {}, `${fmtMs(r.median)} ms`),
      h('td', {}, `${fmtMs(r.min)} ms`),
      h('td', {}, fmtRate(throughput(n, r.median))),
      h('td', {}, Number.isFinite(speed) ? `${speed.toFixed(2)}×` : '–'),
      h('td', {}, String(r.runs)),
      h('td', { class: r.ok ? 'ok-text' : 'error-text', 'data-testid': 'bench-check' }, r.ok ? 'matches JS' : 'DIFFERS')));
  }
  table.append(body);
  $('#bench-table').replaceChildren(table);
}

async function renderOrtBadge() {
  const badge = $('#bench-ort');
  const wanted = globalThis.ort?.InferenceSession || new URLSearchParams(location.search).has('ort') || $('#bench-ort-include').checked;
  badge.title = 'Tick "compare with onnxruntime-web" (served at /ort/ by demo/serve.mjs when installed), add a global `ort`, or open the page with ?ort=<url of ort.wasm.min.mjs>.';
  if (!wanted) {
    badge.textContent = 'onnxruntime-web: not included';
    badge.dataset.present = 'false';
    return;
  }
  badge.textContent = 'onnxruntime-web: loading…';
  badge.dataset.present = 'loading';
  const { ort, source, reason } = await getOrt();
  badge.textContent = ort ? `onnxruntime-web ${ort.env.versions?.web ?? ''}: loaded from ${source}` : `onnxruntime-web: ${reason}`;
  badge.dataset.present = ort ? 'true' : 'false';
}

// ---------------------------------------------------------------- start

function wire() {
  requestAnimationFrame(animatePulse);
  for (const r of document.querySelectorAll('input[name="op"]')) {
    r.addEventListener('change', () => {
      state.op = r.value;
      renderInputCards();
      update();
    });
  }
  $('#opset').addEventListener('change', (e) => { state.opset = Number(e.target.value); update(); });
  $('#dtype').addEventListener('change', (e) => { state.dtype = e.target.value; update(); });
  $('#allow-disallowed').addEventListener('change', (e) => { state.allowDisallowed = e.target.checked; update(); });
  $('#add-input').addEventListener('click', () => {
    const last = state.inputs[state.inputs.length - 1];
    state.inputs.push({ shape: last ? last.shape : '3', values: '' });
    renderInputCards();
    fillRandom(state.inputs.length - 1);
    update();
  });
  $('#random-all').addEventListener('click', () => {
    activeInputs().forEach((_, i) => fillRandom(i));
    update();
  });
  $('#bench-ort-include').addEventListener('change', () => renderOrtBadge());
  $('#bench-run').addEventListener('click', () => {
    runBench().catch((e) => {
      $('#bench-status').dataset.state = 'error';
      $('#bench-status').textContent = `Benchmark failed: ${e?.message ?? e}`;
    });
  });
}

async function main() {
  renderOpsetOptions();
  renderExamples();
  renderInputCards();
  wire();
  renderControls();
  renderOrtBadge();
  const load = $('#load-status');
  try {
    const t0 = performance.now();
    ops = await createOps();
    load.textContent = `library ready (${(performance.now() - t0).toFixed(0)} ms)`;
    load.dataset.state = 'ready';
  } catch (e) {
    load.textContent = `the library failed to load: ${e?.message ?? e}`;
    load.dataset.state = 'error';
    setResult('error', h('p', { class: 'error-text' }, 'The library did not load, so nothing can run. Is dist/ built (npm run build)?'));
    return;
  }
  const simd = $('#simd-status');
  simd.textContent = `WASM SIMD: ${ops.simd ? 'on' : 'off'}`;
  simd.dataset.simd = String(ops.simd);
  simd.classList.add(ops.simd ? 'on' : 'off');
  const bsimd = $('#bench-simd');
  bsimd.textContent = `ops.simd = ${ops.simd}`;
  bsimd.classList.add(ops.simd ? 'on' : 'off');
  update();
  document.body.dataset.ready = 'true';
}

main();
