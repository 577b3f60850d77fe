// Every error of the API: its code, what the message names, and that the
// library stays usable, leaks nothing and leaves the caller's data alone.
import { ERROR_CODES, OnnxOpsError, type Ops, type WasmTensor, createOps } from 'onnx-ops-wasm';
import { getOps, plain, thrown } from './helpers';

const f32 = (shape: number[]) => ({ dtype: 'float32', shape, data: new Float32Array(shape.reduce((a, b) => a * b, 1)) });

interface Case {
  name: string;
  code: string;
  call: (ops: Ops) => unknown;
  mentions: string[];
  input?: number | 'out';
}

const cases: Case[] = [
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
  { name: 'inputs not in an array', code: 'INVALID_ARGUMENT', call: (o) => o.max(f32([1]) as never), mentions: ['array'] },
  { name: 'element count beyond 2^53', code: 'TOO_LARGE', call: (o) => o.relu({ dtype: 'float32', shape: [2 ** 31, 2 ** 31, 2 ** 31], data: new Float32Array(1) }),
    mentions: ['2^53'] },
  { name: 'more bytes than wasm memory holds', code: 'TOO_LARGE', call: (o) => o.tensor('float32', [2 ** 20, 2 ** 12]),
    mentions: ['tensor', '[1048576,4096]', '4 GiB'] },
  { name: 'a broadcast result too large for wasm memory', code: 'TOO_LARGE',
    call: (o) => o.max([{ dtype: 'float64', shape: [2 ** 16, 1], data: new Float64Array(2 ** 16) }, { dtype: 'float64', shape: [2 ** 16], data: new Float64Array(2 ** 16) }]),
    mentions: ['[65536,65536]', '4 GiB'] },
];

describe('typed errors', () => {
  test('every documented code is exercised below', () => {
    // UNSUPPORTED_ENGINE: runtime.test.ts, in child processes whose runtime lacks something.
    const used = new Set([...cases.map((c) => c.code), 'DISPOSED', 'FOREIGN_TENSOR', 'OUT_MISMATCH', 'OUT_OF_MEMORY', 'SHAPE_MISMATCH', 'OVERLAP',
      'UNSUPPORTED_ENGINE']);
    expect([...used].sort()).toEqual([...ERROR_CODES].sort());
  });

  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const ops = await getOps();
    const before = ops.memoryStats();
    const e = thrown(() => c.call(ops));
    expect(e).toBeInstanceOf(OnnxOpsError);
    expect(e.name).toBe('OnnxOpsError');
    expect(e.code).toBe(c.code);
    for (const m of c.mentions) expect(e.message).toContain(m);
    if (c.input !== undefined) expect(e.input).toBe(c.input);
    const after = ops.memoryStats();
    expect(after.heapInUse).toBe(before.heapInUse);
    expect(after.liveAllocations).toBe(before.liveAllocations);
    expect(after.memoryBytes).toBe(before.memoryBytes); // checked before any allocation
    expect(Array.from(plain(ops.relu(new Float32Array([-1, 1]))).data as Float32Array)).toEqual([0, 1]);
  });

  test('out of the wrong shape or dtype, or not a wasm tensor', async () => {
    const ops = await getOps();
    const a = ops.tensor('float32', [2, 2]);
    const row = ops.tensor('float32', [2]);
    const wrongType = ops.tensor('float64', [2, 2]);
    let e = thrown(() => ops.max([a, row], { out: row }));
    expect(e.code).toBe('OUT_MISMATCH');
    expect(e.input).toBe('out');
    expect(e.message).toContain('float32 [2]');
    expect(e.message).toContain('float32 [2,2]');
    e = thrown(() => ops.max([a, row], { out: wrongType }));
    expect(e.code).toBe('OUT_MISMATCH');
    expect(e.message).toContain('float64');
    expect(thrown(() => ops.relu(a, { out: {} as never })).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => ops.relu(a, { out: new Float32Array(4) as never })).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => ops.relu(a, null as never)).code).toBe('INVALID_ARGUMENT');
    for (const t of [a, row, wrongType]) t.dispose();
    expect(ops.memoryStats().liveAllocations).toBe(0);
  });

  test('a typed-array out: wrong class, wrong length, partial overlap with an input', async () => {
    const ops = await getOps();
    const x = new Float32Array([1, -2, 3, -4]);
    expect(thrown(() => ops.relu(x, { out: new Float64Array(4) })).code).toBe('INVALID_ARGUMENT');
    const e = thrown(() => ops.relu(x, { out: new Float32Array(3) }));
    expect(e.code).toBe('OUT_MISMATCH');
    expect(e.message).toContain('3 elements');
    const buf = new Float32Array(8);
    buf.set([1, -2, 3, -4, 5, -6, 7, -8]);
    const a = buf.subarray(0, 4);
    const o = buf.subarray(2, 6);
    const before = Array.from(buf);
    const overlap = thrown(() => ops.relu(a, { out: o }));
    expect(overlap.code).toBe('OVERLAP');
    expect(overlap.input).toBe(0);
    expect(Array.from(buf)).toEqual(before);
    const t = ops.tensor('float32', [4], x);
    expect(thrown(() => ops.relu(t, { out: new Float32Array(4) })).code).toBe('INVALID_ARGUMENT');
    t.dispose();
  });

  test('memory exhausted: OUT_OF_MEMORY, and the library goes on working', async () => {
    const ops = await createOps();
    ops.relu(new Float32Array(4)); // an instance in use (its first blocks allocated)
    const before = ops.memoryStats();
    const big: WasmTensor[] = [];
    let e: { code: string; message: string } | undefined;
    for (let i = 0; i < 4 && !e; i++) { // 1.4 GB each: the 4 GiB memory is full by the third
      try {
        big.push(ops.tensor('uint8', [1_400_000_000]));
      } catch (err) {
        e = err as { code: string; message: string };
      }
    }
    expect(e?.code).toBe('OUT_OF_MEMORY');
    expect(e?.message).toContain('tensor');
    expect(big.length).toBeGreaterThanOrEqual(1);
    expect(ops.memoryStats().liveAllocations).toBe(before.liveAllocations + big.length);
    big.forEach((t) => t.dispose());
    expect(ops.memoryStats().heapInUse).toBe(before.heapInUse);
    const t = ops.tensor('float32', [3], new Float32Array([-1, 0, 1]));
    expect(Array.from((ops.relu(t) as WasmTensor).data as Float32Array)).toEqual([0, 0, 1]);
    expect(thrown(() => ops.tensor('uint8', [2 ** 32 - 1024])).code).toBe('TOO_LARGE');
  });

  test('errors leave the caller\'s data untouched', async () => {
    const ops = await getOps();
    const x = new Float32Array([-1, -2, -3]);
    const y = new Float32Array([5, 6]);
    expect(thrown(() => ops.max([x, y])).code).toBe('BROADCAST_MISMATCH');
    expect(thrown(() => ops.max([x, x], { opset: 0 })).code).toBe('INVALID_OPSET');
    expect(Array.from(x)).toEqual([-1, -2, -3]);
    expect(Array.from(y)).toEqual([5, 6]);
  });
});

describe('no leaks', () => {
  test('heap use returns to its baseline after thousands of calls, failing ones included', async () => {
    const ops = await createOps();
    plain(ops.max([new Float64Array(5000), new Float64Array(5000), new Float64Array(5000)]));
    const base = ops.memoryStats();
    expect(base.liveAllocations).toBe(0);
    for (let i = 0; i < 3000; i++) {
      const n = 1 + ((i * 31) % 4000);
      plain(ops.max([new Float64Array(n), new Float64Array(1), new Float64Array(n)]));
      plain(ops.relu(new Int8Array(n), { opset: 14 }));
      expect(thrown(() => ops.max([new Float32Array(n + 1), new Float32Array(n + 2)])).code).toBe('BROADCAST_MISMATCH');
      expect(thrown(() => ops.relu(new Int8Array(n), { opset: 13 })).code).toBe('DTYPE_NOT_ALLOWED');
      expect(thrown(() => ops.max([new Float32Array(n), new Float64Array(n)])).code).toBe('DTYPE_MISMATCH');
      expect(thrown(() => ops.relu(new Uint16Array(n))).code).toBe('DTYPE_NOT_ALLOWED');
      const t = ops.tensor('int64', [n]);
      const wrong = ops.tensor('int32', [n]);
      (ops.relu(t) as { dispose(): void }).dispose();
      ops.relu(t, { out: t });
      expect(thrown(() => ops.relu(t, { out: wrong })).code).toBe('OUT_MISMATCH');
      expect(thrown(() => ops.max([t, wrong])).code).toBe('DTYPE_MISMATCH');
      t.dispose();
      wrong.dispose();
      expect(thrown(() => ops.relu(t)).code).toBe('DISPOSED');
    }
    const after = ops.memoryStats();
    expect(after.heapInUse).toBe(base.heapInUse);
    expect(after.liveAllocations).toBe(0);
    expect(after.memoryBytes).toBe(base.memoryBytes);
  });
});
