// The hostile suite (hostile-helpers.ts), buffers: views at odd offsets,
// SharedArrayBuffers, detached buffers, typed arrays of another realm or whose
// properties lie; and arguments whose buffers a later argument's getter
// detaches, resizes or disposes after their checks.
import * as vm from 'node:vm';
import { rng, refMax } from './reference';
import { createOps } from 'onnx-ops-wasm';
import { type Any, expectOnnxError, expectStatsBack, expectUsable, ops, resultBytes, useSharedInstances } from './hostile-helpers';

useSharedInstances();

describe('odd views, shared memory, detached buffers', () => {
  test('views at odd byte offsets of a larger buffer work and are not modified', () => {
    const base = ops.memoryStats();
    const buf = new ArrayBuffer(64);
    const all = new Uint8Array(buf);
    for (let i = 0; i < 64; i++) all[i] = (i * 37 + 11) & 0xff;
    const before = Uint8Array.from(all);
    const a = new Int8Array(buf, 1, 5);
    const b = new Uint8Array(buf, 3, 4);
    const rA = ops.relu(a) as Any;
    expect(Array.from(rA.data as ArrayLike<number>)).toEqual(Array.from(a, (x) => Math.max(0, x)));
    const rB = ops.max([b, { dtype: 'uint8', shape: [4], data: new Uint8Array(buf, 9, 4) }]) as Any;
    expect(Array.from(rB.data as ArrayLike<number>)).toEqual(Array.from(b, (x, i) => Math.max(x, all[9 + i])));
    const rC = ops.max([new Int8Array(buf, 1, 5), { dtype: 'int8', shape: [3, 1], data: new Int8Array(buf, 7, 3) }]) as Any;
    expect(rC.shape).toEqual([3, 5]);
    const i8 = new Int8Array(buf);
    for (let r = 0; r < 3; r++) for (let c = 0; c < 5; c++) expect(rC.data[r * 5 + c]).toBe(Math.max(i8[1 + c], i8[7 + r]));
    const rD = ops.relu({ dtype: 'int16', shape: [3], data: new Int16Array(buf, 2, 3) }) as Any;
    expect(Array.from(rD.data as ArrayLike<number>)).toEqual(Array.from(new Int16Array(buf, 2, 3), (x) => Math.max(0, x)));
    const rE = ops.max([new Float64Array(buf, 8, 3), new Float64Array(buf, 40, 3)]) as Any;
    expect(resultBytes(rE)).toEqual(refMax([
      { dtype: 'float64', shape: [3], data: new Float64Array(buf, 8, 3) },
      { dtype: 'float64', shape: [3], data: new Float64Array(buf, 40, 3) }]).bytes);
    const t = ops.tensor('uint8', [2, 2], new Uint8Array(buf, 5, 4));
    expect(Array.from(t.data as ArrayLike<number>)).toEqual(Array.from(all.subarray(5, 9)));
    t.dispose();
    expect(all).toEqual(before);
    expectStatsBack(ops, base);
  });

  test('SharedArrayBuffer-backed inputs work', () => {
    const base = ops.memoryStats();
    const sab = new SharedArrayBuffer(64);
    const f = new Float32Array(sab, 4, 6);
    f.set([-1, 2, NaN, -0, 3, -7]);
    const r = ops.relu({ dtype: 'float32', shape: [2, 3], data: f }) as Any;
    expect(Array.from(r.data as ArrayLike<number>)).toEqual([0, 2, NaN, 0, 3, 0]);
    expect(Object.is(r.data[3], 0)).toBe(true);
    expect(r.data.buffer).not.toBe(sab);
    const m = ops.max([new Int32Array(sab, 32, 4), new Int32Array([5, -5, 0, 1])]) as Any;
    expect(m.data.length).toBe(4);
    const t = ops.tensor('float32', [6], f);
    expect(Array.from(t.data as ArrayLike<number>)).toEqual(Array.from(f));
    t.dispose();
    expect(Array.from(f)).toEqual([-1, 2, NaN, -0, 3, -7]);
    expectStatsBack(ops, base);
  });

  test('detached ArrayBuffers as {dtype, shape, data}: an OnnxOpsError', () => {
    const base = ops.memoryStats();
    const buf = new ArrayBuffer(12);
    const a = new Float32Array(buf);
    structuredClone(buf, { transfer: [buf] });
    expect(buf.byteLength).toBe(0);
    // The same code in every engine (the portable suite checks the others): the detachment, not the length.
    expect(expectOnnxError(() => ops.relu({ dtype: 'float32', shape: [3], data: a }), 'INVALID_ARGUMENT').message).toContain('detached');
    expect(expectOnnxError(() => ops.max([{ type: 'float32', dims: [3], data: a }] as Any), 'INVALID_ARGUMENT').message).toContain('detached');
    expectStatsBack(ops, base);
    expectUsable(ops);
  });

  test('typed arrays from another realm are taken by their kind', () => {
    const foreign = vm.runInNewContext('new Float32Array([-1, 2])');
    expect(Array.from(ops.relu(foreign).data as Float32Array)).toEqual([0, 2]);
    expect(Array.from(ops.relu({ dtype: 'float32', shape: [2], data: foreign }).data as Float32Array)).toEqual([0, 2]);
    expectOnnxError(() => ops.relu({ dtype: 'float64', shape: [2], data: foreign }), 'INVALID_ARGUMENT');
  });

  test('typed arrays whose properties lie are read through their internal slots only (inputs and out)', async () => {
    // The library takes an input (or out) of the dtype's own class as it is,
    // without a view of its own: nothing may then read it by property.
    const touched: string[] = [];
    const trap = <T extends Float32Array>(x: T): T => {
      for (const key of ['length', 'buffer', 'byteOffset', 'byteLength', 'subarray', 'set', 'slice', 'constructor']) {
        Object.defineProperty(x, key, { get() { touched.push(key); throw new Error(`read ${key}`); } });
      }
      return x;
    };
    class Sub extends Float32Array {
      static get [Symbol.species](): Float32ArrayConstructor { touched.push('species'); return Float32Array; }
    }
    const tiny = await createOps({ scratchBytes: 4096 }); // streams: inputs are copied in windows
    for (const mine of [ops, tiny]) {
      for (const n of [5, 3001]) {
        const rand = rng(n);
        const a = Float32Array.from({ length: n }, () => rand() * 20 - 10);
        const b = Float32Array.from({ length: n }, () => rand() * 20 - 10);
        const max = a.map((x, i) => (x > b[i] ? x : b[i]));
        const relu = a.map((x) => (x > 0 ? x : 0));
        const outBits = new Float32Array(n);
        const out = trap(new Sub(outBits.buffer));
        const ta = trap(new Sub(a));
        const tb = trap(new Sub(b));
        expect(Array.from(mine.max([ta, tb]).data as Float32Array)).toEqual(Array.from(max));
        expect(Array.from(mine.max([{ dtype: 'float32', shape: [n], data: ta }, tb]).data as Float32Array))
          .toEqual(Array.from(max));
        expect(mine.max([ta, tb], { out }).data).toBe(out);
        expect(Array.from(outBits)).toEqual(Array.from(max));
        expect(Array.from(mine.relu(ta).data as Float32Array)).toEqual(Array.from(relu));
        mine.relu(ta, { out });
        expect(Array.from(outBits)).toEqual(Array.from(relu));
        expectOnnxError(() => mine.max([ta, tb], { out: trap(new Sub(a.buffer, 4, n - 1)) }), 'OUT_MISMATCH');
        const shared = new Float32Array(n + 1);
        const tc = trap(new Sub(shared.buffer, 0, n));
        expectOnnxError(() => mine.max([tc, tb], { out: trap(new Sub(shared.buffer, 4, n)) }), 'OVERLAP');
      }
    }
    expect(touched).toEqual([]);
  });
});

describe('arguments changed by a later argument\'s getter, after their checks', () => {
  // Inputs are read one by one; a getter of a later one (dtype, shape, data)
  // may detach, resize or dispose an earlier one that already passed its
  // checks. Before checkUnchanged (check/input.ts) this gave a TypeError, a wasm
  // trap (a disposed tensor's address, -1), or a result made of whatever the
  // scratch block held (a shrunk resizable buffer).
  const later = (act: () => void) => ({
    get dtype() { act(); return 'float32'; },
    shape: [4],
    data: new Float32Array([0, 0, 0, 0]),
  });
  const detach = (a: ArrayBufferView) => structuredClone(a.buffer, { transfer: [a.buffer as ArrayBuffer] });

  test('an earlier plain input detached: INVALID_ARGUMENT, plain and wasm paths', () => {
    const base = ops.memoryStats();
    ops.relu(new Float32Array([5, 222, 333, 444])); // leaves values in the scratch block
    const a = new Float32Array([1, 2, 3, 4]);
    expect(expectOnnxError(() => ops.max([a, later(() => detach(a))]), 'INVALID_ARGUMENT').input).toBe(0);
    const b = new Float32Array([1, 2, 3, 4]);
    const t = ops.tensor('float32', [4]);
    try {
      expect(expectOnnxError(() => ops.max([b, later(() => detach(b)), t]), 'INVALID_ARGUMENT').input).toBe(0);
    } finally {
      t.dispose();
    }
    expectStatsBack(ops, base);
    expectUsable(ops);
  });

  test('an earlier input over a resizable buffer shrunk or grown: INVALID_ARGUMENT, out untouched', () => {
    for (const to of [4, 0, 32]) {
      const rab = new (ArrayBuffer as Any)(16, { maxByteLength: 64 });
      const a = new Float32Array(rab); // length-tracking
      a.set([5, 6, 7, 8]);
      const out = new Float32Array([-1, -1, -1, -1]);
      expectOnnxError(() => ops.max([a, later(() => rab.resize(to))], { out }), 'INVALID_ARGUMENT');
      expect(Array.from(out)).toEqual([-1, -1, -1, -1]);
      const rab2 = new (ArrayBuffer as Any)(16, { maxByteLength: 64 });
      const fixed = new Float32Array(rab2, 0, 4); // a fixed-length view goes out of bounds when shrunk
      if (to < 16) expectOnnxError(() => ops.max([fixed, later(() => rab2.resize(to))]), 'INVALID_ARGUMENT');
    }
    expectUsable(ops);
  });

  test('an earlier wasm input or the out tensor disposed: DISPOSED, no trap, nothing freed twice', () => {
    const base = ops.memoryStats();
    const t = ops.tensor('float32', [4], new Float32Array([1, 2, 3, 4]));
    const e = expectOnnxError(() => ops.max([t, later(() => t.dispose())]), 'DISPOSED');
    expect(e.input).toBe(0);
    const out = ops.tensor('float32', [4]);
    const x = ops.tensor('float32', [4], new Float32Array([-1, 2, -3, 4]));
    const keep = ops.tensor('float32', [4], new Float32Array([9, 9, 9, 9])); // may take out's freed memory
    try {
      expect(expectOnnxError(() => ops.max([x, later(() => out.dispose())], { out }), 'DISPOSED').input).toBe('out');
      expect(expectOnnxError(() => ops.relu(later(() => out.dispose()), { out }), 'DISPOSED').input).toBe('out');
      expect(Array.from(keep.data as Float32Array)).toEqual([9, 9, 9, 9]);
    } finally {
      x.dispose();
      keep.dispose();
    }
    expectStatsBack(ops, base);
    expectUsable(ops);
  });
});
