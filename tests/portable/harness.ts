/**
 * The portable suite's own test harness: named cases and a few assertions,
 * in plain ECMAScript, so that the same cases run under Jest and in every
 * engine's runner (tests/engines/). A failed assertion throws a SuiteFailure.
 */
import type * as Library from 'onnx-ops-wasm';
import type { TypedArray } from './reference';

/** The package's module namespace, as each runner imports it. */
export type Lib = typeof Library;
/**
 * The ops the cases call: the sync API's Ops or the worker form's WorkerOps
 * (env.form). Typed as the worker form, whose calls return Promises, so that
 * a case that forgets to await a call does not compile; awaiting the sync
 * API's plain values gives them back as they are.
 */
export type Ops = Library.WorkerOps;
export type Tensor = InstanceType<Lib['WasmTensor']>;
export type Form = 'sync' | 'worker';

/** What the runner knows of the engine, and what the suite must find there. */
export interface Env {
  /** e.g. 'node24', 'deno', 'firefox-worker'. */
  engine: string;
  /** ../shared/conformance/onnx-backend-node.json, parsed. */
  conformance: { cases: unknown[] };
  /** Features the engine is expected to have: a difference fails the suite. */
  expect: Features;
  /** Whether the suite may fill a 4 GiB wasm memory (server runtimes; not browsers, which run several pages at once). */
  bigMemory: boolean;
  /** Every createOps() of the suite asks for this backend ('wasm-simd', 'wasm', 'js'). */
  backend?: string;
  /** The backend createOps() must choose by itself in this engine. */
  expectBackend?: string;
  /** 'worker': every createOps() of the suite asks for the worker form ({ worker: true }); default 'sync'. */
  form?: Form;
}

export interface Features {
  float16Array: boolean;
  using: boolean;
  sharedArrayBuffer: boolean;
  resizableArrayBuffer: boolean;
}

export interface Case {
  name: string;
  run: () => void | Promise<void>;
}

export class SuiteFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SuiteFailure';
  }
}

export function check(cond: unknown, what: string): asserts cond {
  if (!cond) throw new SuiteFailure(what);
}

const show = (x: unknown): string => {
  try {
    return JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? `${v}n` : Object.is(v, -0) ? '-0' : Number.isNaN(v) ? 'NaN' : v));
  } catch {
    return String(x);
  }
};

/** Equality of JSON-like values (arrays, plain objects, numbers with Object.is, bigints). */
export function same(actual: unknown, expected: unknown): boolean {
  if (Object.is(actual, expected)) return true;
  if (Array.isArray(actual) && Array.isArray(expected)) {
    return actual.length === expected.length && actual.every((a, i) => same(a, expected[i]));
  }
  if (actual && expected && typeof actual === 'object' && typeof expected === 'object' &&
    !ArrayBuffer.isView(actual) && !ArrayBuffer.isView(expected)) {
    const ka = Object.keys(actual).sort();
    const kb = Object.keys(expected).sort();
    return same(ka, kb) && ka.every((k) => same((actual as never)[k], (expected as never)[k]));
  }
  return false;
}

export function eq(actual: unknown, expected: unknown, what: string): void {
  if (!same(actual, expected)) throw new SuiteFailure(`${what}: got ${show(actual)}, expected ${show(expected)}`);
}

export const bytesOf = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Bit-for-bit equality of a result's bytes with the expected bytes (NaN == NaN by bits). */
export function sameBits(actual: ArrayBufferView, expected: Uint8Array, elementBytes: number, what: string): void {
  const a = bytesOf(actual);
  if (a.length !== expected.length) throw new SuiteFailure(`${what}: ${a.length} bytes, expected ${expected.length}`);
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== expected[i]) {
      const e = Math.floor(i / elementBytes);
      const hex = (b: Uint8Array) => Array.from(b.subarray(e * elementBytes, (e + 1) * elementBytes), (x) => x.toString(16).padStart(2, '0')).join('');
      throw new SuiteFailure(`${what}: element ${e} has bytes ${hex(a)}, expected ${hex(expected)}`);
    }
  }
}

export interface ErrorShape {
  code: string;
  input?: number | 'out';
  /** Substrings the message must hold. */
  mentions?: string[];
}

/**
 * Runs fn, which must throw the library's OnnxOpsError with `op` and the
 * given code, input and message parts; returns it.
 */
export function throwsOnnx(lib: Lib, op: string, fn: () => unknown, want: ErrorShape): Library.OnnxOpsError {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  if (error === undefined) throw new SuiteFailure(`expected ${op} to throw ${want.code}, it returned`);
  if (!(error instanceof lib.OnnxOpsError)) {
    throw new SuiteFailure(`expected an OnnxOpsError ${want.code}, got ${(error as Error)?.name}: ${(error as Error)?.message ?? String(error)}`);
  }
  const e = error;
  eq(e.code, want.code, `error code (${e.message})`);
  eq(e.name, 'OnnxOpsError', 'error name');
  eq(e.op, op, `error op (${e.message})`);
  if ('input' in want) eq(e.input, want.input, `error input (${e.message})`);
  for (const m of want.mentions ?? []) check(e.message.includes(m), `message ${JSON.stringify(e.message)} should mention ${JSON.stringify(m)}`);
  check(e.message.endsWith(`[${want.code}]`), `message ${JSON.stringify(e.message)} ends with its code`);
  return e;
}

/** Like throwsOnnx for a promise. */
export async function rejectsOnnx(lib: Lib, op: string, p: Promise<unknown>, want: ErrorShape): Promise<Library.OnnxOpsError> {
  let error: unknown = undefined;
  let threw = false;
  try {
    await p;
  } catch (e) {
    error = e;
    threw = true;
  }
  check(threw, `expected ${op} to reject with ${want.code}, it resolved`);
  return throwsOnnx(lib, op, () => { throw error; }, want);
}

/** The form the suite's createOps() gives (suite.ts sets it on the library it hands the cases). */
export const formOf = (lib: Lib): Form => (lib as { suiteForm?: Form }).suiteForm ?? 'sync';

/**
 * A call that must fail with the library's OnnxOpsError: in the sync form,
 * fn throws it; in the worker form, fn returns a promise (it never throws)
 * that rejects with it. Returns the error.
 */
export async function failsOnnx(lib: Lib, op: string, fn: () => unknown, want: ErrorShape): Promise<Library.OnnxOpsError> {
  if (formOf(lib) === 'sync') return throwsOnnx(lib, op, fn, want);
  let p: unknown;
  try {
    p = fn();
  } catch (e) {
    throw new SuiteFailure(`the worker form's ${op} threw (${(e as Error)?.message ?? String(e)}); it must return a rejected promise`);
  }
  check(typeof (p as Promise<unknown> | undefined)?.then === 'function', `the worker form's ${op} returned ${show(p)}, not a promise`);
  return rejectsOnnx(lib, op, p as Promise<unknown>, want);
}

/**
 * The data of a result or tensor: a sync-API tensor's own view of its memory
 * (writes go to the tensor); the worker form's tensor is copied out with
 * ops.read().
 */
export async function dataOf(o: Ops, x: Tensor | { data: ArrayBufferView }): Promise<TypedArray> {
  const t = x as Tensor;
  if (o.worker === true && typeof t.dispose === 'function') return (await o.read(t)).data as TypedArray;
  return x.data as TypedArray;
}

/** A plain copy of a tensor: toPlain() in the sync form, ops.read() in the worker form. */
export async function plainOf(o: Ops, t: Tensor): Promise<{ dtype: Library.DType; shape: number[]; data: TypedArray }> {
  return (o.worker === true ? await o.read(t) : t.toPlain()) as never;
}

/**
 * Writes `values` into a tensor from element `at` on: through its view in the
 * sync form; in the worker form, whose tensors have no view here, as a Max of
 * one input (a copy) into it.
 */
export async function put(o: Ops, t: Tensor, values: ArrayLike<number>, at = 0): Promise<void> {
  if (o.worker !== true) {
    (t.data as Float32Array).set(values, at);
    return;
  }
  const data = (await o.read(t)).data as Float32Array;
  data.set(values, at);
  await o.max([{ dtype: t.dtype, shape: [...t.shape], data }], { out: t });
}

/** Ends an instance the case made itself: the worker form's close() (the sync API's instances need nothing). */
export async function closeOps(o: Ops): Promise<void> {
  if (o.worker === true) await o.close();
}

/** The instance's heap is back where it was, and it still computes. */
export async function stillUsable(o: Ops, before: { heapInUse: number; liveAllocations: number }, what: string): Promise<void> {
  const now = await o.memoryStats();
  eq(now.liveAllocations, before.liveAllocations, `${what}: live allocations`);
  eq(now.heapInUse, before.heapInUse, `${what}: heap in use`);
  const r = await o.relu(new Float32Array([-1, 2]));
  eq(Array.from(r.data as Float32Array), [0, 2], `${what}: a Relu afterwards`);
}
