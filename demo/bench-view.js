// The benchmark panel's output: the bar chart, the table, and the notes on
// fresh arrays and on the page's frames.

import { $, h, s } from './dom.js';

export const fmtMs = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3));
const throughput = (n, ms) => n / (ms / 1000) / 1e6; // M elements / s
const fmtRate = (r) => (r >= 100 ? r.toFixed(0) : r >= 10 ? r.toFixed(1) : r.toFixed(2));

export function drawChart(rows, { op, dtype, n }) {
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

export function drawTable(rows, n) {
  const js = rows.find((r) => r.name === 'plain JS loop');
  const table = h('table', { class: 'bench-table', 'data-testid': 'bench-results' },
    h('thead', {}, h('tr', {}, ['', 'median', 'best', 'M elements/s', 'vs JS loop', 'runs', 'result (bits vs the reference)'].map((t) => h('th', {}, t)))));
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
      h('td', { class: r.ok ? 'ok-text' : 'error-text', 'data-testid': 'bench-check' }, r.ok ? 'matches the reference' : 'DIFFERS')));
  }
  table.append(body);
  $('#bench-table').replaceChildren(table);
}

export function showFreshNote(f) {
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

export function showGapNote(g) {
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
    + `The page draws a frame every ${fmtMs(g.sync.frameMs)} ms when idle.${g.ok ? '' : ' A RESULT DIFFERS from the reference.'}`;
}

