/**
 * The one error class of the library. Every bad call throws an OnnxOpsError
 * with a stable `code`, the operator (`op`), the input it is about (`input`:
 * an index, `'out'`, or undefined when it is about the call as a whole), and a
 * message that says all of that in words.
 */
export type ErrorCode =
  | 'INVALID_ARGUMENT' // not a tensor-like, wrong typed-array class, bad option
  | 'UNKNOWN_DTYPE' // a dtype name or number that is not one of the twelve
  | 'DTYPE_MISMATCH' // inputs of one call with different dtypes
  | 'DTYPE_NOT_ALLOWED' // a dtype the operator version does not accept
  | 'INVALID_SHAPE' // negative, fractional, non-number dims, rank too large
  | 'SHAPE_MISMATCH' // Max-1/Max-6 inputs of different shapes
  | 'BROADCAST_MISMATCH' // shapes that do not broadcast
  | 'DATA_LENGTH' // data length does not match the shape
  | 'ARITY' // Max with no inputs, Relu with other than one
  | 'INVALID_OPSET' // an opset that is not an integer >= 1
  | 'DISPOSED' // a wasm tensor used after dispose()
  | 'FOREIGN_TENSOR' // a wasm tensor of another module instance
  | 'OUT_MISMATCH' // `out` of the wrong dtype or shape
  | 'OVERLAP' // an `out` array partially overlapping an input
  | 'TOO_LARGE' // more elements than a wasm memory can hold
  | 'OUT_OF_MEMORY' // the wasm memory could not grow
  | 'UNSUPPORTED_ENGINE' // createOps() on a runtime without something the library needs
  | 'WORKER_DIED'; // the worker form's worker ended (terminated, crashed) with the call in flight

export const ERROR_CODES: readonly ErrorCode[] = [
  'INVALID_ARGUMENT', 'UNKNOWN_DTYPE', 'DTYPE_MISMATCH', 'DTYPE_NOT_ALLOWED', 'INVALID_SHAPE',
  'SHAPE_MISMATCH', 'BROADCAST_MISMATCH', 'DATA_LENGTH', 'ARITY', 'INVALID_OPSET', 'DISPOSED',
  'FOREIGN_TENSOR', 'OUT_MISMATCH', 'OVERLAP', 'TOO_LARGE', 'OUT_OF_MEMORY', 'UNSUPPORTED_ENGINE', 'WORKER_DIED',
];

export type InputRef = number | 'out' | undefined;

export class OnnxOpsError extends Error {
  readonly code: ErrorCode;
  readonly op: string;
  readonly input: InputRef;

  constructor(code: ErrorCode, op: string, input: InputRef, problem: string) {
    const where = input === undefined ? '' : input === 'out' ? ' out:' : ` input ${input}:`;
    super(`${op}:${where} ${problem} [${code}]`);
    this.name = 'OnnxOpsError';
    this.code = code;
    this.op = op;
    this.input = input;
  }
}

Object.defineProperty(OnnxOpsError, 'name', { value: 'OnnxOpsError' }); // minified builds rename classes

/** Formats a shape the way messages show it: [2,3], [] for a scalar. */
export function showShape(shape: readonly number[]): string {
  return `[${shape.join(',')}]`;
}

/** A short description of a value for messages; never throws. */
export function describe(x: unknown): string {
  if (typeof x === 'bigint') return `${x}n`;
  if (typeof x === 'string') return JSON.stringify(x);
  if (x === null || x === undefined || typeof x === 'number' || typeof x === 'boolean') return String(x);
  if (ArrayBuffer.isView(x)) return (Object.prototype.toString.call(x) as string).slice(8, -1);
  if (Array.isArray(x)) return 'an array';
  return typeof x === 'object' ? 'an object' : typeof x;
}
