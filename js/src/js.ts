/**
 * onnx-ops-wasm/js: the whole API on the js backend alone, one file that
 * imports nothing and loads nothing (no WebAssembly, no import(), no
 * import.meta), for hosts that run a single script or lack web APIs:
 * React Native (Hermes), plugin sandboxes, QuickJS and other embedded engines.
 * Its createOps() takes the same options and checks them alike; what needs
 * WebAssembly or a worker is UNSUPPORTED_ENGINE naming the full entry.
 */
import { Ops } from './api/ops.js';
import { JsBackend } from './backend/js/backend.js';
import { LENT } from './lent.js';
import { type CreateOpsOptions, checkOptions, unsupported } from './options.js';
import type { WorkerOps } from './worker/client.js';

/** Returns ops on the JavaScript kernels (`ops.backend` is `'js'`). */
export async function createOps(options?: CreateOpsOptions & { worker?: false }): Promise<Ops>;
export async function createOps(options: CreateOpsOptions & { worker: true }): Promise<WorkerOps>;
export async function createOps(options?: CreateOpsOptions): Promise<Ops | WorkerOps>;
export async function createOps(options: CreateOpsOptions = {}): Promise<Ops | WorkerOps> {
  const { backend, wasmBinary, worker, float16 } = checkOptions(options);
  const full = 'onnx-ops-wasm/js has the js backend only; import \'onnx-ops-wasm\' for';
  if (worker) unsupported(`${full} the worker form`);
  if ((backend !== undefined && backend !== 'js') || wasmBinary !== undefined) unsupported(`${full} the wasm backends`);
  return new Ops(new JsBackend(LENT, float16));
}

export * from './public.js';
