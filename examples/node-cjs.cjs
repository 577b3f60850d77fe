// Node, CommonJS: `node examples/node-cjs.cjs` (after `npm run build`).
const { createOps, encodeFloat16, decodeFloat16 } = require('onnx-ops-wasm');

createOps().then((ops) => {
  // float16 travels as raw bits in a Uint16Array.
  const a = { dtype: 'float16', shape: [3], data: encodeFloat16([1.5, -2, 65504]) };
  const b = { dtype: 'float16', shape: [1], data: encodeFloat16([0]) };
  const r = ops.max([a, b]);
  console.log('Max float16', Array.from(decodeFloat16(r.data)));
  // onnxruntime-common style tensors are accepted as they are.
  const ort = { type: 'int64', dims: [2], data: new BigInt64Array([-(2n ** 62n), 2n ** 62n]) };
  console.log('Relu int64', Array.from(ops.relu(ort).data, String));
});
