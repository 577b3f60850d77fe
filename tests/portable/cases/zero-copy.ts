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
    check(oldView.length === 0 || oldView.byteLength === 0 || oldView.buffer !== live[0].t.data.buffer,
      'a view from before the growth is not the current memory');
    for (const { data, t } of live) sameBits(t.data, bytesOf(data), DTYPE_INFO[t.dtype].bytes, `${t.dtype} tensor after growth`);
    const x = live.find((l) => l.t.dtype === 'float32')!;
    const r = o.relu(x.t) as InstanceType<Lib['WasmTensor']>;
    sameBits(r.data, refRelu({ dtype: 'float32', shape: [1000], data: x.data }), 4, 'Relu of a tensor made before the growth');
    r.dispose();
    big.dispose();
    live.forEach(({ t }) => t.dispose());
    eq(o.memoryStats().liveAllocations, 0, 'everything freed');
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
  return cases;
}
