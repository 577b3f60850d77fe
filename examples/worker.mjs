// A module Web Worker that runs the ops off the main thread (see worker.html).
// `npm start`, then open http://127.0.0.1:8080/examples/worker.html
// With a bundler, import from 'onnx-ops-wasm' instead, and create the worker with
// new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module' }).
import { createOps } from '/dist/esm/index.js';

const ready = createOps(); // starts loading at once; messages wait for it below

// { id, op: 'max' | 'relu', inputs: [{ dtype, shape, data }], options } -> { id, result } or { id, error }
self.onmessage = async ({ data: { id, op, inputs, options } }) => {
  try {
    const ops = await ready;
    const result = op === 'max' ? ops.max(inputs, options) : ops.relu(inputs[0], options);
    // The result owns a fresh typed array: transfer it instead of copying.
    self.postMessage({ id, result }, [result.data.buffer]);
  } catch (e) {
    self.postMessage({ id, error: { name: e.name, code: e.code, message: e.message } });
  }
};
