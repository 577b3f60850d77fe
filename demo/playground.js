// The playground: op, opset, dtype and inputs in, the library's result (or
// its error) out, with the broadcasting drawn.

import { broadcastShapes, supportedDtypes, opVersion, OP_VERSIONS, OnnxOpsError, DTYPES } from '/dist/esm/index.js';
import { $, h, product, showShape } from './dom.js';
import { FLOATS, MAX_FILL, parseShape, parseValues, renderBroadcast, renderGrid, tensorCells } from './format.js';

const MAX_OPSET = 24;
const DEFAULT_OPSET = 18;

// ---------------------------------------------------------------- dtype facts

/** Why `dtype` is not allowed for `op` at `opset`, or '' when it is. */
function disallowReason(op, opset, dtype) {
  if (supportedDtypes(op, opset).includes(dtype)) return '';
  const since = OP_VERSIONS[op].find((v) => supportedDtypes(op, v).includes(dtype));
  return since === undefined ? `${op} never takes ${dtype}` : `${dtype} needs opset >= ${since}`;
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


/** Draws the playground and wires its controls; `run()` shows nothing until startPlayground(). */
export function setupPlayground() {
  renderOpsetOptions();
  renderExamples();
  renderInputCards();
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
  renderControls();
}

/** Runs the playground on the loaded library. */
export function startPlayground(loaded) {
  ops = loaded;
  update();
}

/** The playground's result area when the library did not load. */
export function showLoadFailure() {
  setResult('error', h('p', { class: 'error-text' }, 'The library did not load, so nothing can run. Is dist/ built (npm run build)?'));
}
