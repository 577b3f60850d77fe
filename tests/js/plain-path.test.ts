// The plain path streams large calls through a bounded scratch block: results
// stay exact whatever the chunking, and wasm memory grows by at most the block.
import fc from 'fast-check';
import { DTYPES, DTYPE_INFO, type DType, type TypedArray, createOps, supportedDtypes } from 'onnx-ops-wasm';
import { type PlainTensor, bytesOf, count, firstDifference, randomData, refMax, refRelu, rng } from './reference';
import { plain } from './helpers';

/** data[i] = v (-3..3; 0..6 for unsigned dtypes): no NaN, no -0. */
function setSmall(data: TypedArray, dtype: DType, i: number, v: number): void {
  if (dtype.startsWith('uint')) v += 3;
  if (dtype === 'float16') (data as Uint16Array)[i] = [0xc200, 0xc000, 0xbc00, 0, 0x3c00, 0x4000, 0x4200][v + 3];
  else if (dtype === 'bfloat16') (data as Uint16Array)[i] = [0xc040, 0xc000, 0xbf80, 0, 0x3f80, 0x4000, 0x4040][v + 3];
  else if (dtype === 'int64' || dtype === 'uint64') (data as BigInt64Array)[i] = BigInt(v);
  else (data as Float64Array)[i] = v;
}

/** From this size on, a fresh result under Node comes from Buffer.allocUnsafeSlow (docs/API.md: "from 1 MiB on"). */
const UNZEROED_MIN_BYTES = 2 ** 20;

const dims = fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 6, max: 300 }));

describe('chunked plain path (4 KiB scratch, so nearly every call streams)', () => {
  test('Max over random broadcasts matches the reference', async () => {
    const ops = await createOps({ scratchBytes: 4096 });
    fc.assert(fc.property(
      fc.array(dims, { minLength: 1, maxLength: 4 }).filter((s) => count(s) <= 20000),
      fc.array(fc.record({ drop: fc.nat(4), ones: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }) }), { minLength: 1, maxLength: 4 }),
      fc.constantFrom(...supportedDtypes('Max')), fc.nat(),
      (out, specs, dtype, seed) => {
        const rand = rng(seed);
        const inputs: PlainTensor[] = specs.map(({ drop, ones }) => {
          const shape = out.slice(Math.min(drop, out.length)).map((d, k) => (ones[k] ? 1 : d));
          return { dtype, shape, data: randomData(dtype, count(shape), rand) };
        });
        const want = refMax(inputs);
        const r = plain(ops.max(inputs));
        expect(r.shape).toEqual(want.shape);
        expect(firstDifference(r.data, want.bytes, r.data.BYTES_PER_ELEMENT)).toBe(-1);
      }), { seed: 11, numRuns: 150 });
    expect(ops.memoryStats().memoryBytes).toBeLessThanOrEqual(2 ** 21);
  });

  test('a broadcast input larger than half the scratch goes row by row', async () => {
    const ops = await createOps({ scratchBytes: 4096 });
    const a = { dtype: 'float32', shape: [3, 1], data: new Float32Array([5, -1, 100]) };
    const b = { dtype: 'float32', shape: [3000], data: Float32Array.from({ length: 3000 }, (_, i) => i % 10) };
    const r = plain(ops.max([a, b]));
    expect(r.shape).toEqual([3, 3000]);
    const want = refMax([a as PlainTensor, b as PlainTensor]);
    expect(firstDifference(r.data, want.bytes, 4)).toBe(-1);
  });

  test('flat streams: same-shape inputs with single values, fresh, into out, in place over any input', async () => {
    // The result goes over an input's slot in scratch (the kernels run in
    // place): each input position, with NaN/-0 rare (fast path) or common.
    const ops = await createOps({ scratchBytes: 4096 });
    const n = 3001;
    for (const dtype of supportedDtypes('Max')) {
      // 70 inputs: folded 64 at a time, a chunk holds 16 bytes of each (two float64s)
      for (const arity of dtype === 'float64' || dtype === 'int8' ? [1, 2, 3, 4, 70] : [1, 2, 3, 4]) {
        for (const sparse of [true, false]) {
          const rand = rng(arity * 7 + (sparse ? 1 : 0));
          const full = (): TypedArray => {
            const data = randomData(dtype, n, rand);
            if (sparse) for (let i = 0; i < n; i++) if (rand() >= 0.002) setSmall(data, dtype, i, Math.floor(rand() * 7) - 3);
            return data;
          };
          const inputs: PlainTensor[] = [];
          for (let i = 0; i < arity; i++) inputs.push({ dtype, shape: [n], data: full() });
          inputs.splice(1, 0, { dtype, shape: [], data: randomData(dtype, 1, rand) }, { dtype, shape: [1], data: randomData(dtype, 1, rand) });
          const copies = inputs.map((t) => bytesOf(t.data.slice()));
          const want = refMax(inputs);
          expect(firstDifference(plain(ops.max(inputs)).data, want.bytes, DTYPE_INFO[dtype].bytes)).toBe(-1);
          const out = new (inputs[0].data.constructor as new (k: number) => TypedArray)(n);
          ops.max(inputs, { out });
          expect(firstDifference(out, want.bytes, out.BYTES_PER_ELEMENT)).toBe(-1);
          inputs.forEach((t, i) => expect(firstDifference(t.data, copies[i], out.BYTES_PER_ELEMENT)).toBe(-1));
          const fulls = inputs.map((t, i) => i).filter((i) => inputs[i].shape.length === 1 && inputs[i].shape[0] === n);
          for (const over of fulls.length > 4 ? [fulls[0], fulls[1], fulls[63], fulls[fulls.length - 1]] : fulls) {
            const mine = inputs.map((t) => ({ ...t, data: t.data.slice() }));
            ops.max(mine, { out: mine[over].data });
            expect(firstDifference(mine[over].data, want.bytes, out.BYTES_PER_ELEMENT)).toBe(-1);
            mine.forEach((t, i) => { if (i !== over) expect(firstDifference(t.data, copies[i], out.BYTES_PER_ELEMENT)).toBe(-1); });
          }
        }
      }
    }
  });

  test('Relu and a typed-array out, in place on the input too', async () => {
    const ops = await createOps({ scratchBytes: 4096 });
    for (const dtype of DTYPES.filter((d) => supportedDtypes('Relu').includes(d))) {
      const x: PlainTensor = { dtype, shape: [5001], data: randomData(dtype, 5001, rng(1)) };
      const want = refRelu(x);
      const out = new (x.data.constructor as new (n: number) => typeof x.data)(5001);
      expect(plain(ops.relu(x, { out })).data).toBe(out);
      expect(firstDifference(out, want, out.BYTES_PER_ELEMENT)).toBe(-1);
      ops.relu(x, { out: x.data });
      expect(firstDifference(x.data, want, out.BYTES_PER_ELEMENT)).toBe(-1);
    }
  });
});

describe('Relu of float32 runs of 512 KiB and more (the kernel\'s loop for data beyond L2)', () => {
  test('zero-copy, plain and in place, around the threshold: bit for bit', async () => {
    const ops = await createOps();
    for (const n of [131071, 131072, 131072 + 37, 300001]) {
      const x: PlainTensor = { dtype: 'float32', shape: [n], data: randomData('float32', n, rng(n)) };
      const want = refRelu(x);
      const t = ops.tensor('float32', [n], x.data);
      const r = ops.relu(t);
      expect(firstDifference(r.toPlain().data, want, 4)).toBe(-1);
      ops.relu(t, { out: t }); // in place
      expect(firstDifference(t.toPlain().data, want, 4)).toBe(-1);
      r.dispose();
      t.dispose();
      expect(firstDifference(plain(ops.relu(x)).data, want, 4)).toBe(-1);
    }
  });
});

describe('fresh results', () => {
  test('from 1 MiB on, a result comes unzeroed from Buffer.allocUnsafeSlow, is its own buffer and is written whole', async () => {
    const ops = await createOps();
    const spy = jest.spyOn(Buffer, 'allocUnsafeSlow');
    try {
      for (const dtype of ['float32', 'float64', 'bfloat16', 'int64'] as const) { // each array kind
        const n = UNZEROED_MIN_BYTES / DTYPE_INFO[dtype].bytes + 37;
        const rand = rng(n);
        const a: PlainTensor = { dtype, shape: [n], data: randomData(dtype, n, rand) };
        const b: PlainTensor = { dtype, shape: [n], data: randomData(dtype, n, rand) };
        spy.mockClear();
        const r = plain(ops.max([a, b]));
        expect(spy).toHaveBeenCalledTimes(1);
        expect(r.data.byteOffset).toBe(0);
        expect(r.data.buffer.byteLength).toBe(r.data.byteLength);
        expect(firstDifference(r.data, refMax([a, b]).bytes, r.data.BYTES_PER_ELEMENT)).toBe(-1);
        const t = ops.tensor(dtype, [n], a.data);
        const back = t.toPlain().data;
        t.dispose();
        expect(spy).toHaveBeenCalledTimes(2);
        expect(back.buffer).not.toBe(r.data.buffer);
        expect(firstDifference(back, new Uint8Array(a.data.buffer), back.BYTES_PER_ELEMENT)).toBe(-1);
      }
      spy.mockClear();
      const small = UNZEROED_MIN_BYTES / 4 - 1;
      const y = plain(ops.relu(new Float32Array(small).fill(-1)));
      expect(spy).not.toHaveBeenCalled();
      expect(Array.from(new Set(y.data as Float32Array))).toEqual([0]);
      expect(y.data.byteOffset).toBe(0); // a copy out of wasm memory, its own buffer
      expect(y.data.buffer.byteLength).toBe(y.data.byteLength);
      // A scratch block that holds a 1 MiB result in one go: unzeroed too.
      const big = await createOps({ scratchBytes: 4 * UNZEROED_MIN_BYTES });
      const x = new Float32Array(UNZEROED_MIN_BYTES / 4).fill(-2);
      x[5] = 3;
      spy.mockClear();
      const z = plain(big.relu(x));
      expect(spy).toHaveBeenCalledTimes(1);
      expect(z.data.buffer.byteLength).toBe(z.data.byteLength);
      expect((z.data as Float32Array)[5]).toBe(3);
      expect(Array.from(new Set(z.data as Float32Array))).toEqual([0, 3]);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('memory stays bounded', () => {
  test('a plain call on 16M elements grows wasm memory by at most 4 MiB', async () => {
    const ops = await createOps();
    const n = 16_000_000;
    const a = new Float32Array(n);
    const b = new Float32Array(n);
    for (let i = 0; i < n; i += 4099) { a[i] = i; b[i] = -i; }
    const before = ops.memoryStats().memoryBytes;
    const r = plain(ops.max([a, b]));
    expect(r.data.length).toBe(n);
    expect((r.data as Float32Array)[4099 * 3]).toBe(4099 * 3);
    const y = plain(ops.relu(b));
    expect((y.data as Float32Array)[4099]).toBe(0);
    expect(ops.memoryStats().memoryBytes - before).toBeLessThanOrEqual(4 * 2 ** 20);
    expect(ops.memoryStats().liveAllocations).toBe(0);
  });

  test('Max of thousands of rank-64 inputs grows wasm memory by at most twice scratchBytes', async () => {
    // Each input costs wasm memory beyond the scratch block (its part of the
    // call descriptor and of the broadcast plan): such calls fold in groups
    // small enough to keep that under the block's size too (ops.ts, foldGroup).
    // Before, 10,000 inputs grew memory by 21 MiB.
    for (const scratchBytes of [2 ** 21, 2 ** 17]) {
      const ops = await createOps({ scratchBytes });
      const rank = 64;
      const n = scratchBytes === 2 ** 21 ? 10_000 : 2_000;
      const row = (v: number) => ({ dtype: 'float32', shape: [...new Array(rank - 1).fill(1), 2], data: new Float32Array([v, -v]) });
      const col = (v: number) => ({ dtype: 'float32', shape: [2, ...new Array(rank - 1).fill(1)], data: new Float32Array([v, 2 * v]) });
      const inputs = Array.from({ length: n }, (_, i) => (i % 2 ? row(i % 97) : col(i % 89)));
      const before = ops.memoryStats().memoryBytes;
      const r = plain(ops.max(inputs));
      expect(r.shape).toEqual([2, ...new Array(rank - 2).fill(1), 2]);
      // Reference: every output element is the max over all inputs' elements at it.
      const want = [0, 1, 2, 3].map((k) => {
        let m = -Infinity;
        for (let i = 0; i < n; i++) {
          const d = inputs[i].data;
          m = Math.max(m, i % 2 ? d[k % 2] : d[k >> 1]);
        }
        return m;
      });
      expect(Array.from(r.data as Float32Array)).toEqual(want);
      expect(ops.memoryStats().memoryBytes - before).toBeLessThanOrEqual(2 * scratchBytes);
      expect(ops.memoryStats().liveAllocations).toBe(0);
    }
  });

  test('a folded Max checks out before it computes: no memory touched on a bad out', async () => {
    const ops = await createOps({ scratchBytes: 4096 }); // more than 64 inputs fold
    const buf = Float32Array.from({ length: 200 }, (_, i) => i - 100);
    const inputs = Array.from({ length: 70 }, (_, i) => buf.subarray(i % 3 ? 100 : 0, (i % 3 ? 100 : 0) + 50));
    const codes = [];
    for (const out of [buf.subarray(10, 60), new Float32Array(49), new Int32Array(50)]) {
      const before = out.slice();
      const heap = ops.memoryStats().heapInUse;
      try {
        ops.max(inputs, { out });
      } catch (e) {
        codes.push((e as { code?: string }).code);
      }
      expect(ops.memoryStats().heapInUse).toBe(heap);
      expect(Array.from(out)).toEqual(Array.from(before));
    }
    expect(codes).toEqual(['OVERLAP', 'OUT_MISMATCH', 'INVALID_ARGUMENT']);
    expect(Array.from(buf)).toEqual(Array.from({ length: 200 }, (_, i) => i - 100));
  });

  test('scratchBytes is validated', async () => {
    await expect(createOps({ scratchBytes: 100 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
