// The hostile suite (hostile-helpers.ts), memory: out of memory, frozen
// wasm tensors, growth while tensors are alive, and a soak of 100k mixed
// valid and invalid calls, each with the outcome it must have.
import { WasmTensor } from 'onnx-ops-wasm';
import { count, refMax, refRelu, rng } from './reference';
import {
  type Any, BAD_DTYPES, BAD_SHAPES, JUNK, type Outcome, RELU_DTYPES, SEED, callContract, createWarmOps, expectBytes,
  expectOnnxError, expectOutcome, expectStatsBack, expectUsable, expectedMax, expectedRelu, makeBytes, ops, other,
  plainOf, resultBytes, typedOf, useSharedInstances,
} from './hostile-helpers';

useSharedInstances();

describe('memory', () => {
  test('out of memory: OUT_OF_MEMORY, nothing leaked, no growth, still usable', () => {
    // A wasm result of 2^32 - 2^17 + 1 bytes from two small inputs (one a
    // wasm tensor, so the result is one too): the plain input is copied in
    // first, and must be freed again. A block of its size, freed before the
    // baseline, leaves room for that copy: any growth below is the result's.
    const col = { dtype: 'uint8', shape: [65535, 1], data: new Uint8Array(65535).fill(1) };
    const row = { dtype: 'uint8', shape: [1, 65535], data: new Uint8Array(65535).fill(2) };
    const w = ops.tensor('uint8', [65535, 1], col.data);
    ops.tensor('uint8', [65535]).dispose();
    const base = ops.memoryStats();
    // Above the 2 GiB one-allocation limit: refused before any allocation.
    expectOnnxError(() => ops.tensor('uint8', [2 ** 32 - 1]), 'TOO_LARGE');
    expectOnnxError(() => ops.tensor('float32', [2 ** 30 - 1]), 'TOO_LARGE');
    // The result is above the one-allocation limit: TOO_LARGE once the input is in.
    expectOnnxError(() => ops.max([w, row]), 'TOO_LARGE');
    expect(w.data[100]).toBe(1);
    const now = ops.memoryStats();
    expect(now.heapInUse).toBe(base.heapInUse);
    expect(now.liveAllocations).toBe(base.liveAllocations);
    // malloc sees that these can never fit a wasm32 heap: no growth was attempted.
    expect(now.memoryBytes).toBe(base.memoryBytes);
    w.dispose();
    expectUsable(ops);
  });

  test('a wasm tensor is frozen: assigning its fields throws and changes nothing a kernel reads', () => {
    const t = ops.tensor('float32', [4], new Float32Array([-1, 2, -3, 4]));
    const r = ops.tensor('float32', [4]);
    const foreign = other.tensor('float32', [1]);
    const base = ops.memoryStats();
    for (const [key, value] of [['size', 1e9], ['byteLength', 1e9], ['dtype', 'float64'], ['shape', [1e9]],
      ['address', 8], ['backend', (foreign as Any).backend]] as const) {
      expect(() => { (t as Any)[key] = value; }).toThrow(TypeError);
    }
    expect(() => { (t.shape as Any)[0] = 1e9; }).toThrow(TypeError);
    expect(Object.isFrozen(t)).toBe(true);
    ops.relu(t, { out: r });
    expect(Array.from(r.data as Float32Array)).toEqual([0, 2, 0, 4]);
    expect(ops.memoryStats()).toEqual(base);
    t.dispose();
    expect(t.disposed).toBe(true);
    expectOnnxError(() => ops.relu(t, { out: r }), 'DISPOSED');
    r.dispose();
    foreign.dispose();
  });

  test('memory growth while tensors are alive never corrupts them', async () => {
    const mine = await createWarmOps();
    const base = mine.memoryStats();
    const pattern = Float64Array.from({ length: 4096 }, (_, i) => (i % 7 === 0 ? -i : i * 1.5));
    const t = mine.tensor('float64', [4096], pattern);
    const small = mine.tensor('int8', [7], new Int8Array([-3, -2, -1, 0, 1, 2, 3]));
    const startBytes = mine.memoryStats().memoryBytes;
    const bigs: WasmTensor[] = [];
    while (mine.memoryStats().memoryBytes < startBytes + 200 * 2 ** 20) {
      const big = mine.tensor('uint8', [24 * 2 ** 20 + 17]);
      big.data[big.size - 1] = 0xab;
      bigs.push(big);
      // t and small stay intact through every growth step.
      expect(t.data[4095]).toBe(pattern[4095]);
      expect(small.data[0]).toBe(-3);
    }
    expect(mine.memoryStats().memoryBytes).toBeGreaterThan(startBytes);
    expect(Array.from(t.data as ArrayLike<number>)).toEqual(Array.from(pattern));
    expect(Array.from(small.data as ArrayLike<number>)).toEqual([-3, -2, -1, 0, 1, 2, 3]);
    // Ops over the old tensors after the growth, and an op that grows memory itself.
    const r = mine.relu(t) as WasmTensor;
    expect(Array.from(r.data as ArrayLike<number>)).toEqual(Array.from(pattern, (x) => (x > 0 ? x : 0)));
    const grown = mine.max([bigs[0], new Uint8Array([7])]) as WasmTensor;
    expect(grown.data[0]).toBe(7);
    expect(grown.data[grown.size - 1]).toBe(0xab);
    expect(Array.from(t.data as ArrayLike<number>)).toEqual(Array.from(pattern));
    for (const b of bigs) expect(b.data[b.size - 1]).toBe(0xab);
    for (const x of [t, small, r, grown, ...bigs]) x.dispose();
    expectStatsBack(mine, base);
    expectUsable(mine);
  });

  test('soak: 100k mixed valid/invalid calls of random sizes, heap bounded and back to baseline', () => {
    const rnd = rng(SEED);
    const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)];
    const base = ops.memoryStats();
    const pool: WasmTensor[] = [];
    let maxHeap = 0, ok = 0, errors = 0;
    // Mostly tiny shapes; one call in 40 up to 64 x 64 elements.
    const small = (): number[] => (rnd() < 0.025
      ? [1 + Math.floor(rnd() * 64), 1 + Math.floor(rnd() * 64)]
      : Array.from({ length: Math.floor(rnd() * 3) }, () => pick([1, 1, 2, 3, 4])));
    for (let i = 0; i < 100000; i++) {
      const kind = Math.floor(rnd() * 10);
      const dtype = pick(RELU_DTYPES);
      const shape = small();
      const bytes = makeBytes(dtype, count(shape), i);
      const expected: { want?: Outcome } = {}; // set by the calls that must fail: the others must give a result
      const res = callContract((): unknown => {
        switch (kind) {
          case 0: { // a new pooled tensor
            if (pool.length >= 8) pool.splice(Math.floor(rnd() * pool.length), 1)[0].dispose();
            const t = ops.tensor(dtype, shape, typedOf(dtype, bytes));
            pool.push(t);
            return t;
          }
          case 1: { // valid Relu, checked
            const r = ops.relu({ dtype, shape, data: typedOf(dtype, bytes) }) as Any;
            expectBytes(resultBytes(r), refRelu(plainOf(dtype, shape, bytes)), 'soak relu');
            return r;
          }
          case 2: { // valid Max with broadcasting, checked
            const s2 = shape.map((d) => (rnd() < 0.5 ? 1 : d));
            const b2 = makeBytes(dtype, count(s2), i + 1e6);
            const r = ops.max([{ dtype, shape, data: typedOf(dtype, bytes) }, { dtype, shape: s2, data: typedOf(dtype, b2) }]) as Any;
            expectBytes(resultBytes(r), refMax([plainOf(dtype, shape, bytes), plainOf(dtype, s2, b2)]).bytes, 'soak max');
            return r;
          }
          case 3: { // with pooled tensors, sometimes in place
            if (pool.length === 0) return null;
            const t = pick(pool);
            const r = rnd() < 0.5 ? ops.max([t, t], { out: t }) : ops.relu(t);
            if (r !== t) (r as WasmTensor).dispose();
            return r;
          }
          case 4: { // dispose one, then use it
            if (pool.length === 0) return null;
            const t = pool.splice(Math.floor(rnd() * pool.length), 1)[0];
            t.dispose();
            expected.want = { ok: false, code: 'DISPOSED' };
            return ops.relu(t);
          }
          case 5: { // DATA_LENGTH (or ok when empty)
            const inputs = [{ dtype, shape: [...shape, 5], data: typedOf(dtype, bytes) }];
            expected.want = expectedMax(inputs);
            return ops.max(inputs);
          }
          case 6: {
            const inputs = [{ dtype, shape, data: typedOf(dtype, bytes) }, pick(JUNK)];
            expected.want = expectedMax(inputs);
            return ops.max(inputs as Any);
          }
          case 7: {
            const input = { dtype: pick(BAD_DTYPES), shape, data: typedOf(dtype, bytes) };
            expected.want = expectedRelu(input);
            return ops.relu(input as Any);
          }
          case 8: {
            const inputs = [{ dtype, shape: pick(BAD_SHAPES), data: typedOf(dtype, bytes) }];
            expected.want = expectedMax(inputs);
            return ops.max(inputs as Any);
          }
          default: { // mismatch
            const inputs = [new Float32Array(3), new Float32Array(count(shape) === 3 ? 2 : 4)];
            expected.want = expectedMax(inputs);
            return ops.max(inputs);
          }
        }
      });
      if (expected.want) expectOutcome(res, expected.want, `soak call ${i} (kind ${kind}, ${dtype} ${JSON.stringify(shape)})`);
      else if (!res.ok) throw new Error(`soak call ${i} (kind ${kind}): expected a result, got ${res.error.code}: ${res.error.message}`);
      if (res.ok) {
        ok++;
        const v: Any = res.value;
        if (v instanceof WasmTensor && !pool.includes(v)) v.dispose();
      } else errors++;
      if (i % 500 === 0) {
        const s = ops.memoryStats();
        maxHeap = Math.max(maxHeap, s.heapInUse);
        expect(s.liveAllocations).toBeLessThanOrEqual(base.liveAllocations + 8);
        expect(s.heapInUse).toBeLessThan(base.heapInUse + 2 ** 20);
      }
    }
    for (const t of pool) t.dispose();
    expect(ok).toBeGreaterThan(25000);
    expect(errors).toBeGreaterThan(25000);
    expectStatsBack(ops, base, 'soak');
    expectUsable(ops);
  });
});
