// The zero-copy API: tensors in wasm memory, results into `out`, in place,
// dispose(), memory growth while tensors are live, a disposed tensor's error.
import { type Case, type Lib, type Ops, check, eq, sameBits, stillUsable, throwsOnnx, bytesOf } from '../harness';
import { DTYPES, DTYPE_INFO, randomData, refMax, refRelu, rng } from '../reference';
import { allowed } from '../rules';

export function zeroCopyCases(lib: Lib, ops: () => Promise<Ops>): Case[] {
  const cases: Case[] = [];
  for (const dtype of DTYPES) {
    cases.push({ name: `zero-copy ${dtype}: Max into out, a fresh tensor, in place; Relu in place`, run: async () => {
      const o = await ops();
      const before = o.memoryStats();
      const rand = rng(DTYPES.indexOf(dtype) + 1);
      const size = DTYPE_INFO[dtype].bytes;
      const x = { dtype, shape: [3, 37], data: randomData(dtype, 111, rand) };
      const y = { dtype, shape: [37], data: randomData(dtype, 37, rand) };
      const a = o.tensor(dtype, x.shape, x.data);
      const b = o.tensor(dtype, y.shape, y.data);
      const out = o.tensor(dtype, [3, 37]);
      try {
        check(a instanceof lib.WasmTensor, 'ops.tensor() makes a WasmTensor');
        eq([a.dtype, Array.from(a.shape), a.size, a.byteLength], [dtype, [3, 37], 111, 111 * size], 'its fields');
        sameBits(a.data, bytesOf(x.data), size, 'tensor() copies the data in');
        const want = refMax([x, y]).bytes;
        eq(o.max([a, b], { out }) === out, true, 'out is the result');
        sameBits(out.data, want, size, 'Max into out');
        const fresh = o.max([a, b]) as InstanceType<Lib['WasmTensor']>;
        check(fresh instanceof lib.WasmTensor && fresh !== out, 'without out, a new tensor');
        sameBits(fresh.data, want, size, 'Max into a new tensor');
        const plain = fresh.toPlain();
        fresh.dispose();
        check(fresh.disposed, 'disposed');
        sameBits(plain.data, want, size, 'toPlain() outlives dispose()');
        eq(o.max([a, b], { opset: 13, out: a }) === a, true, 'in place: out is input 0');
        sameBits(a.data, want, size, 'Max in place');
        if (allowed('Relu', undefined, dtype)) {
          const r = refRelu({ dtype, shape: [3, 37], data: new DTYPE_INFO[dtype].array(a.data.slice().buffer) });
          eq(o.relu(a, { out: a }) === a, true, 'Relu in place');
          sameBits(a.data, r, size, 'Relu in place');
        }
      } finally {
        for (const t of [a, b, out]) t.dispose();
      }
      stillUsable(o, before, 'after the tensors are disposed');
    } });
  }

  cases.push({ name: 'zero-copy: memory growth while tensors are live keeps them intact', run: async () => {
    const o = await lib.createOps();
    const rand = rng(77);
    const live = DTYPES.map((dtype) => {
      const data = randomData(dtype, 1000, rand);
      return { data, t: o.tensor(dtype, [1000], data) };
    });
    const oldView = live[0].t.data;
    const grownFrom = o.memoryStats().memoryBytes;
    const big = o.tensor('float64', [4 << 20]); // 32 MiB: the memory must grow
    check(o.memoryStats().memoryBytes > grownFrom, 'the memory grew');
    if ((o as unknown as { backend: string }).backend === 'js') {
      // JavaScript memory: each tensor has its own buffer, which never moves.
      check(oldView.buffer === live[0].t.data.buffer, 'a view from before is still the tensor\'s memory');
    } else {
      check(oldView.length === 0 || oldView.byteLength === 0 || oldView.buffer !== live[0].t.data.buffer,
        'a view from before the growth is not the current memory');
    }
    for (const { data, t } of live) sameBits(t.data, bytesOf(data), DTYPE_INFO[t.dtype].bytes, `${t.dtype} tensor after growth`);
    const x = live.find((l) => l.t.dtype === 'float32')!;
    const r = o.relu(x.t) as InstanceType<Lib['WasmTensor']>;
    sameBits(r.data, refRelu({ dtype: 'float32', shape: [1000], data: x.data }), 4, 'Relu of a tensor made before the growth');
    r.dispose();
    big.dispose();
    live.forEach(({ t }) => t.dispose());
    eq(o.memoryStats().liveAllocations, 0, 'everything freed');
  } });

  // The plain path copies a result out of its scratch block through a view it
  // keeps for the next call (memory.ts): a call whose result lies elsewhere in
  // the block, or is shorter, or comes after the memory grew, must not reuse it.
  cases.push({ name: 'plain path: results into a typed-array out, call after call, as the result\'s place and size change', run: async () => {
    const o = await lib.createOps();
    const f = (...v: number[]) => new Float32Array(v);
    const into = (n: number) => new Float32Array(n).fill(99);
    const a = f(1, -2, 3, -4), b = f(-1, 5, -3, 2);
    const r1 = into(4);
    o.max([a, b], { out: r1 }); // the result goes over a's slot in the block
    eq(Array.from(r1), [1, 5, 3, 2], 'Max of two arrays');
    const r2 = into(4);
    o.max([{ dtype: 'float32', shape: [], data: f(0) }, a], { out: r2 }); // over a's slot, now after the scalar's
    eq(Array.from(r2), [1, 0, 3, 0], 'Max of a scalar and an array: the result lies elsewhere in the block');
    const r3 = into(3);
    o.relu(f(-5, 6, -7), { out: r3 });
    eq(Array.from(r3), [0, 6, 0], 'Relu of three elements: a shorter result');
    const r4 = into(4);
    o.relu(a, { out: r4 });
    eq(Array.from(r4), [1, 0, 3, 0], 'Relu of four');
    const grownFrom = o.memoryStats().memoryBytes;
    const big = o.tensor('float64', [4 << 20]); // 32 MiB: the memory must grow
    check(o.memoryStats().memoryBytes > grownFrom, 'the memory grew');
    const r5 = into(4);
    o.relu(b, { out: r5 });
    eq(Array.from(r5), [0, 5, 0, 2], 'Relu of four after the memory grew');
    big.dispose();
  } });

  cases.push({ name: 'zero-copy: a disposed tensor is DISPOSED everywhere and frees nothing twice', run: async () => {
    const o = await ops();
    const before = o.memoryStats();
    const t = o.tensor('int32', [4], new Int32Array([1, -2, 3, -4]));
    const keep = o.tensor('int32', [4], new Int32Array([9, 9, 9, 9]));
    t.dispose();
    throwsOnnx(lib, 'Relu', () => o.relu(t), { code: 'DISPOSED', input: 0 });
    throwsOnnx(lib, 'Max', () => o.max([keep, t]), { code: 'DISPOSED', input: 1 });
    throwsOnnx(lib, 'Relu', () => o.relu(keep, { out: t }), { code: 'DISPOSED', input: 'out' });
    throwsOnnx(lib, 'tensor', () => t.toPlain(), { code: 'DISPOSED' });
    t.dispose();
    eq(Array.from(keep.data as Int32Array), [9, 9, 9, 9], 'a live tensor is untouched');
    keep.dispose();
    stillUsable(o, before, 'after the disposed tensors');
  } });

  cases.push({ name: 'zero-copy: a call repeated on the same tensors sees new data, another op or order, the opset, memory changes, liveness', run: async () => {
    // Such a call reuses its checked plan and descriptor (js/src/plan.ts's
    // Plan.id): everything but the tensors' identity must still count.
    const o = await lib.createOps();
    const other = await lib.createOps();
    type T = InstanceType<Lib['WasmTensor']>;
    const f32 = (bits: number[]) => new Float32Array(new Uint32Array(bits).buffer);
    const nanA = 0x7fc00001, nanB = 0xffc00002;
    const t = (data: Float32Array, shape = [data.length]) => o.tensor('float32', shape, data);
    const want = (...ts: T[]) => refMax(ts.map((w) => w.toPlain())).bytes;
    const x = t(f32([0x3f800000, 0xc0000000, nanA, 0x40800000])), y = t(f32([0x40400000, 0x3f800000, nanB, 0xc0a00000]));
    const out = t(new Float32Array(4));
    const max = () => o.max([x, y], { out });
    for (let round = 0; round < 3; round++) eq(max() === out, true, 'Max into out, again');
    sameBits(out.data, want(x, y), 4, 'the same call three times');
    (x.data as Float32Array).set([7, -7, 7, 7]);
    max();
    sameBits(out.data, want(x, y), 4, 'new data: the kernel runs again');
    (x.data as Float32Array).set(f32([nanA]), 2);
    o.max([y, x], { out });
    sameBits(out.data, want(y, x), 4, 'the other order: the other NaN');
    max();
    sameBits(out.data, want(x, y), 4, 'the first order again');
    eq(o.relu(x, { out }) === out, true, 'Relu on the same tensors');
    sameBits(out.data, refRelu(x.toPlain()), 4, 'Relu after Max');
    o.max([x], { out });
    sameBits(out.data, bytesOf(x.data), 4, 'Max of one input after Relu');
    o.relu(x, { out });
    sameBits(out.data, refRelu(x.toPlain()), 4, 'Relu after Max-of-one');
    const between: [string, () => unknown][] = [
      ['a plain call', () => o.max([new Float32Array([1, 2]), new Float32Array([2, 1])])],
      ['another instance\'s call', () => other.relu(other.tensor('float32', [3]), { out: other.tensor('float32', [3]) })],
      ['trimMemory()', () => o.trimMemory()],
      ['memory growth', () => o.tensor('uint8', [o.memoryStats().memoryBytes]).dispose()],
    ];
    for (const [what, call] of between) {
      (out.data as Float32Array).fill(0);
      call();
      max();
      sameBits(out.data, want(x, y), 4, `after ${what}`);
    }
    const a = t(new Float32Array([-1, -2, 3, 4])), b = t(new Float32Array([-3, -1, 1, 2])), ab = t(new Float32Array(4));
    for (let round = 0; round < 3; round++) { // Max and Relu in turn: each repeats its own last call
      (a.data as Float32Array)[3] = -round;
      eq(o.max([a, b], { out: ab }) === ab, true, 'Max in turn');
      eq(o.relu(ab, { out }) === out, true, 'Relu in turn');
      sameBits(ab.data, want(a, b), 4, `Max in turn, round ${round}`);
      sameBits(out.data, refRelu(ab.toPlain()), 4, `Relu in turn, round ${round}`);
    }
    for (const w of [a, b, ab]) w.dispose();
    const [r1, r2] = [o.max([x, y]) as T, o.max([x, y]) as T];
    check(r1 !== r2, 'without out, a new tensor each time');
    sameBits(r1.data, want(x, y), 4, 'the first new tensor');
    sameBits(r2.data, want(x, y), 4, 'the second new tensor');
    r1.dispose();
    r2.dispose();
    const i = o.tensor('int32', [4]), io = o.tensor('int32', [4]), row = t(new Float32Array(4), [1, 4]), o14 = t(new Float32Array(4), [1, 4]);
    eq(o.max([i, i], { out: io }) === io, true, 'int32 Max at the newest opset');
    throwsOnnx(lib, 'Max', () => o.max([i, i], { out: io, opset: 6 }), { code: 'DTYPE_NOT_ALLOWED' });
    eq(o.max([i, i], { out: io, opset: 13 }) === io, true, 'int32 Max at opset 13');
    throwsOnnx(lib, 'Relu', () => o.relu(i, { out: io, opset: 6 }), { code: 'DTYPE_NOT_ALLOWED' });
    eq(o.max([row, x], { out: o14 }) === o14, true, 'Max broadcasting');
    throwsOnnx(lib, 'Max', () => o.max([row, x], { out: o14, opset: 7 }), { code: 'SHAPE_MISMATCH' });
    y.dispose();
    throwsOnnx(lib, 'Max', max, { code: 'DISPOSED', input: 1 });
    const y2 = t(f32([0x40400000, 0x3f800000, nanB, 0xc0a00000]));
    eq(o.max([x, y2], { out }) === out, true, 'a new input');
    const scratch = t(new Float32Array(4));
    const arr = [x, y2];
    Object.defineProperty(arr, 1, { get() { o.relu(x, { out: scratch }); o.trimMemory(); return y2; } });
    (out.data as Float32Array).fill(0);
    eq(o.max(arr, { out }) === out, true, 'a repeat whose inputs array makes another call and trims memory');
    sameBits(out.data, want(x, y2), 4, 'that repeat\'s result');
    sameBits(scratch.data, refRelu(x.toPlain()), 4, 'the call made by the getter');
    scratch.dispose();
    out.dispose();
    const out2 = t(new Float32Array([9, 9, 9, 9])); // may take out's memory
    throwsOnnx(lib, 'Max', () => o.max([x, y2], { out }), { code: 'DISPOSED', input: 'out' });
    eq(Array.from(out2.data as Float32Array), [9, 9, 9, 9], 'the tensor made after out was disposed is untouched');
    eq(o.max([x, y2], { out: out2 }) === out2, true, 'a new out');
    sameBits(out2.data, want(x, y2), 4, 'into the new out');
    for (const w of [x, y2, out2, i, io, row, o14]) w.dispose();
    eq(o.memoryStats().liveAllocations, 0, 'everything freed');
  } });
  return cases;
}
