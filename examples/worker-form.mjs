// The worker form in Node: `node examples/worker-form.mjs` (after `npm run build`).
// The ops run in a worker thread the library starts itself; each returns a Promise.
import { createOps, OnnxOpsError } from 'onnx-ops-wasm';

const ops = await createOps({ worker: true });
console.log(`worker: ${ops.worker}, backend: ${ops.backend}`);

// Inputs are copied by default: the caller's arrays stay as they were.
const x = new Float32Array([-3, -1, 0, 1, 2, 3]);
const y = await ops.relu({ dtype: 'float32', shape: [2, 3], data: x });
console.log('Relu', y.shape, Array.from(y.data), 'input kept', Array.from(x));

// { transfer: true } moves the inputs' buffers to the worker instead: the caller's arrays are then empty.
const a = new Float32Array([0.5, -5, 2.5]);
const m = await ops.max([a, new Float32Array([1, 1, 1])], { transfer: true });
console.log('Max', m.shape, Array.from(m.data), 'transferred input length', a.length);

// A typed-array out is filled when the promise resolves.
const out = new Int8Array(4);
await ops.relu(new Int8Array([-128, -1, 0, 127]), { out, opset: 14 });
console.log('Relu int8 into out', Array.from(out));

// Tensors live in the worker: chained calls copy nothing; ops.read() copies one out.
const t = await ops.tensor('float32', [3], new Float32Array([-1, 0, 7]));
await ops.max([t, await ops.tensor('float32', [1], new Float32Array([2]))], { out: t });
console.log('Max in the worker, read', Array.from((await ops.read(t)).data));

// Bad calls reject with the sync API's errors.
try {
  await ops.max([x, new Float32Array(4)]);
} catch (e) {
  if (!(e instanceof OnnxOpsError)) throw e;
  console.log(`error ${e.code}: ${e.message}`);
}

// Ends the worker (the process would exit by itself without it, too).
await ops.close();
