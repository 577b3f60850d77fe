import { type Ops, type Result, type WasmTensor, createOps } from 'onnx-ops-wasm';

let shared: Promise<Ops> | undefined;
/** One module instance per test file. */
export const getOps = (): Promise<Ops> => (shared ??= createOps());

/** A plain result's data (throws when the op returned a wasm tensor). */
export function plain(r: Result | WasmTensor): Result {
  if (!('data' in r) || 'dispose' in r) throw new Error('expected a plain result');
  return r as Result;
}

/** Runs fn and returns the OnnxOpsError it throws (fails when it does not throw). */
export function thrown(fn: () => unknown): { code: string; message: string; op: string; input: unknown; name: string } {
  try {
    fn();
  } catch (e) {
    return e as { code: string; message: string; op: string; input: unknown; name: string };
  }
  throw new Error('expected an error');
}
