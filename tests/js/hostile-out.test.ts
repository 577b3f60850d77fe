// The hostile suite (hostile-helpers.ts), out: wasm-tensor outs of the wrong
// shape or dtype, disposed, foreign or junk; typed-array outs of the wrong
// class or length, overlapping an input, over shared or offset memory; in
// place and aliasing.
import { WasmTensor } from 'onnx-ops-wasm';
import { type Any, expectOnnxError, expectStatsBack, ops, other, tiny, useSharedInstances } from './hostile-helpers';

useSharedInstances();

describe('out tensors', () => {
  test('wrong shape, wrong dtype, disposed, foreign, junk', () => {
    const base = ops.memoryStats();
    const otherBase = other.memoryStats();
    const x = { dtype: 'float32', shape: [2, 3], data: new Float32Array([-1, 2, -3, 4, -5, 6]) };
    const good = ops.tensor('float32', [2, 3]);
    const wrongShape = ops.tensor('float32', [3, 2]);
    const wrongRank = ops.tensor('float32', [1, 2, 3]);
    const wrongDtype = ops.tensor('float64', [2, 3]);
    const disposed = ops.tensor('float32', [2, 3]);
    disposed.dispose();
    const foreign = other.tensor('float32', [2, 3]);
    expectOnnxError(() => ops.relu(x, { out: wrongShape }), 'OUT_MISMATCH');
    expectOnnxError(() => ops.relu(x, { out: wrongRank }), 'OUT_MISMATCH');
    expectOnnxError(() => ops.relu(x, { out: wrongDtype }), 'OUT_MISMATCH');
    expectOnnxError(() => ops.relu(x, { out: disposed }), 'DISPOSED');
    expectOnnxError(() => ops.relu(x, { out: foreign }), 'FOREIGN_TENSOR');
    expectOnnxError(() => ops.max([x, x], { out: wrongShape }), 'OUT_MISMATCH');
    expectOnnxError(() => ops.max([x], { out: foreign }), 'FOREIGN_TENSOR');
    expectOnnxError(() => ops.max([foreign]), 'FOREIGN_TENSOR');
    expectOnnxError(() => ops.max([x, disposed]), 'DISPOSED');
    expectOnnxError(() => ops.relu(disposed), 'DISPOSED');
    expectOnnxError(() => disposed.data, 'DISPOSED');
    expectOnnxError(() => disposed.toPlain(), 'DISPOSED');
    disposed.dispose(); // idempotent
    expectOnnxError(() => ops.relu(x, { out: Object.create(WasmTensor.prototype) }), 'INVALID_ARGUMENT'); // a look-alike
    expectOnnxError(() => ops.relu(x, { out: { ...good } as Any }), 'INVALID_ARGUMENT');
    expectOnnxError(() => ops.relu(x, { out: x as Any }), 'INVALID_ARGUMENT');
    // The out tensor keeps its contents on every error.
    expect(Array.from(good.data as ArrayLike<number>)).toEqual([0, 0, 0, 0, 0, 0]);
    const r = ops.relu(x, { out: good });
    expect(r).toBe(good);
    expect(Array.from(good.data as ArrayLike<number>)).toEqual([0, 2, 0, 4, 0, 6]);
    for (const t of [good, wrongShape, wrongRank, wrongDtype]) t.dispose();
    foreign.dispose();
    expectStatsBack(ops, base);
    expectStatsBack(other, otherBase);
  });

  test('typed-array out: wrong class/length, overlap, wasm inputs, shared and offset views', () => {
    for (const o of [ops, tiny]) {
      const base = o.memoryStats();
      const x = { dtype: 'float32', shape: [2, 3], data: new Float32Array([-1, 2, -3, 4, -5, 6]) };
      expectOnnxError(() => o.relu(x, { out: new Float64Array(6) as Any }), 'INVALID_ARGUMENT');
      expectOnnxError(() => o.relu(x, { out: new Int32Array(6) as Any }), 'INVALID_ARGUMENT');
      expectOnnxError(() => o.relu(x, { out: new Float32Array(5) }), 'OUT_MISMATCH');
      expectOnnxError(() => o.relu(x, { out: new Float32Array(7) }), 'OUT_MISMATCH');
      expectOnnxError(() => o.relu(x, { out: new DataView(new ArrayBuffer(24)) as Any }), 'INVALID_ARGUMENT');
      expectOnnxError(() => o.max([x, new Float32Array(3)], { out: new Float32Array(3) }), 'OUT_MISMATCH');
      // Partial overlap with an input: rejected, nothing written.
      const buf = new ArrayBuffer(64);
      const input = new Float32Array(buf, 0, 6);
      input.set([-1, 2, -3, 4, -5, 6]);
      const shifted = new Float32Array(buf, 8, 6);
      const snapshot = Uint8Array.from(new Uint8Array(buf));
      expectOnnxError(() => o.relu({ dtype: 'float32', shape: [6], data: input }, { out: shifted }), 'OVERLAP');
      expectOnnxError(() => o.max([input, new Float32Array([0])], { out: shifted }), 'OVERLAP');
      // out over a broadcast input's memory, starting at the same byte: still an overlap.
      const small = new Float32Array(buf, 0, 3);
      expectOnnxError(() => o.max([{ dtype: 'float32', shape: [3], data: small }, x], { out: new Float32Array(buf, 0, 6) }),
        'OVERLAP');
      expect(new Uint8Array(buf)).toEqual(snapshot);
      // Exactly an input: in place.
      const r = o.relu({ dtype: 'float32', shape: [6], data: input }, { out: input }) as Any;
      expect(Array.from(input)).toEqual([0, 2, 0, 4, 0, 6]);
      expect(Array.from(r.data as ArrayLike<number>)).toEqual([0, 2, 0, 4, 0, 6]);
      // With a wasm input: not allowed.
      const t = o.tensor('float32', [2, 3], x.data);
      expectOnnxError(() => o.relu(t, { out: new Float32Array(6) as Any }), 'INVALID_ARGUMENT');
      t.dispose();
      // SharedArrayBuffer and offset views as out.
      const sab = new SharedArrayBuffer(40);
      const sOut = new Float32Array(sab, 4, 6);
      o.relu(x, { out: sOut });
      expect(Array.from(sOut)).toEqual([0, 2, 0, 4, 0, 6]);
      const u8 = new Uint8Array(new ArrayBuffer(9), 3, 4);
      o.max([new Uint8Array([1, 9, 3, 7]), new Uint8Array([5])], { out: u8 });
      expect(Array.from(u8)).toEqual([5, 9, 5, 7]);
      expect(Array.from(new Uint8Array(u8.buffer, 0, 3))).toEqual([0, 0, 0]);
      // Uint8ClampedArray out for uint8.
      const clamped = new Uint8ClampedArray(2);
      o.max([new Uint8Array([250, 1]), new Uint8Array([3, 200])], { out: clamped as Any });
      expect(Array.from(clamped)).toEqual([250, 200]);
      expectStatsBack(o, base, 'typed out');
    }
  });

  test('in place and aliasing: out is an input (once or several times)', () => {
    const base = ops.memoryStats();
    const a = ops.tensor('float32', [2, 2], new Float32Array([1, -2, NaN, -0]));
    const b = ops.tensor('float32', [2], new Float32Array([0, 5]));
    const r = ops.max([a, b], { out: a });
    expect(r).toBe(a);
    expect(Array.from(a.data as ArrayLike<number>)).toEqual([1, 5, NaN, 5]);
    ops.max([a, a, a], { out: a });
    expect(Array.from(a.data as ArrayLike<number>)).toEqual([1, 5, NaN, 5]);
    ops.relu(b, { out: b });
    expect(Array.from(b.data as ArrayLike<number>)).toEqual([0, 5]);
    // out over an input of another shape: rejected before anything is written (the result is [2, 2]).
    expectOnnxError(() => ops.max([b, a], { out: b }), 'OUT_MISMATCH');
    expect(Array.from(b.data as ArrayLike<number>)).toEqual([0, 5]);
    // The result as a fresh wasm tensor when an input is one.
    const fresh = ops.max([b, new Float32Array([-1, 9])]) as WasmTensor;
    expect(fresh).toBeInstanceOf(WasmTensor);
    expect(Array.from(fresh.data as ArrayLike<number>)).toEqual([0, 9]);
    for (const t of [a, b, fresh]) t.dispose();
    expectStatsBack(ops, base);
  });
});
