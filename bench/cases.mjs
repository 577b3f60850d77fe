// One benchmark case's columns (ours three ways, the plain floors, the peers, the
// copy limit), set up and checked bit for bit before anything is timed: shared by
// the Node runner (run.mjs) and the browser page (browser/page.mjs), which time
// them their own way. No Node APIs.

import { ARRAY_TYPES, BYTES, sizeOf, randomData, compareOutputs } from './common.mjs';
import { createPlainFloor, COPY_PLACEMENTS } from './peers.mjs';
import { outShapeOf } from './check.mjs';

/** The columns, in table order (run.mjs, browser.mjs). */
export const COLUMNS = [
  { id: 'ours', label: 'ours', desc: 'ours, plain path: typed arrays in, fresh typed array out' },
  { id: 'ours-out', label: 'ours+out', desc: 'ours, plain path with a caller-supplied output: typed arrays in, into one typed array ({ out }), reused' },
  { id: 'ours-zc', label: 'ours zero-copy', desc: 'ours, inputs and output are wasm tensors (ops.tensor), reused' },
  { id: 'floor', label: 'plain floor', desc: 'data movement alone of a plain call into wasm: the inputs copied into a wasm block, a fresh array filled from it (no compute)' },
  { id: 'floor-out', label: 'plain floor+out', desc: 'the same into a caller-supplied typed array (no allocation)' },
  { id: 'ort-web', label: 'ort-web', desc: 'onnxruntime-web, wasm EP, 1 thread, InferenceSession.run' },
  { id: 'tfjs-wasm', label: 'tfjs-wasm', desc: 'tfjs-core + tfjs-backend-wasm, tf.relu / tf.maximum, dataSync' },
  { id: 'js', label: 'js', desc: 'plain JS loop (Math.max, NaN-propagating)' },
  { id: 'copy', label: 'copy limit', desc: 'wasm memory.copy of (bytes read + bytes written)/2 bytes' },
];

/**
 * Sets up every column of one (workload, dtype, n) and runs each once, comparing
 * every output bit for bit with ours (or the JS loop's if ours is unavailable).
 * ctx: { ops, oursError, peers: { id: peer }, peerErrors, copy (createCopyLimit()),
 * freshBytes (how the library makes a fresh result), floorBlocks?, copyPlacements? }.
 * Resolves to { cols: { id: { fn, isAsync, placements? } | { na } | { error } },
 * cleanups, bytes, mismatches, record(results) (the case as run.mjs reports it) }.
 */
export async function prepareCase(ctx, wl, dtype, n, shapes, { log = console.warn } = {}) {
  const { ops, peers, copy } = ctx;
  const outShape = outShapeOf(wl.op, shapes);
  const bpe = BYTES[dtype];
  const elements = sizeOf(outShape);
  const bytesRead = shapes.reduce((s, sh) => s + sizeOf(sh) * bpe, 0);
  const bytesWritten = elements * bpe;
  const bytes = bytesRead + bytesWritten;
  const inputs = shapes.map((s, i) => ({ dtype, shape: s, data: randomData(dtype, sizeOf(s), 1000 + 31 * i + n % 997) }));
  const call = (o, args, extra) => (wl.op === 'relu' ? o.relu(args[0], extra) : o.max(args, extra));

  const cols = {};
  const cleanups = [];
  const na = (id, reason) => { cols[id] = { na: reason }; };

  // --- ours
  if (!ops) {
    for (const id of ['ours', 'ours-out', 'ours-zc']) na(id, ctx.oursError);
  } else {
    cols.ours = { fn: () => call(ops, inputs), read: (r) => r?.data, isAsync: false };
    const target = new ARRAY_TYPES[dtype](elements);
    const extraOut = { out: target };
    cols['ours-out'] = { fn: () => call(ops, inputs, extraOut), read: () => target, isAsync: false };
    try {
      const ts = inputs.map((t) => ops.tensor(dtype, t.shape, t.data));
      const o = ops.tensor(dtype, outShape);
      cleanups.push(() => { for (const t of ts) t.dispose?.(); o.dispose?.(); });
      const extra = { out: o };
      cols['ours-zc'] = { fn: () => call(ops, ts, extra), read: () => o.data, isAsync: false };
    } catch (e) { na('ours-zc', `ops.tensor failed: ${e.message}`); }
  }
  // --- plain-path floors (target 6): createPlainFloor in peers.mjs, the faster block kept by the caller
  if (ops) {
    try {
      const floor = createPlainFloor(ops, inputs, elements * bpe, ctx.freshBytes, ctx.floorBlocks);
      cleanups.push(floor.dispose);
      cols.floor = { fn: floor.fresh[0], placements: floor.fresh, read: null, isAsync: false };
      cols['floor-out'] = { fn: floor.into[0], placements: floor.into, read: null, isAsync: false };
    } catch (e) { na('floor', `ops.tensor failed: ${e.message}`); na('floor-out', `ops.tensor failed: ${e.message}`); }
  }
  // --- peers
  for (const id of ['ort-web', 'tfjs-wasm', 'js']) {
    const p = peers[id];
    if (!p) { na(id, ctx.peerErrors[id] ?? 'not selected'); continue; }
    if (!p.supports(wl.op, dtype)) { na(id, 'op/dtype not supported by this peer'); continue; }
    if (p.prepare && !(await p.prepare(wl.op, dtype, shapes))) { na(id, 'session creation failed'); continue; }
    cols[id] = { fn: () => call(p, inputs), read: (r) => r, isAsync: !!p.async };
  }
  // --- copy limit: same traffic (read + write) as the workload
  const copyLen = Math.max(1, Math.round(bytes / 2));
  cols.copy = { fn: copy.prepare(copyLen), read: null, isAsync: false, copyLen,
    placements: Array.from({ length: ctx.copyPlacements ?? COPY_PLACEMENTS }, (_, k) => copy.prepare(copyLen, k)) };

  // --- one checked run per column
  const outputs = {};
  for (const [id, c] of Object.entries(cols)) {
    if (c.na) continue;
    try {
      const r = c.isAsync ? await c.fn() : c.fn();
      if (c.read) outputs[id] = c.read(r);
      if (id === 'ours' && r && (r.dtype !== dtype || JSON.stringify([...r.shape]) !== JSON.stringify(outShape))) {
        c.warn = `result meta ${r.dtype} ${JSON.stringify(r.shape && [...r.shape])}, expected ${dtype} ${JSON.stringify(outShape)}`;
      }
    } catch (e) {
      const msg = String(e?.message ?? e).split('\n')[0];
      // a failing ours+out is "option not available"; ONNX Relu-14 has no unsigned
      // types, so a library that rejects them is n/a too; other failures are errors
      if (id === 'ours-out') cols[id] = { na: `not available: ${msg}` };
      else if (wl.op === 'relu' && dtype.startsWith('uint') && id.startsWith('ours')) cols[id] = { na: `rejected (ONNX Relu has no unsigned types): ${msg}` };
      else cols[id] = { error: msg };
    }
  }
  const refId = outputs.ours ? 'ours' : 'js';
  const ref = outputs[refId];
  const mismatches = [];
  if (ref) {
    for (const [id, out] of Object.entries(outputs)) {
      if (id === refId) continue;
      const c = compareOutputs(dtype, ref, out, 'bits');
      if (c) {
        cols[id].mismatch = c;
        mismatches.push({ column: id, vs: refId, ...c });
        log(`\n!!!!!!!! MISMATCH !!!!!!!! ${wl.label} ${dtype} n=${n}: ${id} differs from ${refId}: ${JSON.stringify(c)}\n`);
      }
    }
  }
  for (const [id, c] of Object.entries(cols)) {
    if (c.warn) log(`\n!!!!!!!! WARNING !!!!!!!! ${wl.label} ${dtype} n=${n} ${id}: ${c.warn}\n`);
    if (c.error) log(`\n!!!!!!!! ERROR !!!!!!!! ${wl.label} ${dtype} n=${n} ${id}: ${c.error}\n`);
  }
  for (const k of Object.keys(outputs)) delete outputs[k];
  return {
    cols, cleanups, bytes, mismatches,
    record: (results) => ({
      workload: wl.id, label: wl.label, op: wl.op, dtype, n, shapes, outShape, elements,
      bytes_read: bytesRead, bytes_written: bytesWritten, bytes, reference: ref ? refId : null,
      mismatches, results,
    }),
  };
}
