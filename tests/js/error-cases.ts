// The bad calls of the API, one per way a call can be wrong, with the error
// each must get: errors.test.ts checks them on the sync API, worker.test.ts
// that the worker form rejects with the same errors.
import type { Ops } from 'onnx-ops-wasm';

const f32 = (shape: number[]) => ({ dtype: 'float32', shape, data: new Float32Array(shape.reduce((a, b) => a * b, 1)) });

export interface ErrorCase {
  name: string;
  code: string;
  call: (ops: Ops) => unknown;
  mentions: string[];
  input?: number | 'out';
  /** Only the sync API gets this error (the worker form takes the call). */
  syncOnly?: boolean;
}

export const cases: ErrorCase[] = [
  { name: 'incompatible broadcast shapes', code: 'BROADCAST_MISMATCH', call: (o) => o.max([f32([2, 3]), f32([4])]),
    mentions: ['Max', 'input 1', '[2,3]', '[4]'], input: 1 },
  { name: 'mixed dtypes', code: 'DTYPE_MISMATCH', call: (o) => o.max([f32([2]), new Float64Array(2)]),
    mentions: ['Max', 'input 1', 'float64', 'float32'], input: 1 },
  { name: 'dtype not allowed by the operator version', code: 'DTYPE_NOT_ALLOWED',
    call: (o) => o.relu(new Int8Array([1]), { opset: 13 }), mentions: ['Relu', 'int8', 'Relu-13', 'opset >= 14'] },
  { name: 'unsigned Relu, never allowed', code: 'DTYPE_NOT_ALLOWED', call: (o) => o.relu(new Uint8Array([1])),
    mentions: ['Relu', 'uint8', 'never'] },
  { name: 'int32 Max before opset 12', code: 'DTYPE_NOT_ALLOWED', call: (o) => o.max([new Int32Array(1)], { opset: 11 }),
    mentions: ['Max-8', 'int32', 'opset >= 12'] },
  { name: 'bfloat16 Max at opset 12', code: 'DTYPE_NOT_ALLOWED',
    call: (o) => o.max([{ dtype: 'bfloat16', shape: [1], data: new Uint16Array(1) }], { opset: 12 }), mentions: ['bfloat16', 'opset >= 13'] },
  { name: 'zero inputs to Max', code: 'ARITY', call: (o) => o.max([]), mentions: ['Max', 'at least one'] },
  { name: 'two inputs to Relu', code: 'ARITY', call: (o) => o.relu([f32([1]), f32([1])] as never), mentions: ['Relu', 'exactly one', '2'] },
  { name: 'no input to Relu', code: 'ARITY', call: (o) => (o.relu as () => unknown)(), mentions: ['Relu', 'exactly one'] },
  { name: 'data shorter than the shape', code: 'DATA_LENGTH', call: (o) => o.max([f32([1]), { dtype: 'float32', shape: [2, 2], data: new Float32Array(3) }]),
    mentions: ['Max', 'input 1', '3', '[2,2]', '4'], input: 1 },
  { name: 'data longer than the shape', code: 'DATA_LENGTH', call: (o) => o.relu({ dtype: 'int16', shape: [2], data: new Int16Array(5) }),
    mentions: ['Relu', 'input 0', '5', '[2]'], input: 0 },
  { name: 'negative dim', code: 'INVALID_SHAPE', call: (o) => o.relu({ dtype: 'float32', shape: [-1], data: new Float32Array(0) }),
    mentions: ['Relu', 'dim 0', '-1'] },
  { name: 'fractional dim', code: 'INVALID_SHAPE', call: (o) => o.max([{ dtype: 'float32', shape: [1.5], data: new Float32Array(1) }]),
    mentions: ['Max', 'input 0', '1.5'] },
  { name: 'NaN dim', code: 'INVALID_SHAPE', call: (o) => o.max([{ dtype: 'float32', shape: [NaN], data: new Float32Array(1) }]), mentions: ['NaN'] },
  { name: 'string dim', code: 'INVALID_SHAPE', call: (o) => o.max([{ dtype: 'float32', shape: ['2'] as never, data: new Float32Array(2) }]), mentions: ['"2"'] },
  { name: 'BigInt dim', code: 'INVALID_SHAPE', call: (o) => o.max([{ dtype: 'float32', shape: [2n] as never, data: new Float32Array(2) }]), mentions: ['2n'] },
  { name: 'rank in the thousands', code: 'INVALID_SHAPE', call: (o) => o.relu({ dtype: 'float32', shape: new Array(5000).fill(1), data: new Float32Array(1) }),
    mentions: ['rank 5000', '64'] },
  { name: 'unknown dtype', code: 'UNKNOWN_DTYPE', call: (o) => o.relu({ dtype: 'complex64', shape: [1], data: new Float32Array(1) }),
    mentions: ['Relu', 'input 0', '"complex64"'] },
  { name: 'unknown dtype number', code: 'UNKNOWN_DTYPE', call: (o) => o.relu({ dtype: 8, shape: [1], data: new Float32Array(1) }), mentions: ['8'] },
  { name: 'invalid opset', code: 'INVALID_OPSET', call: (o) => o.max([f32([1])], { opset: 0 }), mentions: ['Max', 'opset', '0'] },
  { name: 'fractional opset', code: 'INVALID_OPSET', call: (o) => o.relu(f32([1]), { opset: 13.5 }), mentions: ['13.5'] },
  { name: 'wrong typed array for the dtype', code: 'INVALID_ARGUMENT', call: (o) => o.relu({ dtype: 'float32', shape: [2], data: new Float64Array(2) }),
    mentions: ['Relu', 'input 0', 'Float32Array', 'Float64Array'] },
  { name: 'numbers instead of bits for float16', code: 'INVALID_ARGUMENT', call: (o) => o.relu({ dtype: 'float16', shape: [2], data: new Float32Array(2) }),
    mentions: ['Uint16Array', 'encodeFloat16'] },
  { name: 'null in place of a tensor', code: 'INVALID_ARGUMENT', call: (o) => o.max([f32([1]), null as never]), mentions: ['input 1', 'null'] },
  { name: 'a plain object in place of a tensor', code: 'INVALID_ARGUMENT', call: (o) => o.relu({ foo: 1 } as never), mentions: ['expected a tensor'] },
  { name: 'a number array as data', code: 'INVALID_ARGUMENT', call: (o) => o.relu({ dtype: 'float32', shape: [2], data: [1, 2] as never }), mentions: ['an array'] },
  { name: 'an unknown option to Max', code: 'INVALID_ARGUMENT', call: (o) => o.max([f32([1])], { foo: 1 } as never), mentions: ['Max', 'unknown option', '"foo"'] },
  { name: 'an unknown option to Relu', code: 'INVALID_ARGUMENT', call: (o) => o.relu(f32([1]), { opset: 14, out: undefined, bar: 0 } as never),
    mentions: ['Relu', 'unknown option', '"bar"'] },
  { name: 'the worker form\'s transfer on the sync form', code: 'INVALID_ARGUMENT', call: (o) => o.relu(f32([1]), { transfer: true } as never),
    mentions: ['Relu', 'unknown option', '"transfer"'], syncOnly: true },
  { name: 'inputs not in an array', code: 'INVALID_ARGUMENT', call: (o) => o.max(f32([1]) as never), mentions: ['array'] },
  { name: 'element count beyond 2^53', code: 'TOO_LARGE', call: (o) => o.relu({ dtype: 'float32', shape: [2 ** 31, 2 ** 31, 2 ** 31], data: new Float32Array(1) }),
    mentions: ['2^53'] },
  { name: 'more bytes than wasm memory holds', code: 'TOO_LARGE', call: (o) => o.tensor('float32', [2 ** 20, 2 ** 12]),
    mentions: ['tensor', '[1048576,4096]', '4 GiB'] },
  { name: 'a broadcast result too large for wasm memory', code: 'TOO_LARGE',
    call: (o) => o.max([{ dtype: 'float64', shape: [2 ** 16, 1], data: new Float64Array(2 ** 16) }, { dtype: 'float64', shape: [2 ** 16], data: new Float64Array(2 ** 16) }]),
    mentions: ['[65536,65536]', '4 GiB'] },
];

