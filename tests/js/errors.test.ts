// Every error of the API: its code, what the message names, and that the
// library stays usable, leaks nothing and leaves the caller's data alone.
import { ERROR_CODES, OnnxOpsError, type WasmTensor, createOps } from 'onnx-ops-wasm';
import { getOps, plain, thrown } from './helpers';

import { cases } from './error-cases';

describe('typed errors', () => {
  test('every documented code is exercised below', () => {
    // UNSUPPORTED_ENGINE: runtime.test.ts, in child processes whose runtime lacks something; WORKER_DIED: worker.test.ts.
    const used = new Set([...cases.map((c) => c.code), 'DISPOSED', 'FOREIGN_TENSOR', 'OUT_MISMATCH', 'OUT_OF_MEMORY', 'SHAPE_MISMATCH', 'OVERLAP',
      'UNSUPPORTED_ENGINE', 'WORKER_DIED']);
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

  test('an unknown option is refused by every call that is not a repeat of the op\'s last zero-copy call', async () => {
    const ops = await getOps();
    const x = ops.tensor('float32', [4], new Float32Array([-1, 2, -3, 4]));
    const y = ops.tensor('float32', [4], new Float32Array([1, 1, 1, 1]));
    const out = ops.tensor('float32', [4]);
    ops.relu(x, { out, opset: 14 });
    ops.max([x, y], { out });
    // Calls that differ from the op's last one (another input, opset or out) are checked in full.
    for (const call of [() => ops.relu(y, { out, opset: 14, opest: 13 } as never), () => ops.max([y, x], { out, foo: 1 } as never),
      () => ops.relu(x, { out, opset: 13, opest: 13 } as never), () => ops.max([x, y], { foo: 1 } as never)]) {
      const e = thrown(call);
      expect(e.code).toBe('INVALID_ARGUMENT');
      expect(e.message).toMatch(/unknown option "(opest|foo)"/);
    }
    // The documented exception (docs/API.md): the very same call again is not re-checked, its options are read as before.
    ops.relu(x, { out, opset: 14 });
    expect(() => ops.relu(x, { out, opset: 14, opest: 13 } as never)).not.toThrow();
    expect(Array.from(out.data as Float32Array)).toEqual([0, 2, 0, 4]);
    for (const t of [x, y, out]) t.dispose();
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
