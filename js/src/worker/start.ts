/**
 * Starts the worker form's worker in a browser, from the library's own file:
 * written out here, in the main file, so that bundlers (Vite, webpack,
 * Parcel) see `new Worker(new URL(..., import.meta.url))` and bundle the
 * worker file. Never a blob: URL, which a strict CSP refuses. (The worker
 * file's own build replaces this module by nothing: it starts no worker.)
 */
export const startWebWorker: (() => Worker) | undefined = () =>
  new Worker(new URL('./onnx-ops-wasm-worker.js', import.meta.url), { type: 'module', name: 'onnx-ops-wasm' });
