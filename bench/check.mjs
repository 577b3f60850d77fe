// Correctness check of every benchmark workload: our library vs the oracle
// (oracle.mjs: the tests' reference), small sizes, every dtype, every call path.
//
// Usable from tests without the bench's node_modules: imports neither
// onnxruntime-web nor tfjs.
//
//   import { workloads, checkWorkloads } from '../bench/check.mjs';
//   const failures = await checkWorkloads(await createOps());   // [] when all is well
//
// CLI: node bench/check.mjs [--lib path/to/index.js] [--verbose]
// Pages import it too (bench/browser/page.mjs): Node modules only in the CLI part.

import { DTYPES, ARRAY_TYPES, broadcastShapes, sizeOf, checkData, compareOutputs, isUnsigned } from './common.mjs';
import { expected as reference } from './oracle.mjs';

/**
 * The workloads. `bench: true` ones are timed by run.mjs (shapes as a
 * function of the nominal size n); the others are extra broadcast cases used
 * only by the correctness check.
 */
export function workloads() {
  const rows = (n) => Math.max(1, Math.round(n / 1024));
  return [
    { id: 'relu', op: 'relu', label: 'Relu [n]', bench: true, shapes: (n) => [[n]] },
    { id: 'max2', op: 'max', label: 'Max [n],[n]', bench: true, shapes: (n) => [[n], [n]] },
    { id: 'max3', op: 'max', label: 'Max [n],[n],[n]', bench: true, shapes: (n) => [[n], [n], [n]] },
    { id: 'max-bcast', op: 'max', label: 'Max [R,1024],[1024]', bench: true, shapes: (n) => [[rows(n), 1024], [1024]] },
    { id: 'max-scalar', op: 'max', label: 'Max [n],[]', bench: true, shapes: (n) => [[n], []] },
    // check-only cases
    { id: 'relu-2d', op: 'relu', label: 'Relu [2,n]', bench: false, shapes: (n) => [[2, n]] },
    { id: 'relu-scalar', op: 'relu', label: 'Relu []', bench: false, shapes: () => [[]] },
    { id: 'max1', op: 'max', label: 'Max [n]', bench: false, shapes: (n) => [[n]] },
    { id: 'max-scalars', op: 'max', label: 'Max [],[]', bench: false, shapes: () => [[], []] },
    { id: 'max-scalar-first', op: 'max', label: 'Max [],[n]', bench: false, shapes: (n) => [[], [n]] },
    { id: 'max-bcast-odd', op: 'max', label: 'Max [R,37],[37]', bench: false, shapes: (n) => [[Math.max(1, Math.ceil(n / 37)), 37], [37]] },
    { id: 'max-outer', op: 'max', label: 'Max [n,1],[1,5]', bench: false, shapes: (n) => [[n, 1], [1, 5]] },
    { id: 'max-mixed3', op: 'max', label: 'Max [3,1,n],[4,1],[]', bench: false, shapes: (n) => [[3, 1, n], [4, 1], []] },
    { id: 'max4', op: 'max', label: 'Max [n]x4', bench: false, shapes: (n) => [[n], [n], [n], [n]] },
  ];
}

/** output shape of a workload's shapes */
export function outShapeOf(op, shapes) {
  return op === 'relu' ? [...shapes[0]] : broadcastShapes(shapes);
}

const sameShape = (a, b) => Array.isArray(a) || ArrayBuffer.isView(a)
  ? a.length === b.length && [...a].every((v, i) => Number(v) === b[i]) : false;

/**
 * Run every workload through our library and compare with the oracle.
 * @param ops   the object returned by createOps()
 * @param opts  { dtypes, sizes, workloads: ids, mode: 'loose'|'bits' }
 *   mode 'bits' (default) is bit for bit with the library's rules (the first NaN
 *   operand, +0 over -0); 'loose' accepts any NaN payload for NaN and either sign
 *   of zero for zero (ONNX leaves both unspecified).
 * @returns {Promise<Array>} failures [{workload, dtype, n, path, reason, ...}];
 *   the array also carries `.skipped` (paths/cases not available) and `.cases` (count).
 */
export async function checkWorkloads(ops, opts = {}) {
  const dtypes = opts.dtypes ?? DTYPES;
  const sizes = opts.sizes ?? [1, 3, 16, 17, 63, 1000, 4099];
  const mode = opts.mode ?? 'bits';
  const wls = workloads().filter((w) => !opts.workloads || opts.workloads.includes(w.id));
  const failures = [];
  const skipped = [];
  let cases = 0;
  const fail = (f) => failures.push(f);

  // Is `{ out }` with a wasm tensor beside typed-array inputs available?
  let plainOut = true;
  try {
    const o = ops.tensor('float32', [2]);
    try { ops.relu({ dtype: 'float32', shape: [2], data: new Float32Array([-1, 1]) }, { out: o }); } finally { o.dispose?.(); }
  } catch (e) {
    plainOut = false;
    skipped.push({ path: 'plain+out', reason: `not available: ${e?.message ?? e}` });
  }

  for (const wl of wls) {
    const seen = new Set();
    for (const n of sizes) {
      const shapes = wl.shapes(n);
      const key = JSON.stringify(shapes);
      if (seen.has(key)) continue;
      seen.add(key);
      const outShape = outShapeOf(wl.op, shapes);
      for (const dtype of dtypes) {
        const ctx = { workload: wl.id, dtype, n, shapes: key };
        const inputs = shapes.map((s, i) => ({ dtype, shape: s, data: checkData(dtype, sizeOf(s), 17 * n + i + 1) }));
        const expected = reference(wl.op, dtype, inputs);
        const call = (args, o) => (wl.op === 'relu' ? ops.relu(args[0], o) : ops.max(args, o));
        const unsignedRelu = wl.op === 'relu' && isUnsigned(dtype);

        const paths = {
          plain: () => {
            const copies = inputs.map((t) => t.data.slice());
            const r = call(inputs.map((t) => ({ dtype: t.dtype, shape: [...t.shape], data: t.data })));
            if (!r || r.dtype !== dtype) return { reason: `result dtype ${r?.dtype}, expected ${dtype}` };
            if (!sameShape(r.shape, outShape)) return { reason: `result shape ${JSON.stringify(r.shape && [...r.shape])}, expected ${JSON.stringify(outShape)}` };
            const c = compareOutputs(dtype, expected, r.data, mode);
            if (c) return c;
            for (let i = 0; i < inputs.length; i++) {
              if (compareOutputs(dtype, copies[i], inputs[i].data, 'bits')) return { reason: `input ${i} was modified` };
            }
            return null;
          },
          'type-dims': () => {
            const r = call(inputs.map((t) => ({ type: t.dtype, dims: [...t.shape], data: t.data })));
            return compareOutputs(dtype, expected, r?.data, mode);
          },
          ...(shapes.every((s) => s.length === 1) && dtype !== 'float16' && dtype !== 'bfloat16' ? {
            bare: () => compareOutputs(dtype, expected, call(inputs.map((t) => t.data))?.data, mode),
          } : {}),
          'array-out': () => {
            // the plain path into the caller's typed array: every stale byte overwritten
            const o = new ARRAY_TYPES[dtype](sizeOf(outShape));
            new Uint8Array(o.buffer).fill(0xa5);
            const r = call(inputs, { out: o });
            if (r?.data !== o) return { reason: 'did not return the out array as its data' };
            return compareOutputs(dtype, expected, o, mode);
          },
          ...(plainOut ? {
            'plain+out': () => {
              const o = ops.tensor(dtype, outShape);
              try {
                const r = call(inputs, { out: o });
                if (r !== o) return { reason: 'did not return the out tensor' };
                return compareOutputs(dtype, expected, o.data, mode);
              } finally { o.dispose?.(); }
            },
          } : {}),
          'zero-copy': () => {
            const ts = inputs.map((t) => ops.tensor(dtype, t.shape, t.data));
            const o = ops.tensor(dtype, outShape);
            try {
              const r = call(ts, { out: o });
              if (r !== o) return { reason: 'did not return the out tensor' };
              const c = compareOutputs(dtype, expected, o.data, mode);
              if (c) return c;
              for (let i = 0; i < ts.length; i++) {
                if (compareOutputs(dtype, inputs[i].data, ts[i].data, 'bits')) return { reason: `input tensor ${i} was modified` };
              }
              return null;
            } finally { for (const t of ts) t.dispose?.(); o.dispose?.(); }
          },
        };

        for (const [p, f] of Object.entries(paths)) {
          let res;
          try {
            res = f();
            // ONNX Relu has no unsigned types: the library must refuse them.
            if (unsignedRelu) res = { reason: `Relu on ${dtype} returned instead of throwing DTYPE_NOT_ALLOWED` };
          } catch (e) {
            if (unsignedRelu && e?.code === 'DTYPE_NOT_ALLOWED') res = null;
            else res = { reason: `threw: ${e?.stack ?? e}` };
          }
          cases++;
          if (res) fail({ ...ctx, path: p, ...res });
        }
      }
    }
  }
  Object.defineProperty(failures, 'skipped', { value: skipped, enumerable: false });
  Object.defineProperty(failures, 'cases', { value: cases, enumerable: false });
  return failures;
}

// ---------------------------------------------------------------- CLI
const isMain = typeof process !== 'undefined' && process.argv?.[1] && import.meta.url === (await import('node:url')).pathToFileURL(process.argv[1]).href;
if (isMain) {
  const { pathToFileURL, fileURLToPath } = await import('node:url');
  const path = await import('node:path');
  const args = process.argv.slice(2);
  const li = args.indexOf('--lib');
  const lib = li >= 0 ? path.resolve(args[li + 1]) : path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'esm', 'index.js');
  let createOps;
  try { ({ createOps } = await import(pathToFileURL(lib).href)); } catch (e) {
    console.error(`cannot import ${lib} (run \`npm run build\` at the repo root first): ${e.message}`);
    process.exit(2);
  }
  const ops = await createOps();
  const t0 = performance.now();
  const failures = await checkWorkloads(ops);
  const dt = ((performance.now() - t0) / 1000).toFixed(1);
  const verbose = args.includes('--verbose');
  for (const s of failures.skipped) if (verbose || !s.workload) console.log(`skipped: ${JSON.stringify(s)}`);
  for (const f of failures.slice(0, 50)) console.log(`FAIL ${JSON.stringify(f)}`);
  if (failures.length > 50) console.log(`... and ${failures.length - 50} more`);
  console.log(`${failures.cases - failures.length} passed, ${failures.length} failed (${dt} s)`);
  process.exit(failures.length ? 1 : 0);
}
