// The runtime's own conventions, where it has them: a native Float16Array
// for float16 data, and `using` with Symbol.dispose for wasm tensors. The
// first case checks that the engine has exactly the features the runner says
// it has, so that no case below is left out unnoticed.
import { type Case, type Env, type Features, type Lib, type Ops, check, closeOps, dataOf, eq, failsOnnx, formOf, rejectsOnnx, sameBits, bytesOf } from '../harness';
import { refMax, refRelu } from '../reference';

/** What this engine offers of what the suite tests. */
export function detectFeatures(): Features {
  let using = false;
  try {
    // eslint-disable-next-line no-new-func
    new Function('{ using x = null; }');
    using = true;
  } catch {
    using = false;
  }
  return {
    float16Array: typeof (globalThis as { Float16Array?: unknown }).Float16Array === 'function',
    using,
    sharedArrayBuffer: typeof SharedArrayBuffer === 'function',
    resizableArrayBuffer: typeof (ArrayBuffer.prototype as { resize?: unknown }).resize === 'function',
  };
}

type F16 = Uint16Array; // a Float16Array, typed as what TypeScript knows
const F16Array = (globalThis as { Float16Array?: new (b: ArrayBufferLike | number, o?: number, n?: number) => F16 }).Float16Array;
/** A Float16Array holding exactly these bit patterns (NaN payloads and -0 included). */
const f16bits = (bits: number[]): F16 => new F16Array!(Uint16Array.from(bits).buffer);
const bitsOf = (a: ArrayBufferView): Uint16Array => new Uint16Array(a.buffer, a.byteOffset, a.byteLength / 2);
const kind = (a: unknown): string => Object.prototype.toString.call(a).slice(8, -1);

// -2, -0, +0, a quiet NaN with payload, a signalling NaN, -NaN, +inf, the smallest subnormal, 65504, -1.
const BITS = [0xc000, 0x8000, 0x0000, 0x7e01, 0x7c01, 0xfe00, 0x7c00, 0x0001, 0x7bff, 0xbc00];

export function runtimeCases(lib: Lib, ops: () => Promise<Ops>, env: Env): Case[] {
  const has = detectFeatures();
  const cases: Case[] = [
    { name: `runtime: the engine (${env.engine}) has the features its runner expects`, run: () => eq(has, env.expect, 'features') },
  ];
  if (has.float16Array) {
    cases.push({ name: 'runtime: native Float16Array inputs (bare, {dtype}, {type}, tensor()) and out keep every bit', run: async () => {
      const o = await ops();
      const x = { dtype: 'float16' as const, shape: [10], data: Uint16Array.from(BITS) };
      const y = { dtype: 'float16' as const, shape: [10], data: Uint16Array.from(BITS).reverse() };
      const relu = refRelu(x);
      const max = refMax([x, y]).bytes;
      const r1 = (await o.relu(f16bits(BITS))) as { dtype: string; data: ArrayBufferView };
      eq(r1.dtype, 'float16', 'a bare Float16Array is float16');
      sameBits(r1.data, relu, 2, 'Relu of a bare Float16Array');
      eq(kind(r1.data), 'Uint16Array', 'by default, float16 results are bits');
      sameBits(((await o.max([{ dtype: 'float16', shape: [10], data: f16bits(BITS) }, { type: 'float16', dims: [10], data: f16bits([...BITS].reverse()) }] as never)) as { data: ArrayBufferView }).data,
        max, 2, 'Max of {dtype} and {type} tensors holding Float16Arrays');
      const out = new F16Array!(10);
      eq(((await o.max([f16bits(BITS), x], { out })) as { data: unknown }).data === out, true, 'a Float16Array out is the result\'s data');
      sameBits(out, refMax([x, x]).bytes, 2, 'Max into a Float16Array out');
      const t = await o.tensor('float16', [10], f16bits(BITS));
      sameBits(await dataOf(o, t), bytesOf(Uint16Array.from(BITS)), 2, 'tensor() from a Float16Array');
      t.dispose();
    } });
    cases.push({ name: 'runtime: createOps({ float16Array: true }) returns float16 results as Float16Array', run: async () => {
      const o = (await lib.createOps({ float16Array: true } as never)) as unknown as Ops;
      const r = (await o.relu({ dtype: 'float16', shape: [10], data: Uint16Array.from(BITS) })) as { data: ArrayBufferView };
      eq(kind(r.data), 'Float16Array', 'a plain result');
      sameBits(bitsOf(r.data), refRelu({ dtype: 'float16', shape: [10], data: Uint16Array.from(BITS) }), 2, 'its bits');
      for (const out of [new Uint16Array(10), new F16Array!(10)]) {
        const ro = (await o.relu({ dtype: 'float16', shape: [10], data: Uint16Array.from(BITS) }, { out })) as { data: ArrayBufferView };
        eq(ro.data === out, true, `a ${kind(out)} out is the result's data`);
        sameBits(out, refRelu({ dtype: 'float16', shape: [10], data: Uint16Array.from(BITS) }), 2, `the bits in a ${kind(out)} out`);
      }
      const t = await o.tensor('float16', [10], f16bits(BITS));
      const data = await dataOf(o, t);
      eq(kind(data), 'Float16Array', o.worker ? 'a wasm tensor\'s data as ops.read() gives it' : 'a wasm tensor\'s data');
      sameBits(data, bytesOf(Uint16Array.from(BITS)), 2, 'its bits');
      t.dispose();
      const b = (await o.relu({ dtype: 'bfloat16', shape: [2], data: new Uint16Array([0xbf80, 0x3f80]) }, { opset: 14 })) as { data: ArrayBufferView };
      eq(kind(b.data), 'Uint16Array', 'bfloat16 stays bits');
      eq((await o.memoryStats()).liveAllocations, 0, 'nothing live');
      await closeOps(o);
    } });
  } else {
    cases.push({ name: 'runtime: without a native Float16Array, createOps({ float16Array: true }) is a typed error', run: async () => {
      await rejectsOnnx(lib, 'createOps', lib.createOps({ float16Array: true } as never), { code: 'UNSUPPORTED_ENGINE', mentions: ['Float16Array'] });
    } });
  }
  cases.push({ name: 'runtime: WasmTensor[Symbol.dispose] frees the tensor', run: async () => {
    const o = await ops();
    const before = (await o.memoryStats()).liveAllocations;
    const key = (Symbol as { dispose?: symbol }).dispose ?? Symbol.for('Symbol.dispose');
    const t = await o.tensor('float32', [4]);
    eq((await o.memoryStats()).liveAllocations, before + 1, 'made');
    const dispose = (t as unknown as Record<symbol, () => void>)[key];
    check(typeof dispose === 'function', 'a dispose method under Symbol.dispose');
    dispose.call(t);
    check(t.disposed, 'disposed');
    dispose.call(t); // idempotent
    eq((await o.memoryStats()).liveAllocations, before, 'freed');
  } });
  if (has.using && formOf(lib) === 'sync') {
    cases.push({ name: 'runtime: `using t = ops.tensor(...)` frees t at the end of its block, also when the block throws', run: async () => {
      const o = await ops();
      const before = (await o.memoryStats()).liveAllocations;
      // eslint-disable-next-line no-new-func
      const block = new Function('ops', 'fail', `{
        using a = ops.tensor('float32', [3], new Float32Array([-1, 0, 2]));
        using r = ops.relu(a);
        const seen = Array.from(r.data);
        if (fail) throw new Error('planned');
        return { seen, live: ops.memoryStats().liveAllocations };
      }`) as (ops: Ops, fail: boolean) => { seen: number[]; live: number };
      const inside = block(o, false);
      eq(inside.seen, [0, 0, 2], 'the result inside the block');
      eq(inside.live, before + 2, 'both live inside the block');
      eq((await o.memoryStats()).liveAllocations, before, 'both freed after it');
      let planned = false;
      try {
        block(o, true);
      } catch (e) {
        planned = (e as Error).message === 'planned';
      }
      check(planned, 'the block threw its own error');
      eq((await o.memoryStats()).liveAllocations, before, 'freed when the block throws');
    } });
  }
  if (has.using && formOf(lib) === 'worker') {
    // The worker form's tensors are made by awaited calls, and the ops themselves close with `await using`.
    cases.push({ name: 'runtime: `await using ops` closes the worker and `using t = await ops.tensor(...)` frees t, also when the block throws', run: async () => {
      const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<unknown>;
      const block = new AsyncFunction('createOps', 'fail', 'escape', `{
        await using ops = await createOps();
        escape.ops = ops;
        using a = await ops.tensor('float32', [3], new Float32Array([-1, 0, 2]));
        using r = await ops.relu(a);
        const seen = Array.from((await ops.read(r)).data);
        const live = (await ops.memoryStats()).liveAllocations;
        {
          using t = await ops.tensor('float32', [1]);
        }
        const afterInner = (await ops.memoryStats()).liveAllocations;
        if (fail) throw new Error('planned');
        return { seen, live, afterInner };
      }`);
      const escape: { ops?: Ops } = {};
      const inside = await block(lib.createOps, false, escape) as { seen: number[]; live: number; afterInner: number };
      eq(inside.seen, [0, 0, 2], 'the result inside the block');
      eq(inside.live, 2, 'both live inside the block');
      eq(inside.afterInner, 2, 'a tensor of an inner block freed at its end');
      await failsOnnx(lib, 'Relu', () => escape.ops!.relu(new Float32Array(1)), { code: 'DISPOSED', mentions: ['close()'] });
      let planned = false;
      try {
        await block(lib.createOps, true, escape);
      } catch (e) {
        planned = (e as Error).message === 'planned';
      }
      check(planned, 'the block threw its own error');
      await failsOnnx(lib, 'memoryStats', () => escape.ops!.memoryStats(), { code: 'DISPOSED' });
    } });
  }
  return cases;
}
