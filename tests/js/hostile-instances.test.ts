// The hostile suite (hostile-helpers.ts), instances: bad createOps()
// arguments, several instances in one process, and their interleaved async use.
import { OnnxOpsError, WasmTensor, createOps } from 'onnx-ops-wasm';
import { type Any, createWarmOps, expectOnnxError, expectStatsBack, ops, useSharedInstances } from './hostile-helpers';

useSharedInstances();

describe('createOps arguments', () => {
  test('bad options and wasm bytes reject with an OnnxOpsError, quietly', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    const error = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const empty = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]); // a valid wasm module with nothing in it
      for (const options of [null, 5, { wasmBinary: new Uint8Array([1, 2, 3, 4]) }, { wasmBinary: empty },
        { wasmBinary: 'abc' }, { wasmBinary: 42 }, { wasmBinary: [0, 97, 115, 109] }]) {
        const e = await createOps(options as Any).then(() => undefined, (x: unknown) => x);
        expect(e).toBeInstanceOf(OnnxOpsError);
        expect(e).toMatchObject({ code: 'INVALID_ARGUMENT', op: 'createOps' });
      }
      expect(warn).not.toHaveBeenCalled();
      expect(error).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });
});

describe('instances and async use', () => {
  test('several instances in one process are independent', async () => {
    const a = await createWarmOps();
    const b = await createWarmOps();
    const baseB = b.memoryStats();
    const ta = a.tensor('int32', [3], new Int32Array([1, -2, 3]));
    const tb = b.tensor('int32', [3], new Int32Array([-1, 2, -3]));
    expectOnnxError(() => a.max([ta, tb]), 'FOREIGN_TENSOR');
    expectOnnxError(() => b.relu(ta), 'FOREIGN_TENSOR');
    expectOnnxError(() => a.relu(ta, { out: tb }), 'FOREIGN_TENSOR');
    // A view of one instance's memory is plain data to the other: copied in.
    const copy = b.tensor('int32', [3], ta.data);
    expect(Array.from(copy.data as ArrayLike<number>)).toEqual([1, -2, 3]);
    copy.dispose();
    expect(Array.from((a.relu(ta) as WasmTensor).toPlain().data as ArrayLike<number>)).toEqual([1, 0, 3]);
    expect(Array.from(tb.data as ArrayLike<number>)).toEqual([-1, 2, -3]);
    expect(a.memoryStats().liveAllocations).toBe(2); // ta and the relu result
    expect(b.memoryStats().liveAllocations).toBe(1);
    tb.dispose();
    expect(Array.from(ta.data as ArrayLike<number>)).toEqual([1, -2, 3]);
    ta.dispose();
    expectStatsBack(b, baseB, 'instance b');
  });

  test('interleaved async use of two instances', async () => {
    const a = ops;
    const b = await createWarmOps();
    const baseA = a.memoryStats();
    const baseB = b.memoryStats();
    const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
    const task = async (k: number): Promise<void> => {
      const o = k % 2 ? a : b;
      for (let j = 0; j < 20; j++) {
        const n = 1 + ((k * 7 + j) % 50);
        const vals = Float32Array.from({ length: n }, (_, i) => ((i + k + j) % 5) - 2);
        const t = o.tensor('float32', [n], vals);
        await tick();
        const big = j % 5 === 0 ? o.tensor('uint8', [(1 + (k % 3)) * 2 ** 20]) : undefined; // grow now and then
        await tick();
        const r = o.max([t, new Float32Array([0.5])]) as WasmTensor;
        await tick();
        expect(Array.from(t.data as ArrayLike<number>)).toEqual(Array.from(vals));
        expect(Array.from(r.data as ArrayLike<number>)).toEqual(Array.from(vals, (v) => Math.max(v, 0.5)));
        o.relu(t, { out: t });
        await tick();
        expect(Array.from(t.data as ArrayLike<number>)).toEqual(Array.from(vals, (v) => (v > 0 ? v : 0)));
        for (const x of [t, r, big]) x?.dispose();
      }
    };
    await Promise.all(Array.from({ length: 24 }, (_, k) => task(k)));
    expectStatsBack(a, baseA, 'async');
    expectStatsBack(b, baseB, 'async (b)');
  });
});
