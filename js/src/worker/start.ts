/**
 * Starts the worker form's worker in a browser, from the library's own file:
 * written out here, in the main file, so that bundlers (Vite, webpack,
 * rspack, Parcel) see `new Worker(new URL(..., import.meta.url))` and bundle
 * the worker file. Never a blob: URL, which a strict CSP refuses. (The worker
 * file's own build replaces this module by nothing: it starts no worker.)
 * What the engine lacks for it is said as such, not as a missing file.
 */
export const startWebWorker: (() => Worker) | undefined = () => {
  if (typeof Worker !== 'function') throw new Error('this engine has neither Worker nor node:worker_threads');
  if (typeof URL !== 'function') throw new Error('this engine has no URL, to locate the worker\'s file');
  try {
    return new Worker(new URL('./onnx-ops-wasm-worker.js', import.meta.url), { type: 'module', name: 'onnx-ops-wasm' });
  } catch (e) {
    // import.meta.url only inside new URL(): read alone, webpack and rspack write the build machine's path in its place.
    throw e instanceof TypeError && /URL/.test(e.message) ? new Error(`no URL for the worker's file (import.meta.url is empty in a CommonJS bundle): ${e.message}`) : e;
  }
};
