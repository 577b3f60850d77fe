// Property-based: random shapes, broadcasts, dtypes and opsets against the
// reference (reference.ts), bit for bit; invalid combinations must give the
// error the opset rules call for.
import fc from 'fast-check';
import { type DType, DTYPES, type OpName, opVersion, supportedDtypes, OnnxOpsError } from 'onnx-ops-wasm';
import { type PlainTensor, count, firstDifference, randomData, refBroadcast, refMax, refRelu, rng } from './reference';
import { getOps, plain } from './helpers';
import { broadcastFields, dimOf, shapesOf } from './broadcast-cases';

const broadcastCase = fc.record({
  ...broadcastFields(70, 4),
  dtype: fc.constantFrom(...DTYPES),
  opset: fc.oneof(fc.integer({ min: 1, max: 22 }), fc.constant(undefined)),
  seed: fc.nat(),
}).filter((c) => count(c.out) <= 4000);

describe('Max: random broadcasts, dtypes, opsets', () => {
  test('matches the reference or throws what the opset rules say', async () => {
    const ops = await getOps();
    fc.assert(fc.property(broadcastCase, (c) => {
      const rand = rng(c.seed);
      const shapes = shapesOf(c);
      const inputs: PlainTensor[] = shapes.map((shape) => ({ dtype: c.dtype, shape, data: randomData(c.dtype, count(shape), rand) }));
      const copies = inputs.map((t) => t.data.slice());
      const version = opVersion('Max', c.opset);
      const allowed = supportedDtypes('Max', c.opset).includes(c.dtype);
      const same = shapes.every((s) => s.length === shapes[0].length && s.every((d, k) => d === shapes[0][k]));
      let result;
      try {
        result = plain(ops.max(inputs, { opset: c.opset }));
      } catch (e) {
        expect(e).toBeInstanceOf(OnnxOpsError);
        const code = (e as OnnxOpsError).code;
        if (!allowed) expect(code).toBe('DTYPE_NOT_ALLOWED');
        else expect(version < 8 && !same ? 'SHAPE_MISMATCH' : 'unexpected').toBe(code);
        return;
      }
      expect(allowed).toBe(true);
      if (version < 8) expect(same).toBe(true);
      const want = refMax(inputs);
      expect(result.shape).toEqual(want.shape);
      expect(firstDifference(result.data, want.bytes, result.data.BYTES_PER_ELEMENT)).toBe(-1);
      inputs.forEach((t, i) => expect(Array.from(new Uint8Array(t.data.buffer))).toEqual(Array.from(new Uint8Array(copies[i].buffer))));
    }), { seed: 20261130, numRuns: 600 });
  });

  test('incompatible shapes always give BROADCAST_MISMATCH naming an input', async () => {
    const ops = await getOps();
    const shape = fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 4 });
    fc.assert(fc.property(shape, shape, (a, b) => {
      fc.pre(refBroadcast([a, b]) === null);
      const x = { dtype: 'float32', shape: a, data: new Float32Array(count(a)) };
      const y = { dtype: 'float32', shape: b, data: new Float32Array(count(b)) };
      try {
        ops.max([x, y]);
      } catch (e) {
        expect((e as OnnxOpsError).code).toBe('BROADCAST_MISMATCH');
        expect((e as OnnxOpsError).input).toBe(1);
        expect((e as OnnxOpsError).message).toContain(`[${b.join(',')}]`);
        expect((e as OnnxOpsError).message).toContain(`[${a.join(',')}]`);
        return;
      }
      throw new Error('expected BROADCAST_MISMATCH');
    }), { seed: 7, numRuns: 300 });
  });
});

describe('Relu: random shapes, dtypes, opsets', () => {
  test('matches the reference or throws DTYPE_NOT_ALLOWED', async () => {
    const ops = await getOps();
    fc.assert(fc.property(
      fc.array(dimOf(70), { maxLength: 4 }).filter((s) => count(s) <= 5000),
      fc.constantFrom(...DTYPES), fc.integer({ min: 1, max: 22 }), fc.nat(),
      (shape, dtype: DType, opset, seed) => {
        const x: PlainTensor = { dtype, shape, data: randomData(dtype, count(shape), rng(seed)) };
        const allowed = supportedDtypes('Relu' as OpName, opset).includes(dtype);
        try {
          const r = plain(ops.relu(x, { opset }));
          expect(allowed).toBe(true);
          expect(r.shape).toEqual(shape);
          expect(firstDifference(r.data, refRelu(x), r.data.BYTES_PER_ELEMENT)).toBe(-1);
        } catch (e) {
          expect((e as OnnxOpsError).code).toBe('DTYPE_NOT_ALLOWED');
          expect(allowed).toBe(false);
        }
      }), { seed: 99, numRuns: 400 });
  });
});

describe('zero-copy path gives the same bits as the plain path', () => {
  test('random Max and Relu through wasm tensors and out', async () => {
    const ops = await getOps();
    fc.assert(fc.property(broadcastCase, (c) => {
      if (!supportedDtypes('Max').includes(c.dtype)) return;
      const rand = rng(c.seed);
      const inputs = shapesOf(c).map((shape) => ({ dtype: c.dtype, shape, data: randomData(c.dtype, count(shape), rand) }));
      const want = refMax(inputs);
      const tensors = inputs.map((t) => ops.tensor(t.dtype, t.shape, t.data));
      const out = ops.tensor(c.dtype, want.shape);
      try {
        expect(ops.max(tensors, { out })).toBe(out);
        expect(firstDifference(out.data, want.bytes, out.data.BYTES_PER_ELEMENT)).toBe(-1);
        const fresh = ops.max(tensors);
        expect('dispose' in fresh).toBe(true);
        expect(firstDifference(fresh.data, want.bytes, out.data.BYTES_PER_ELEMENT)).toBe(-1);
        (fresh as { dispose(): void }).dispose();
      } finally {
        tensors.forEach((t) => t.dispose());
        out.dispose();
      }
    }), { seed: 3, numRuns: 200 });
    expect(ops.memoryStats().liveAllocations).toBe(0);
  });
});

describe('Max of two float32/float64 inputs with a broadcast operand free of NaN and +0', () => {
  // The pmax shortcuts of src/ops.cpp (max2_clean) run only when the
  // broadcast operand holds no NaN and no +0, which random data with
  // specials seldom gives: here it is clean, or clean but for one NaN or +0,
  // in the layouts they take (a reused row, a value per row, an outer
  // product, rows reused within blocks; NCHW with per-channel values), while
  // the other operand holds every kind of value. Plain and zero-copy, both
  // orders, against the reference bit for bit.
  const cases: [number[], number[]][] = [
    [[2, 3, 37, 41], [41]], [[5, 300], [300]], [[700, 3], [3]], // a reused row (short rows: a tile of it)
    [[2, 16, 9, 9], [1, 16, 1, 1]], [[4, 8, 33], [4, 8, 1]], [[3, 64], [3, 1]], // a value per row
    [[50, 8], [50, 1]], [[9, 3], [9, 1]], [[7, 5], [7, 1]], // rows of 17-32 bytes (float32 or float64)
    [[40, 1], [1, 67]], [[1, 19], [33, 1]], // outer products
    [[3, 5, 40], [3, 1, 40]], [[2, 3, 4, 17], [2, 3, 1, 17]], // rows reused within blocks
  ];
  test('clean, NaN-spoiled and +0-spoiled broadcast operands', async () => {
    const ops = await getOps();
    const rand = rng(41);
    for (const dtype of ['float32', 'float64'] as const) {
      const Arr = dtype === 'float32' ? Float32Array : Float64Array;
      for (const [full, small] of cases) {
        for (const spoil of [0, 1, 2]) {
          const x = randomData(dtype, count(full), rand);
          const c = new Arr(count(small)).map(() => (rand() < 0.5 ? -1 : 1) * (1 + Math.floor(rand() * 1e6)) / 1024);
          if (spoil) c[Math.floor(rand() * c.length)] = spoil === 1 ? NaN : 0;
          for (const order of [0, 1]) {
            const inputs: PlainTensor[] = [{ dtype, shape: full, data: x }, { dtype, shape: small, data: c }];
            if (order) inputs.reverse();
            const want = refMax(inputs);
            const got = plain(ops.max(inputs));
            expect(got.shape).toEqual(want.shape);
            expect(firstDifference(got.data, want.bytes, Arr.BYTES_PER_ELEMENT)).toBe(-1);
            const tensors = inputs.map((t) => ops.tensor(dtype, t.shape, t.data));
            try {
              const out = ops.max(tensors) as { data: ArrayBufferView; dispose(): void };
              expect(firstDifference(out.data, want.bytes, Arr.BYTES_PER_ELEMENT)).toBe(-1);
              out.dispose();
            } finally {
              tensors.forEach((t) => t.dispose());
            }
          }
        }
      }
    }
    expect(ops.memoryStats().liveAllocations).toBe(0);
  });
});
