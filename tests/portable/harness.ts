/**
 * The portable suite's own test harness: named cases and a few assertions,
 * in plain ECMAScript, so that the same cases run under Jest and in every
 * engine's runner (tests/engines/). A failed assertion throws a SuiteFailure.
 */
import type * as Library from 'onnx-ops-wasm';

/** The package's module namespace, as each runner imports it. */
export type Lib = typeof Library;
export type Ops = Library.Ops;

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

/** The instance's heap is back where it was, and it still computes. */
export function stillUsable(ops: Ops, before: { heapInUse: number; liveAllocations: number }, what: string): void {
  const now = ops.memoryStats();
  eq(now.liveAllocations, before.liveAllocations, `${what}: live allocations`);
  eq(now.heapInUse, before.heapInUse, `${what}: heap in use`);
  const r = ops.relu(new Float32Array([-1, 2])) as { data: Float32Array };
  eq(Array.from(r.data), [0, 2], `${what}: a Relu afterwards`);
}
