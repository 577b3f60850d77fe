/**
 * Starts the worker form's worker in a browser, from the library's own file:
 * written out here, in the main file, so that bundlers (Vite, webpack,
 * rspack, Parcel) see `new Worker(new URL(..., import.meta.url))` and bundle
 * the worker file. Never a blob: URL, which a strict CSP refuses. (The worker
 * file's own build replaces this module by nothing: it starts no worker.)
 * What the engine lacks for it link.ts says, in the worker form's own file.
 */
export const startWebWorker: (() => Worker) | undefined = () =>
  // import.meta.url only inside new URL(): read alone, webpack and rspack write the build machine's path in its place.
  new Worker(new URL('./onnx-ops-wasm-worker.js', import.meta.url), { type: 'module', name: 'onnx-ops-wasm' });
