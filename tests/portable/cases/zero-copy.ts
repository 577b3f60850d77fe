// The zero-copy API: tensors in wasm memory, results into `out`, in place,
// dispose(), memory growth while tensors are live, a disposed tensor's error.
import { type Case, type Lib, type Ops, type Tensor, check, closeOps, dataOf, eq, failsOnnx, plainOf, put, sameBits, stillUsable, throwsOnnx, bytesOf } from '../harness';
import { DTYPES, DTYPE_INFO, type TypedArray, randomData, refMax, refRelu, rng } from '../reference';
import { allowed } from '../rules';

export function zeroCopyCases(lib: Lib, ops: () => Promise<Ops>): Case[] {
  const cases: Case[] = [];
  for (const dtype of DTYPES) {
    cases.push({ name: `zero-copy ${dtype}: Max into out, a fresh tensor, in place; Relu in place`, run: async () => {
      const o = await ops();
      const before = await o.memoryStats();
      const rand = rng(DTYPES.indexOf(dtype) + 1);
      const size = DTYPE_INFO[dtype].bytes;
      const x = { dtype, shape: [3, 37], data: randomData(dtype, 111, rand) };
      const y = { dtype, shape: [37], data: randomData(dtype, 37, rand) };
      const a = await o.tensor(dtype, x.shape, x.data);
      const b = await o.tensor(dtype, y.shape, y.data);
      const out = await o.tensor(dtype, [3, 37]);
      try {
        check(a instanceof lib.WasmTensor, 'ops.tensor() makes a WasmTensor');
        eq([a.dtype, Array.from(a.shape), a.size, a.byteLength], [dtype, [3, 37], 111, 111 * size], 'its fields');
        sameBits(await dataOf(o, a), bytesOf(x.data), size, 'tensor() copies the data in');
        const want = refMax([x, y]).bytes;
        eq(await o.max([a, b], { out }) === out, true, 'out is the result');
        sameBits(await dataOf(o, out), want, size, 'Max into out');
        const fresh = (await o.max([a, b])) as Tensor;
        check(fresh instanceof lib.WasmTensor && fresh !== out, 'without out, a new tensor');
        sameBits(await dataOf(o, fresh), want, size, 'Max into a new tensor');
        const plain = await plainOf(o, fresh);
        fresh.dispose();
        check(fresh.disposed, 'disposed');
        sameBits(plain.data, want, size, 'a plain copy outlives dispose()');
        eq(await o.max([a, b], { opset: 13, out: a }) === a, true, 'in place: out is input 0');
        sameBits(await dataOf(o, a), want, size, 'Max in place');
        if (allowed('Relu', undefined, dtype)) {
          const r = refRelu({ dtype, shape: [3, 37], data: new DTYPE_INFO[dtype].array((await dataOf(o, a)).slice().buffer) });
          eq(await o.relu(a, { out: a }) === a, true, 'Relu in place');
          sameBits(await dataOf(o, a), r, size, 'Relu in place');
        }
      } finally {
        for (const t of [a, b, out]) t.dispose();
      }
      await stillUsable(o, before, 'after the tensors are disposed');
    } });
  }

  cases.push({ name: 'zero-copy: memory growth while tensors are live keeps them intact', run: async () => {
    const o = (await lib.createOps()) as unknown as Ops;
    const rand = rng(77);
    const live: { data: TypedArray; t: Tensor }[] = [];
    for (const dtype of DTYPES) {
      const data = randomData(dtype, 1000, rand);
      live.push({ data, t: await o.tensor(dtype, [1000], data) });
    }
    // The worker form's tensors have no view here to go stale: their .data is an error that says how to read them.
    const oldView = o.worker ? undefined : live[0].t.data;
    if (o.worker) throwsOnnx(lib, 'tensor', () => live[0].t.data, { code: 'INVALID_ARGUMENT', mentions: ['ops.read(tensor)'] });
    const grownFrom = (await o.memoryStats()).memoryBytes;
    const big = await o.tensor('float64', [4 << 20]); // 32 MiB: the memory must grow
    check((await o.memoryStats()).memoryBytes > grownFrom, 'the memory grew');
    if (o.worker) {
      throwsOnnx(lib, 'tensor', () => live[0].t.data, { code: 'INVALID_ARGUMENT', mentions: ['ops.read(tensor)'] });
      throwsOnnx(lib, 'tensor', () => live[0].t.toPlain(), { code: 'INVALID_ARGUMENT', mentions: ['ops.read(tensor)'] });
    } else if (o.backend === 'js') {
      // JavaScript memory: each tensor has its own buffer, which never moves.
      check(oldView!.buffer === live[0].t.data.buffer, 'a view from before is still the tensor\'s memory');
    } else {
      check(oldView!.length === 0 || oldView!.byteLength === 0 || oldView!.buffer !== live[0].t.data.buffer,
        'a view from before the growth is not the current memory');
    }
    for (const { data, t } of live) sameBits(await dataOf(o, t), bytesOf(data), DTYPE_INFO[t.dtype].bytes, `${t.dtype} tensor after growth`);
    const x = live.find((l) => l.t.dtype === 'float32')!;
    const r = (await o.relu(x.t)) as Tensor;
    sameBits(await dataOf(o, r), refRelu({ dtype: 'float32', shape: [1000], data: x.data }), 4, 'Relu of a tensor made before the growth');
    r.dispose();
    big.dispose();
    live.forEach(({ t }) => t.dispose());
    eq((await o.memoryStats()).liveAllocations, 0, 'everything freed');
    await closeOps(o);
  } });

  // The plain path copies a result out of its scratch block through a view it
  // keeps for the next call (memory.ts): a call whose result lies elsewhere in
  // the block, or is shorter, or comes after the memory grew, must not reuse it.
  cases.push({ name: 'plain path: results into a typed-array out, call after call, as the result\'s place and size change', run: async () => {
    const o = (await lib.createOps()) as unknown as Ops;
    const f = (...v: number[]) => new Float32Array(v);
    const into = (n: number) => new Float32Array(n).fill(99);
    const a = f(1, -2, 3, -4), b = f(-1, 5, -3, 2);
    const r1 = into(4);
    await o.max([a, b], { out: r1 }); // the result goes over a's slot in the block
    eq(Array.from(r1), [1, 5, 3, 2], 'Max of two arrays');
    const r2 = into(4);
    await o.max([{ dtype: 'float32', shape: [], data: f(0) }, a], { out: r2 }); // over a's slot, now after the scalar's
    eq(Array.from(r2), [1, 0, 3, 0], 'Max of a scalar and an array: the result lies elsewhere in the block');
    const r3 = into(3);
    await o.relu(f(-5, 6, -7), { out: r3 });
    eq(Array.from(r3), [0, 6, 0], 'Relu of three elements: a shorter result');
    const r4 = into(4);
    await o.relu(a, { out: r4 });
    eq(Array.from(r4), [1, 0, 3, 0], 'Relu of four');
    const grownFrom = (await o.memoryStats()).memoryBytes;
    const big = await o.tensor('float64', [4 << 20]); // 32 MiB: the memory must grow
    check((await o.memoryStats()).memoryBytes > grownFrom, 'the memory grew');
    const r5 = into(4);
    await o.relu(b, { out: r5 });
    eq(Array.from(r5), [0, 5, 0, 2], 'Relu of four after the memory grew');
    big.dispose();
    await closeOps(o);
  } });

  cases.push({ name: 'zero-copy: a disposed tensor is DISPOSED everywhere and frees nothing twice', run: async () => {
    const o = await ops();
    const before = await o.memoryStats();
    const t = await o.tensor('int32', [4], new Int32Array([1, -2, 3, -4]));
    const keep = await o.tensor('int32', [4], new Int32Array([9, 9, 9, 9]));
    t.dispose();
    await failsOnnx(lib, 'Relu', () => o.relu(t), { code: 'DISPOSED', input: 0 });
    await failsOnnx(lib, 'Max', () => o.max([keep, t]), { code: 'DISPOSED', input: 1 });
    await failsOnnx(lib, 'Relu', () => o.relu(keep, { out: t }), { code: 'DISPOSED', input: 'out' });
    throwsOnnx(lib, 'tensor', () => t.toPlain(), { code: 'DISPOSED' });
    if (o.worker) await failsOnnx(lib, 'read', () => o.read(t), { code: 'DISPOSED', input: 0 });
    t.dispose();
    eq(Array.from(await dataOf(o, keep) as Int32Array), [9, 9, 9, 9], 'a live tensor is untouched');
    keep.dispose();
    await stillUsable(o, before, 'after the disposed tensors');
  } });

  cases.push({ name: 'zero-copy: a call repeated on the same tensors sees new data, another op or order, the opset, memory changes, liveness', run: async () => {
    // Such a call reuses its checked plan and descriptor (js/src/plan.ts's
    // Plan.id): everything but the tensors' identity must still count. New
    // data goes in through the tensor's view (sync form) or a copy into it
    // (worker form, harness.ts's put).
    const o = (await lib.createOps()) as unknown as Ops;
    const other = (await lib.createOps()) as unknown as Ops;
    const f32 = (bits: number[]) => new Float32Array(new Uint32Array(bits).buffer);
    const nanA = 0x7fc00001, nanB = 0xffc00002;
    const t = (data: Float32Array, shape = [data.length]) => o.tensor('float32', shape, data);
    const want = async (...ts: Tensor[]) => refMax(await Promise.all(ts.map((w) => plainOf(o, w)))).bytes;
    const relu = async (w: Tensor) => refRelu(await plainOf(o, w));
    const data = (w: Tensor) => dataOf(o, w);
    const x = await t(f32([0x3f800000, 0xc0000000, nanA, 0x40800000])), y = await t(f32([0x40400000, 0x3f800000, nanB, 0xc0a00000]));
    const out = await t(new Float32Array(4));
    const max = () => o.max([x, y], { out });
    for (let round = 0; round < 3; round++) eq(await max() === out, true, 'Max into out, again');
    sameBits(await data(out), await want(x, y), 4, 'the same call three times');
    await put(o, x, [7, -7, 7, 7]);
    await max();
    sameBits(await data(out), await want(x, y), 4, 'new data: the kernel runs again');
    await put(o, x, f32([nanA]), 2);
    await o.max([y, x], { out });
    sameBits(await data(out), await want(y, x), 4, 'the other order: the other NaN');
    await max();
    sameBits(await data(out), await want(x, y), 4, 'the first order again');
    eq(await o.relu(x, { out }) === out, true, 'Relu on the same tensors');
    sameBits(await data(out), await relu(x), 4, 'Relu after Max');
    await o.max([x], { out });
    sameBits(await data(out), bytesOf(await data(x)), 4, 'Max of one input after Relu');
    await o.relu(x, { out });
    sameBits(await data(out), await relu(x), 4, 'Relu after Max-of-one');
    const between: [string, () => Promise<unknown>][] = [
      ['a plain call', () => o.max([new Float32Array([1, 2]), new Float32Array([2, 1])])],
      ['another instance\'s call', async () => other.relu(await other.tensor('float32', [3]), { out: await other.tensor('float32', [3]) })],
      ['trimMemory()', () => o.trimMemory()],
      ['memory growth', async () => (await o.tensor('uint8', [(await o.memoryStats()).memoryBytes])).dispose()],
    ];
    for (const [what, call] of between) {
      await put(o, out, [0, 0, 0, 0]);
      await call();
      await max();
      sameBits(await data(out), await want(x, y), 4, `after ${what}`);
    }
    const a = await t(new Float32Array([-1, -2, 3, 4])), b = await t(new Float32Array([-3, -1, 1, 2])), ab = await t(new Float32Array(4));
    for (let round = 0; round < 3; round++) { // Max and Relu in turn: each repeats its own last call
      await put(o, a, [-round], 3);
      eq(await o.max([a, b], { out: ab }) === ab, true, 'Max in turn');
      eq(await o.relu(ab, { out }) === out, true, 'Relu in turn');
      sameBits(await data(ab), await want(a, b), 4, `Max in turn, round ${round}`);
      sameBits(await data(out), await relu(ab), 4, `Relu in turn, round ${round}`);
    }
    for (const w of [a, b, ab]) w.dispose();
    const [r1, r2] = (await Promise.all([o.max([x, y]), o.max([x, y])])) as Tensor[];
    check(r1 !== r2, 'without out, a new tensor each time');
    sameBits(await data(r1), await want(x, y), 4, 'the first new tensor');
    sameBits(await data(r2), await want(x, y), 4, 'the second new tensor');
    r1.dispose();
    r2.dispose();
    const i = await o.tensor('int32', [4]), io = await o.tensor('int32', [4]), row = await t(new Float32Array(4), [1, 4]), o14 = await t(new Float32Array(4), [1, 4]);
    eq(await o.max([i, i], { out: io }) === io, true, 'int32 Max at the newest opset');
    await failsOnnx(lib, 'Max', () => o.max([i, i], { out: io, opset: 6 }), { code: 'DTYPE_NOT_ALLOWED' });
    eq(await o.max([i, i], { out: io, opset: 13 }) === io, true, 'int32 Max at opset 13');
    await failsOnnx(lib, 'Relu', () => o.relu(i, { out: io, opset: 6 }), { code: 'DTYPE_NOT_ALLOWED' });
    eq(await o.max([row, x], { out: o14 }) === o14, true, 'Max broadcasting');
    await failsOnnx(lib, 'Max', () => o.max([row, x], { out: o14, opset: 7 }), { code: 'SHAPE_MISMATCH' });
    y.dispose();
    await failsOnnx(lib, 'Max', max, { code: 'DISPOSED', input: 1 });
    const y2 = await t(f32([0x40400000, 0x3f800000, nanB, 0xc0a00000]));
    eq(await o.max([x, y2], { out }) === out, true, 'a new input');
    const scratch = await t(new Float32Array(4));
    const arr = [x, y2];
    const made: Promise<unknown>[] = []; // the worker form's calls made by the getter, awaited below
    Object.defineProperty(arr, 1, { get() { made.push(o.relu(x, { out: scratch }), o.trimMemory()); return y2; } });
    await put(o, out, [0, 0, 0, 0]);
    eq(await o.max(arr, { out }) === out, true, 'a repeat whose inputs array makes another call and trims memory');
    check(made.length > 0, 'the getter ran');
    await Promise.all(made);
    sameBits(await data(out), await want(x, y2), 4, 'that repeat\'s result');
    sameBits(await data(scratch), await relu(x), 4, 'the call made by the getter');
    scratch.dispose();
    out.dispose();
    const out2 = await t(new Float32Array([9, 9, 9, 9])); // may take out's memory
    await failsOnnx(lib, 'Max', () => o.max([x, y2], { out }), { code: 'DISPOSED', input: 'out' });
    eq(Array.from(await data(out2) as Float32Array), [9, 9, 9, 9], 'the tensor made after out was disposed is untouched');
    eq(await o.max([x, y2], { out: out2 }) === out2, true, 'a new out');
    sameBits(await data(out2), await want(x, y2), 4, 'into the new out');
    for (const w of [x, y2, out2, i, io, row, o14]) w.dispose();
    eq((await o.memoryStats()).liveAllocations, 0, 'everything freed');
    await closeOps(o);
    await closeOps(other);
  } });
  return cases;
}
