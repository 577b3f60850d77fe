// The hostile inputs whose handling rests on engine behaviour: detached and
// resizable ArrayBuffers, SharedArrayBuffer views, views at odd byte
// offsets, Proxies. Each gives the right result or the pinned OnnxOpsError,
// leaves the caller's data alone, and leaks nothing.
import { type Case, type Env, type Lib, type Ops, type Tensor, check, dataOf, eq, failsOnnx, sameBits, stillUsable, bytesOf } from '../harness';
import { type DType, refMax, refRelu } from '../reference';

const detach = (buffer: ArrayBufferLike): void => {
  structuredClone(buffer, { transfer: [buffer as ArrayBuffer] });
};

/** An object whose dtype getter runs `act` once the inputs before it were checked. */
const later = (act: () => void) => ({
  get dtype() {
    act();
    return 'float32';
  },
  shape: [4],
  data: new Float32Array(4),
});

type Resizable = ArrayBuffer & { resize(n: number): void };
const resizable = (bytes: number, max: number): Resizable =>
  new (ArrayBuffer as unknown as new (n: number, o: object) => Resizable)(bytes, { maxByteLength: max });

export function hostileCases(lib: Lib, ops: () => Promise<Ops>, env: Env): Case[] {
  const cases: Case[] = [
    { name: 'hostile: views at odd byte offsets of a larger buffer give exact results and stay as they were', run: async () => {
      const o = await ops();
      const before = await o.memoryStats();
      const buf = new ArrayBuffer(80);
      const all = new Uint8Array(buf);
      for (let i = 0; i < all.length; i++) all[i] = (i * 37 + 11) & 0xff;
      const copy = all.slice();
      const t = (dtype: DType, offset: number, shape: number[], C: new (b: ArrayBuffer, o: number, n: number) => ArrayBufferView) =>
        ({ dtype, shape, data: new C(buf, offset, shape.reduce((a, b) => a * b, 1)) } as never);
      const a = t('int8', 1, [5], Int8Array);
      const col = t('int8', 7, [3, 1], Int8Array);
      const r1 = (await o.max([a, col])) as { shape: number[]; data: Int8Array };
      eq(r1.shape, [3, 5], 'broadcast of odd-offset views');
      sameBits(r1.data, refMax([a, col]).bytes, 1, 'int8 at offsets 1 and 7');
      const h = t('int16', 2, [3], Int16Array);
      sameBits(((await o.relu(h)) as { data: Int16Array }).data, refRelu(h), 2, 'int16 at offset 2');
      const f = t('float64', 8, [3], Float64Array);
      const g = t('float64', 40, [3], Float64Array);
      sameBits(((await o.max([f, g])) as { data: Float64Array }).data, refMax([f, g]).bytes, 8, 'float64 at offsets 8 and 40 (not 16-aligned)');
      const u = await o.tensor('uint8', [2, 2], new Uint8Array(buf, 5, 4));
      sameBits(await dataOf(o, u), all.subarray(5, 9), 1, 'tensor() from an offset view');
      u.dispose();
      sameBits(all, copy, 1, 'the buffer is untouched');
      await stillUsable(o, before, 'after odd views');
    } },

    { name: 'hostile: a detached ArrayBuffer is INVALID_ARGUMENT in every input form, as out and in tensor()', run: async () => {
      const o = await ops();
      const before = await o.memoryStats();
      const dead = () => {
        const a = new Float32Array([1, 2, 3]);
        detach(a.buffer);
        return a;
      };
      check(dead().length === 0, 'structuredClone with transfer detaches');
      await failsOnnx(lib, 'Relu', () => o.relu(dead()), { code: 'INVALID_ARGUMENT', input: 0, mentions: ['detached'] });
      await failsOnnx(lib, 'Relu', () => o.relu({ dtype: 'float32', shape: [3], data: dead() }), { code: 'INVALID_ARGUMENT', input: 0, mentions: ['detached'] });
      await failsOnnx(lib, 'Max', () => o.max([new Float32Array(3), { type: 'float32', dims: [3], data: dead() }] as never), { code: 'INVALID_ARGUMENT', input: 1, mentions: ['detached'] });
      await failsOnnx(lib, 'Relu', () => o.relu(new Float32Array(3), { out: dead() }), { code: 'INVALID_ARGUMENT', input: 'out', mentions: ['detached'] });
      await failsOnnx(lib, 'tensor', () => o.tensor('float32', [3], dead()), { code: 'INVALID_ARGUMENT', mentions: ['detached'] });
      // Detached by a later input's getter, after its own checks passed.
      const a = new Float32Array([1, 2, 3, 4]);
      await failsOnnx(lib, 'Max', () => o.max([a, later(() => detach(a.buffer))]), { code: 'INVALID_ARGUMENT', input: 0 });
      await stillUsable(o, before, 'after detached buffers');
    } },

    { name: 'hostile: the inputs array\'s own getters (an accessor element, a Proxy) dispose an earlier input or out, or detach one', run: async () => {
      // Reading Max's inputs array runs caller code of its own, before a wasm
      // tensor or bare typed array is read: as a first call, and as the same
      // call made again after it ran.
      const o = await ops();
      const before = await o.memoryStats();
      const accessor = (items: unknown[], at: number, act: () => void): never => {
        const arr = [...items];
        Object.defineProperty(arr, at, { get() { act(); return items[at]; } });
        return arr as never;
      };
      const proxy = (items: unknown[], at: number, act: () => void): never =>
        new Proxy([...items], { get(target, key, receiver) { if (key === String(at)) act(); return Reflect.get(target, key, receiver); } }) as never;
      const nines = new Float32Array([9, 9, 9, 9]);
      for (const [name, form] of [['an accessor element', accessor], ['a Proxy', proxy]] as const) {
        for (const repeat of [false, true]) {
          const x = await o.tensor('float32', [4], new Float32Array([1, 2, 3, 4]));
          const y = await o.tensor('float32', [4], new Float32Array(4));
          const out = await o.tensor('float32', [4]);
          if (repeat) eq(await o.max([x, y], { out }) === out, true, 'the call to repeat');
          const keep: Promise<Tensor>[] = []; // tensors that may take the freed memory (the worker form's, once made)
          const once = (f: () => void) => { // the getter runs again when a repeat falls back to every check
            let done = false;
            return () => { if (!done) { done = true; f(); keep.push(o.tensor('float32', [4], nines)); } };
          };
          const what = `${name}${repeat ? ', repeated' : ''}`;
          await failsOnnx(lib, 'Max', () => o.max(form([x, y], 1, once(() => x.dispose())), { out }), { code: 'DISPOSED', input: 0 });
          const x2 = await o.tensor('float32', [4], new Float32Array([1, 2, 3, 4]));
          if (repeat) eq(await o.max([x2, y], { out }) === out, true, 'the call to repeat');
          await failsOnnx(lib, 'Max', () => o.max(form([x2, y], 1, once(() => out.dispose())), { out }), { code: 'DISPOSED', input: 'out' });
          const kept = await Promise.all(keep);
          check(kept.length === 2, `${what}: the getters ran`);
          for (const k of kept) eq(Array.from(await dataOf(o, k) as Float32Array), [9, 9, 9, 9], `${what}: a tensor made in the getter is untouched`);
          const a = new Float32Array([1, 2, 3, 4]);
          await failsOnnx(lib, 'Max', () => o.max(form([a, new Float32Array(4)], 1, () => detach(a.buffer))), { code: 'INVALID_ARGUMENT', input: 0 });
          for (const t of [x2, y, ...kept]) t.dispose();
        }
      }
      await stillUsable(o, before, 'after the inputs arrays\' getters');
    } },

    { name: 'hostile: SharedArrayBuffer views as inputs, tensor() data and out', run: async () => {
      const o = await ops();
      const before = await o.memoryStats();
      const sab = new SharedArrayBuffer(64);
      const f = new Float32Array(sab, 4, 6);
      f.set([-1, 2, NaN, -0, 3, -7]);
      const x = { dtype: 'float32' as const, shape: [2, 3], data: f };
      const r = (await o.relu(x)) as { data: Float32Array };
      sameBits(r.data, refRelu(x), 4, 'Relu of a shared view');
      check(r.data.buffer !== sab, 'the result has a buffer of its own');
      const out = new Float32Array(sab, 32, 6);
      eq(((await o.max([x, new Float32Array([0, 0, 0])], { out })) as { data: unknown }).data === out, true, 'a shared typed-array out is the result\'s data');
      sameBits(out, refMax([x, { dtype: 'float32', shape: [3], data: new Float32Array(3) }]).bytes, 4, 'Max into a shared out');
      const t = await o.tensor('float32', [6], f);
      sameBits(await dataOf(o, t), bytesOf(f), 4, 'tensor() from a shared view');
      t.dispose();
      await failsOnnx(lib, 'Relu', () => o.relu(f, { out: new Float32Array(sab, 8, 6) }), { code: 'OVERLAP', input: 0 });
      await stillUsable(o, before, 'after shared views');
    } },

    { name: 'hostile: resizable ArrayBuffers: length-tracking views work; shrunk or grown mid-call is INVALID_ARGUMENT', run: async () => {
      const o = await ops();
      const before = await o.memoryStats();
      const rab = resizable(16, 64);
      const a = new Float32Array(rab); // length-tracking
      a.set([5, -6, 7, -8]);
      sameBits(((await o.relu(a)) as { data: Float32Array }).data, bytesOf(new Float32Array([5, 0, 7, 0])), 4, 'Relu of a length-tracking view');
      rab.resize(24);
      eq(a.length, 6, 'the view tracks the resize');
      eq(((await o.relu(a)) as { data: Float32Array }).data.length, 6, 'Relu after a grow');
      for (const to of [8, 0, 32]) {
        const r = resizable(16, 64);
        const v = new Float32Array(r);
        v.set([5, 6, 7, 8]);
        const out = new Float32Array([-1, -1, -1, -1]);
        await failsOnnx(lib, 'Max', () => o.max([v, later(() => r.resize(to))], { out }), { code: 'INVALID_ARGUMENT', input: 0 });
        eq(Array.from(out), [-1, -1, -1, -1], 'out untouched');
      }
      const r2 = resizable(16, 64);
      const fixed = new Float32Array(r2, 0, 4);
      r2.resize(8); // a fixed-length view out of bounds
      await failsOnnx(lib, 'Relu', () => o.relu(fixed), { code: 'INVALID_ARGUMENT', input: 0 });
      await stillUsable(o, before, 'after resizable buffers');
    } },

    { name: 'hostile: Proxies: around a tensor or out INVALID_ARGUMENT, around a typed array INVALID_ARGUMENT, around plain objects read as values', run: async () => {
      const o = await ops();
      const t = await o.tensor('float32', [3], new Float32Array([1, -2, 3]));
      const out = await o.tensor('float32', [3]);
      const before = await o.memoryStats();
      const lying = new Proxy(t, { get: (target, key) => (key === 'address' ? 8 : key === 'size' ? 1e6 : Reflect.get(target, key, target)) });
      for (const fake of [new Proxy(t, {}), lying, Object.create(lib.WasmTensor.prototype)]) {
        check(fake instanceof lib.WasmTensor, 'a look-alike passes instanceof');
        for (const [op, call, input] of [
          ['Max', () => o.max([t, fake], { out }), 1], ['Relu', () => o.relu(fake), 0],
          ['Relu', () => o.relu(t, { out: fake }), 'out'],
        ] as const) await failsOnnx(lib, op, call, { code: 'INVALID_ARGUMENT', input, mentions: ['not a tensor from ops.tensor()'] });
        fake.dispose();
        eq(t.disposed, false, 'dispose() of a look-alike frees nothing');
      }
      await failsOnnx(lib, 'Relu', () => o.relu(new Proxy(new Float32Array(3), {}) as never), { code: 'INVALID_ARGUMENT', input: 0 });
      await failsOnnx(lib, 'Relu', () => o.relu({ dtype: 'float32', shape: [3], data: new Proxy(new Float32Array(3), {}) } as never), { code: 'INVALID_ARGUMENT', input: 0 });
      const x = new Proxy({ dtype: 'float32', shape: new Proxy([3], {}), data: new Float32Array([-1, 0, 2]) }, {});
      sameBits(((await o.relu(x)) as { data: Float32Array }).data, bytesOf(new Float32Array([0, 0, 2])), 4, 'a Proxy of a plain tensor is read through its traps');
      eq(await o.max(new Proxy([t, t], {}), new Proxy({ out }, {})) === out, true, 'a Proxy of the inputs array and of the options');
      sameBits(await dataOf(o, out), bytesOf(new Float32Array([1, -2, 3])), 4, 'Max through Proxies');
      await stillUsable(o, before, 'after Proxies');
      t.dispose();
      out.dispose();
    } },
  ];
  // Where the engine lacks a kind of buffer, the case is not run: the runner's
  // expectations (the features case in runtime.ts) say which engines must have it.
  return cases.filter((c) => (!c.name.includes('SharedArrayBuffer') || env.expect.sharedArrayBuffer) &&
    (!c.name.includes('resizable') || env.expect.resizableArrayBuffer));
}
