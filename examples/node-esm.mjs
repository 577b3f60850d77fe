// Node, ES modules: `node examples/node-esm.mjs` (after `npm run build`).
import { createOps, OnnxOpsError } from 'onnx-ops-wasm';

const ops = await createOps();
console.log(`wasm SIMD: ${ops.simd}`);

const x = { dtype: 'float32', shape: [2, 3], data: new Float32Array([-3, -1, 0, 1, 2, 3]) };
const y = ops.relu(x);
console.log('Relu', y.shape, Array.from(y.data));

// Max with numpy broadcasting: [2,3] with [3] with a scalar.
const m = ops.max([x, new Float32Array([0.5, -5, 2.5]), { dtype: 'float32', shape: [], data: new Float32Array([-1]) }],
  { opset: 13 });
console.log('Max', m.shape, Array.from(m.data));

// Zero-copy: tensors in wasm memory, result written in place.
const t = ops.tensor('int8', [4], new Int8Array([-128, -1, 0, 127]));
ops.relu(t, { out: t, opset: 14 });
console.log('Relu int8 in place', Array.from(t.data));
t.dispose();

try {
  ops.max([x, new Float32Array(4)]);
} catch (e) {
  if (!(e instanceof OnnxOpsError)) throw e;
  console.log(`error ${e.code}: ${e.message}`);
}
