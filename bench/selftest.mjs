// Self-test of the harness itself (needs `npm ci` in bench/, not the library):
// - onnx-model.mjs models load in onnxruntime-web and give the JS reference
//   results (float32 Relu/Max, broadcasting, rank 0, other opsets, every dtype
//   ort supports);
// - tfjs runs on its wasm backend and agrees with the JS reference;
// - the hand-written memory.copy module copies.
//
//   node bench/selftest.mjs

import { createOrtPeer, createTfjsPeer, createCopyLimit } from './peers.mjs';
import { buildModel } from './onnx-model.mjs';
import { DTYPES, randomData, checkData, compareOutputs, sizeOf } from './common.mjs';
import { expected, expectedMax, expectedRelu } from './oracle.mjs';

let passed = 0, failed = 0;
const ok = (cond, what) => {
  if (cond) passed++;
  else { failed++; console.log(`FAIL ${what}`); }
};

const ort = await createOrtPeer();
const tf = await createTfjsPeer();
ok(tf.backend === 'wasm', `tfjs backend is ${tf.backend}`);
console.log(`onnxruntime-web ${ort.version}; tfjs ${tf.version} backend=${tf.backend} simd=${tf.simd}`);
console.log('ort-web support (R=Relu, M=Max):', DTYPES.map((d) => `${d}:${ort.supports('relu', d) ? 'R' : '-'}${ort.supports('max', d) ? 'M' : '-'}`).join(' '));

const cases = [
  ['relu', [[1000]]], ['relu', [[]]], ['relu', [[3, 5, 7]]],
  ['max', [[1000], [1000]]], ['max', [[1000], [1000], [1000]]], ['max', [[3, 1024], [1024]]],
  ['max', [[1000], []]], ['max', [[], []]], ['max', [[4, 1], [5], []]], ['max', [[2, 1, 3], [4, 1]]], ['max', [[17]]],
];
for (const dtype of DTYPES) {
  for (const [op, shapes] of cases) {
    const ins = shapes.map((s, i) => ({ dtype, shape: s, data: randomData(dtype, sizeOf(s), i + 1) }));
    const ref = expected(op, dtype, ins);
    for (const p of [ort, tf]) {
      if (!p.supports(op, dtype)) continue;
      try {
        const out = op === 'relu' ? await p.relu(ins[0]) : await p.max(ins);
        const c = compareOutputs(dtype, ref, out, 'bits');
        ok(!c, `${p.name} ${op} ${dtype} ${JSON.stringify(shapes)}: ${JSON.stringify(c)}`);
      } catch (e) { ok(false, `${p.name} ${op} ${dtype} ${JSON.stringify(shapes)} threw ${e.message}`); }
    }
  }
}

// edge values (NaN, ±Inf, ±0) through ort for float32: loose comparison
{
  const n = 4099;
  const a = { dtype: 'float32', shape: [n], data: checkData('float32', n, 5) };
  const b = { dtype: 'float32', shape: [n], data: checkData('float32', n, 6) };
  const cr = compareOutputs('float32', expectedRelu('float32', a.data), await ort.relu(a), 'loose');
  const cm = compareOutputs('float32', expectedMax('float32', [a, b]).data, await ort.max([a, b]), 'loose');
  console.log(`ort-web float32 with NaN/Inf/±0: Relu ${cr ? `differs: ${JSON.stringify(cr)}` : 'agrees'}, Max ${cm ? `differs: ${JSON.stringify(cm)}` : 'agrees'} (informational)`);
}

// other opsets load too (Max-8/12, Relu-13/14)
{
  const { InferenceSession, Tensor } = await import('onnxruntime-web');
  for (const [op, opset] of [['Max', 8], ['Max', 12], ['Relu', 13], ['Relu', 14]]) {
    try {
      const s = await InferenceSession.create(buildModel({ op, dtype: 'float32', shapes: op === 'Max' ? [[2], [2]] : [[2]], opset }));
      const feeds = Object.fromEntries(s.inputNames.map((nm) => [nm, new Tensor('float32', new Float32Array([-1, 2]), [2])]));
      const r = await s.run(feeds);
      ok(r.y.data[1] === 2, `${op}-${opset} result`);
    } catch (e) { ok(false, `${op}-${opset}: ${e.message}`); }
  }
}

const copy = await createCopyLimit();
const v = copy.run(1 << 20);
ok(v.length === 1 << 20 && v[4096] === 1 && v[1] === 0, 'memory.copy copied the source');

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
