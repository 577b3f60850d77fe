// What only the worker form has: calls in flight together, inputs copied or
// moved to the worker, a typed-array out filled when the call resolves,
// tensors that belong to one form, close(), and results whose buffers are
// the caller's. The suite adds these cases when env.form is 'worker'.
import { type Case, type Env, type Lib, type Ops, type Tensor, check, closeOps, eq, failsOnnx, rejectsOnnx, sameBits, throwsOnnx, bytesOf } from '../harness';
import { refMax, refRelu } from '../reference';

type SyncOps = InstanceType<Lib['Ops']>;

const detach = (buffer: ArrayBufferLike): void => {
  structuredClone(buffer, { transfer: [buffer as ArrayBuffer] });
};
const ramp = (n: number, shift: number) => Float32Array.from({ length: n }, (_, k) => ((k * 7 + shift) % 11) - 5);
const isDetached = (a: ArrayBufferView) => a.byteLength === 0 && a.buffer.byteLength === 0;
const tag = (x: unknown) => Object.prototype.toString.call(x).slice(8, -1);

/** A result's buffer is its own: fresh, exactly its size, an ArrayBuffer the caller may move. */
function ownBuffer(data: ArrayBufferView, what: string): void {
  eq(tag(data.buffer), 'ArrayBuffer', `${what}: an ArrayBuffer, not shared`);
  eq([data.byteOffset, data.buffer.byteLength], [0, data.byteLength], `${what}: the buffer holds the result alone`);
  const copy = bytesOf(data).slice();
  const moved = structuredClone(data.buffer, { transfer: [data.buffer as ArrayBuffer] });
  check(isDetached(data), `${what}: the caller can transfer it`);
  sameBits(new Uint8Array(moved), copy, 1, `${what}: its bytes, moved`);
}

/** A started worker as the library made it: terminate() it (recorded), or have its init message dropped. */
type Spied = { terminate(): unknown; terminated: boolean };

/**
 * Wraps the Worker class the library starts its worker with (node:worker_threads'
 * in Node, Deno and Bun; the global Worker in browsers), to reach the workers
 * it makes; `silent`: they never receive their init message, so load and
 * never answer. restore() puts the class back.
 */
function spyWorkers(silent = false): { made: Spied[]; restore(): void } {
  type Ctor = new (...a: unknown[]) => Spied & { postMessage(m: unknown, t?: unknown): void };
  const proc = (globalThis as { process?: { versions?: { node?: string }; getBuiltinModule?: (n: string) => unknown } }).process;
  const holder = (typeof proc?.versions?.node === 'string' ? proc.getBuiltinModule!('node:worker_threads') : globalThis) as { Worker: Ctor };
  const Original = holder.Worker;
  const made: Spied[] = [];
  holder.Worker = class extends Original {
    terminated = false;
    constructor(...a: unknown[]) {
      super(...a);
      made.push(this);
    }
    postMessage(m: unknown, t?: unknown): void {
      if (silent && (m as { t?: string })?.t === 'init') return;
      super.postMessage(m, t);
    }
    terminate(): unknown {
      this.terminated = true;
      return super.terminate();
    }
  } as Ctor;
  return { made, restore: () => { holder.Worker = Original; } };
}

/** Sets the library's internal bounds on its worker (link.ts), for one case: what `f` returns, the bounds restored. */
async function withBounds<T>(bounds: { startMs?: number; silenceMs?: number }, f: () => Promise<T>): Promise<T> {
  const key = Symbol.for('onnx-ops-wasm.worker-bounds');
  const g = globalThis as Record<symbol, unknown>;
  g[key] = bounds;
  try {
    return await f();
  } finally {
    delete g[key];
  }
}

/** Whether the worker form runs on node:worker_threads here (Node, Deno, Bun), not a browser's Worker. */
const serverSide = typeof (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions?.node === 'string';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How a promise settles: its value, or its error. */
const outcome = <T>(p: Promise<T>) => p.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));

export function workerCases(lib: Lib, ops: () => Promise<Ops>, env: Env): Case[] {
  const cases: Case[] = [
    { name: 'worker: several calls in flight complete in the order they were made', run: async () => {
      const o = await ops();
      const before = await o.memoryStats();
      // A large call first, then small ones: each must wait for those before it.
      const sizes = [1 << 20, 16, 1 << 18, 1, 4096, 0, 1 << 16, 3, 1 << 19, 7];
      const done: number[] = [];
      const inputs = sizes.map((n, i) => ramp(n, i));
      const calls = inputs.map((x, i) => {
        const p: Promise<{ data: ArrayBufferView }> = i % 2 ? o.relu(x) : o.max([x, new Float32Array([i - 4])]);
        return p.then((r) => {
          done.push(i);
          return r;
        });
      });
      const stats = o.memoryStats().then((s) => {
        done.push(-1);
        return s;
      });
      const results = await Promise.all(calls);
      await stats;
      eq(done, [...sizes.keys(), -1], 'the order the calls resolved in');
      results.forEach((r, i) => {
        const x = { dtype: 'float32' as const, shape: [sizes[i]], data: inputs[i] };
        const want = i % 2 ? refRelu(x) : refMax([x, { dtype: 'float32', shape: [1], data: new Float32Array([i - 4]) }]).bytes;
        sameBits(r.data, want, 4, `call ${i} (${sizes[i]} elements)`);
      });
      eq((await o.memoryStats()).liveAllocations, before.liveAllocations, 'nothing left in the worker');
    } },

    { name: 'worker: inputs are copied by default: left attached and untouched, even when changed before the call resolves', run: async () => {
      const o = await ops();
      const x = ramp(1000, 3), y = ramp(1000, 5);
      const [x0, y0] = [x.slice(), y.slice()];
      const p = o.max([x, { dtype: 'float32', shape: [1000], data: y }]);
      const r = o.relu(x);
      x.fill(-9); // after the calls were made: they copied x already
      y.fill(-9);
      const t = o.tensor('float32', [1000], y0);
      y0.reverse();
      const plain = (data: Float32Array) => ({ dtype: 'float32' as const, shape: [1000], data });
      sameBits((await p).data, refMax([plain(x0), plain(ramp(1000, 5))]).bytes, 4, 'Max of the inputs as they were when called');
      sameBits((await r).data, refRelu({ dtype: 'float32', shape: [1000], data: x0 }), 4, 'Relu of the input as it was');
      sameBits((await o.read(await t)).data, bytesOf(ramp(1000, 5)), 4, 'tensor() copied its data when called');
      (await t).dispose();
      check(x.length === 1000 && y.length === 1000, 'the inputs stay attached');
      eq([x[0], y[999]], [-9, -9], 'and hold what the caller wrote');
    } },

    { name: 'worker: { transfer: true } moves the inputs\' buffers (the caller\'s arrays detach) and gives the same bits', run: async () => {
      const o = await ops();
      const make = () => [ramp(5000, 1), ramp(5000, 2), ramp(1, 9)];
      const copied = make();
      const want = await o.max([copied[0], { dtype: 'float32', shape: [5000], data: copied[1] }, { type: 'float32', dims: [1], data: copied[2] }] as never);
      const moved = make();
      const r = await o.max([moved[0], { dtype: 'float32', shape: [5000], data: moved[1] }, { type: 'float32', dims: [1], data: moved[2] }] as never, { transfer: true });
      sameBits(r.data, bytesOf(want.data), 4, 'Max with transfer: true');
      check(moved.every(isDetached), 'every input\'s buffer moved');
      check(copied.every((a) => !isDetached(a)), 'without transfer, none moved');
      // Two views of one buffer at odd offsets: the buffer moves once.
      const buf = new ArrayBuffer(64);
      const a = new Int16Array(buf, 2, 5), b = new Int16Array(buf, 18, 5);
      a.set([1, -2, 3, -4, 5]);
      b.set([-1, 2, -3, 4, -5]);
      const want2 = refMax([{ dtype: 'int16', shape: [5], data: a.slice() }, { dtype: 'int16', shape: [5], data: b.slice() }]).bytes;
      sameBits((await o.max([a, b], { transfer: true })).data, want2, 2, 'two views of one buffer');
      eq(buf.byteLength, 0, 'their buffer moved');
      // The inputs array's getter makes a call of its own (without transfer): this call still moves its inputs.
      const first = ramp(4, 1);
      const arr = [first, ramp(4, 2)];
      const inner: Promise<unknown>[] = [];
      Object.defineProperty(arr, 1, { get() { inner.push(o.relu(ramp(2, 3))); return ramp(4, 2); } });
      const plain = (data: Float32Array) => ({ dtype: 'float32' as const, shape: [4], data });
      sameBits((await o.max(arr, { transfer: true })).data, refMax([plain(ramp(4, 1)), plain(ramp(4, 2))]).bytes, 4, 'Max whose inputs array makes a call');
      check(inner.length > 0, 'the getter ran');
      await Promise.all(inner);
      check(isDetached(first), 'the input read before the getter\'s call moved');
      const x = ramp(8, 4);
      const rx = await o.relu(x, { transfer: false });
      check(!isDetached(x), 'transfer: false copies');
      sameBits(rx.data, refRelu({ dtype: 'float32', shape: [8], data: ramp(8, 4) }), 4, 'Relu with transfer: false');
      await failsOnnx(lib, 'Relu', () => o.relu(x, { transfer: 1 } as never), { code: 'INVALID_ARGUMENT', mentions: ['transfer'] });
      check(!isDetached(x), 'a refused call moves nothing');
    } },

    { name: 'worker: with transfer: true, out\'s buffer, a WebAssembly.Memory\'s and SharedArrayBuffers are copied, not moved', run: async () => {
      const o = await ops();
      const buf = new ArrayBuffer(32);
      const x = new Float32Array(buf, 0, 4), out = new Float32Array(buf, 16, 4);
      x.set([-1, 2, -3, 4]);
      const r = await o.relu(x, { out, transfer: true });
      eq(r.data === out, true, 'out is the result\'s data');
      eq(Array.from(out), [0, 2, 0, 4], 'Relu into out');
      eq(Array.from(x), [-1, 2, -3, 4], 'the input sharing out\'s buffer stays');
      // A wasm memory's buffer cannot be detached (as a sync-API tensor's .data, for one):
      // it is copied, while the other inputs still move. (Engines without WebAssembly have no such buffer.)
      const wasm = (globalThis as { WebAssembly?: typeof WebAssembly }).WebAssembly;
      check(wasm !== undefined || env.expectBackend === 'js', 'WebAssembly is missing only where the runner expects the js backend');
      if (wasm) {
        const m = new Float32Array(new wasm.Memory({ initial: 1 }).buffer, 64, 4);
        m.set([-5, 6, -7, 8]);
        const movable = new Float32Array([0, 0, 0, 9]);
        const rm = await o.max([m, movable], { transfer: true });
        eq(Array.from(rm.data as Float32Array), [0, 6, 0, 9], 'Max of a wasm memory\'s view and an array');
        eq(Array.from(m), [-5, 6, -7, 8], 'the wasm memory\'s view stays');
        check(isDetached(movable), 'the other input moved');
      }
      if (env.expect.sharedArrayBuffer) {
        const shared = new Float32Array(new SharedArrayBuffer(16));
        shared.set([5, -6, 7, -8]);
        const rs = await o.relu(shared, { transfer: true });
        eq(Array.from(rs.data as Float32Array), [5, 0, 7, 0], 'Relu of a shared view');
        eq(Array.from(shared), [5, -6, 7, -8], 'the shared view stays');
      } else {
        check(typeof SharedArrayBuffer === 'undefined', 'the engine has no SharedArrayBuffer, as its runner says');
      }
    } },

    { name: 'worker: a typed-array out is filled when the call resolves, and is the result\'s data', run: async () => {
      const o = await ops();
      const out = new Float32Array(4).fill(99);
      const p = o.max([new Float32Array([1, -2, 3, -4]), new Float32Array([0])], { out });
      eq(Array.from(out), [99, 99, 99, 99], 'not yet when the call returns');
      const r = await p;
      eq(r.data === out, true, 'out is the result\'s data');
      eq(Array.from(out), [1, 0, 3, 0], 'filled on resolve');
      const big = new BigInt64Array(3);
      await o.relu(new BigInt64Array([-5n, 6n, -7n]), { out: big });
      eq(Array.from(big, String), ['0', '6', '0'], 'an int64 out');
      // out's buffer detached while the call is in flight: the result has nowhere to go.
      const lost = new Float32Array(4);
      const q = o.relu(new Float32Array([1, 2, 3, 4]), { out: lost });
      detach(lost.buffer);
      await rejectsOnnx(lib, 'Relu', q, { code: 'INVALID_ARGUMENT', input: 'out', mentions: ['detached'] });
      eq(Array.from((await o.relu(new Float32Array([-1, 1]))).data as Float32Array), [0, 1], 'the instance goes on');
    } },

    { name: 'worker: a sync-API tensor given to the worker form, and the reverse, is FOREIGN_TENSOR naming both forms', run: async () => {
      const o = await ops();
      const sync = (await lib.createOps({ worker: false } as never)) as unknown as SyncOps;
      check(!(sync as { worker?: boolean }).worker, 'createOps({ worker: false }) is the sync API');
      const st = sync.tensor('float32', [2], new Float32Array([-1, 1]));
      const wt = await o.tensor('float32', [2], new Float32Array([-2, 2]));
      const both = ['the sync API', 'the worker form'];
      await failsOnnx(lib, 'Relu', () => o.relu(st), { code: 'FOREIGN_TENSOR', input: 0, mentions: both });
      await failsOnnx(lib, 'Max', () => o.max([wt, st]), { code: 'FOREIGN_TENSOR', input: 1, mentions: both });
      await failsOnnx(lib, 'Max', () => o.max([wt], { out: st }), { code: 'FOREIGN_TENSOR', input: 'out', mentions: both });
      await failsOnnx(lib, 'read', () => o.read(st), { code: 'FOREIGN_TENSOR', input: 0 });
      throwsOnnx(lib, 'Relu', () => sync.relu(wt), { code: 'FOREIGN_TENSOR', input: 0, mentions: both });
      throwsOnnx(lib, 'Max', () => sync.max([st, wt]), { code: 'FOREIGN_TENSOR', input: 1, mentions: both });
      throwsOnnx(lib, 'Max', () => sync.max([st], { out: wt }), { code: 'FOREIGN_TENSOR', input: 'out', mentions: both });
      eq(Array.from(st.data as Float32Array), [-1, 1], 'the sync tensor is untouched');
      eq(Array.from((await o.read(wt)).data as Float32Array), [-2, 2], 'the worker tensor is untouched');
      const other = (await lib.createOps()) as unknown as Ops;
      await failsOnnx(lib, 'read', () => other.read(wt), { code: 'FOREIGN_TENSOR', input: 0 });
      await closeOps(other);
      st.dispose();
      wt.dispose();
      eq(sync.memoryStats().liveAllocations, 0, 'the sync instance holds nothing');
    } },

    { name: 'worker: results\' buffers are fresh and the caller\'s (plain results, typed-array out aside, and ops.read())', run: async () => {
      const o = await ops();
      const x = ramp(100, 7);
      const [r1, r2] = await Promise.all([o.relu(x), o.relu(x)]);
      check(r1.data.buffer !== r2.data.buffer, 'two calls, two buffers');
      const want = bytesOf(r2.data).slice();
      (r1.data as Float32Array).fill(-1);
      sameBits(r2.data, want, 4, 'writing one result leaves the other');
      ownBuffer(r1.data, 'a Relu result');
      ownBuffer((await o.max([x, ramp(1, 0)])).data, 'a Max result');
      const t = await o.tensor('float32', [100], x);
      const [p1, p2] = await Promise.all([o.read(t), o.read(t)]);
      check(p1.data.buffer !== p2.data.buffer, 'two reads, two buffers');
      ownBuffer(p1.data, 'a read()');
      const r3 = (await o.relu(t)) as Tensor;
      sameBits((await o.read(r3)).data, want, 4, 'a tensor result, read');
      eq(Array.from(p2.data as Float32Array), Array.from(x), 'the tensor is as it was');
      r3.dispose();
      t.dispose();
    } },

    { name: 'worker: close() lets calls made before it complete; later calls reject DISPOSED; Symbol.asyncDispose closes too', run: async () => {
      const w = (await lib.createOps()) as unknown as Ops;
      const t = await w.tensor('float32', [3], new Float32Array([-1, 0, 1]));
      const pending = w.relu(t);
      const read = w.read(t);
      const closing = w.close();
      eq(w.close() === closing, true, 'close() again: the same promise');
      const r = (await pending) as Tensor;
      eq(Array.from((await read).data as Float32Array), [-1, 0, 1], 'a read made before close()');
      await closing;
      for (const [op, call] of [
        ['Max', () => w.max([new Float32Array(1)])], ['Relu', () => w.relu(new Float32Array(1))],
        ['tensor', () => w.tensor('float32', [1])], ['read', () => w.read(r)],
        ['memoryStats', () => w.memoryStats()], ['trimMemory', () => w.trimMemory()],
      ] as const) await failsOnnx(lib, op, call, { code: 'DISPOSED', mentions: ['close()'] });
      r.dispose(); // nothing to free any more: no error
      t.dispose();
      eq(w.supportedDtypes('Relu', 6), ['float16', 'float32', 'float64'], 'supportedDtypes() needs no worker');
      const key = (Symbol as { asyncDispose?: symbol }).asyncDispose ?? Symbol.for('Symbol.asyncDispose');
      const w2 = (await lib.createOps()) as unknown as Ops & Record<symbol, () => Promise<void>>;
      check(typeof w2[key] === 'function', 'a method under Symbol.asyncDispose');
      const made = w2.max([new Float32Array([1]), new Float32Array([2])]);
      await w2[key]();
      eq(Array.from((await made).data as Float32Array), [2], 'a call made before it completes');
      await failsOnnx(lib, 'Relu', () => w2.relu(new Float32Array(1)), { code: 'DISPOSED' });
    } },

    { name: 'worker: killed with calls in flight, they reject WORKER_DIED saying so; the next call runs on a new worker; old tensors are lost', run: async () => {
      const spy = spyWorkers();
      try {
        const o = (await lib.createOps()) as unknown as Ops;
        eq(spy.made.length, 1, 'createOps() started one worker');
        const t = await o.tensor('float32', [4], new Float32Array([-1, 2, -3, 4]));
        const x = ramp(1 << 16, 1);
        const want = refRelu({ dtype: 'float32', shape: [x.length], data: x });
        const calls = Array.from({ length: 40 }, () => outcome(o.relu(x)));
        const onTensor = outcome(o.relu(t));
        spy.made[0].terminate();
        const settled = [...await Promise.all(calls), await onTensor];
        const failed = settled.findIndex((r) => !r.ok);
        check(failed >= 0, 'the calls still in flight when the worker was killed rejected');
        settled.forEach((r, i) => {
          if (r.ok) {
            check(i < failed, `call ${i} resolved after one that rejected`);
            if (i < calls.length) sameBits((r.value as { data: ArrayBufferView }).data, want, 4, `call ${i}, done before the death`);
          } else {
            // Node, Deno, Bun: the worker's exit event; browsers: the release of its Web Lock.
            throwsOnnx(lib, 'Relu', () => { throw r.error; }, { code: 'WORKER_DIED', mentions: ['died', serverSide ? 'exited (code' : 'terminated by the page or the browser'] });
          }
        });
        // The next call starts a new worker with the same options, and is exact there.
        const y = ramp(1000, 2);
        sameBits((await o.relu(y)).data, refRelu({ dtype: 'float32', shape: [1000], data: y }), 4, 'the first call after the death');
        eq(spy.made.length, 2, 'a new worker started');
        // The dead worker's tensor: its memory went with it, whatever the call.
        await failsOnnx(lib, 'Relu', () => o.relu(t), { code: 'DISPOSED', input: 0, mentions: ['lost with the worker'] });
        await failsOnnx(lib, 'read', () => o.read(t), { code: 'DISPOSED', input: 0, mentions: ['lost with the worker'] });
        const fresh = await o.tensor('float32', [4], new Float32Array([5, -6, 7, -8]));
        await failsOnnx(lib, 'Max', () => o.max([fresh], { out: t }), { code: 'DISPOSED', input: 'out', mentions: ['lost'] });
        await failsOnnx(lib, 'Max', () => o.max([fresh, t]), { code: 'DISPOSED', input: 1, mentions: ['lost'] });
        t.dispose(); // nothing to free: no error, nothing sent
        const r = (await o.relu(fresh)) as Tensor;
        eq(Array.from((await o.read(r)).data as Float32Array), [5, 0, 7, 0], 'a tensor of the new worker');
        r.dispose();
        fresh.dispose();
        eq((await o.memoryStats()).liveAllocations, 0, 'the new worker holds nothing');
        // Killed again while idle: a later call starts a third. A browser hears of it when the worker's Web
        // Lock is released, and a loaded machine may let the dying worker answer a call first: each call
        // until then is exact or rejects WORKER_DIED.
        await spy.made[1].terminate();
        const small = () => o.max([new Float32Array([1, -1]), new Float32Array([0])]);
        for (const until = Date.now() + 10_000; spy.made.length < 3 && Date.now() < until;) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          const r = await outcome(small());
          if (r.ok) eq(Array.from((r.value as { data: Float32Array }).data), [1, 0], 'a call while the second worker dies');
          else throwsOnnx(lib, 'Max', () => { throw r.error; }, { code: 'WORKER_DIED', mentions: ['died'] });
        }
        eq(Array.from((await small()).data as Float32Array), [1, 0], 'after a second death');
        eq(spy.made.length, 3, 'a third worker');
        await o.close();
        await failsOnnx(lib, 'Relu', () => o.relu(y), { code: 'DISPOSED', mentions: ['close()'] });
        eq(spy.made.length, 3, 'after close(), no call starts a worker');
      } finally {
        spy.restore();
      }
    } },

    { name: 'worker: a worker that loads and never answers: createOps() rejects after its bound and ends it', run: async () => {
      const spy = spyWorkers(true);
      try {
        const started = Date.now();
        await withBounds({ startMs: 400 }, () => rejectsOnnx(lib, 'createOps', lib.createOps() as Promise<unknown>,
          { code: 'UNSUPPORTED_ENGINE', mentions: ['did not answer within 0.4 s'] }));
        check(Date.now() - started >= 390, 'not before the bound');
        eq(spy.made.map((w) => w.terminated), [true], 'the silent worker was ended');
      } finally {
        spy.restore();
      }
    } },

    { name: 'worker: a worker that dies on start-up, again and again: calls reject, and after 3 failed starts the instance gives up', run: async () => {
      const spy = spyWorkers();
      try {
        const o = (await lib.createOps()) as unknown as Ops;
        spy.restore();
        const silent = spyWorkers(true);
        try {
          await spy.made[0].terminate();
          await new Promise((resolve) => setTimeout(resolve, 200));
          for (let i = 1; i <= 3; i++) {
            await withBounds({ startMs: 200 }, () => failsOnnx(lib, 'Relu', () => o.relu(new Float32Array(1)),
              { code: 'WORKER_DIED', mentions: ['could not be started', 'did not answer'] }));
            eq(silent.made.length, i, `start ${i}`);
          }
          await failsOnnx(lib, 'Relu', () => o.relu(new Float32Array(1)), { code: 'WORKER_DIED', mentions: ['3 times in a row', 'gave up'] });
          eq(silent.made.length, 3, 'no fourth start');
          check(silent.made.every((w) => w.terminated), 'every silent worker was ended');
          await o.close();
        } finally {
          silent.restore();
        }
      } finally {
        spy.restore();
      }
    } },

    { name: 'worker: { signal }: aborted before the call or while it waits, it rejects with the reason and never runs; running, it completes', run: async () => {
      const o = await ops();
      const reason = new Error('no longer wanted');
      const ac = new AbortController();
      ac.abort(reason);
      const x = new Float32Array([-1, 2]);
      let caught: unknown;
      await o.relu(x, { signal: ac.signal, transfer: true }).catch((e) => { caught = e; });
      eq(caught === reason, true, 'an aborted signal: the call rejects with its reason');
      check(!isDetached(x), 'and moved nothing');
      // Waiting behind a long call: withdrawn, never run (its out tensor keeps what it held).
      const t = await o.tensor('float32', [2], new Float32Array([7, 7]));
      const long = o.max([ramp(1 << 20, 3), new Float32Array([0])]);
      const waiting = new AbortController();
      const queued = o.relu(new Float32Array([-5, 5]), { out: t, signal: waiting.signal });
      const after = o.relu(new Float32Array([-9, 9]));
      waiting.abort();
      caught = undefined;
      await queued.catch((e) => { caught = e; });
      eq((caught as Error)?.name, 'AbortError', 'abort() without a reason: an AbortError');
      eq(Array.from((await after).data as Float32Array), [0, 9], 'the call after it runs');
      await long;
      eq(Array.from((await o.read(t)).data as Float32Array), [7, 7], 'the withdrawn call never ran');
      // Already in the worker: it completes, exactly.
      const running = new AbortController();
      const big = ramp(1 << 20, 5);
      const p = o.relu(big, { signal: running.signal });
      running.abort();
      sameBits((await p).data, refRelu({ dtype: 'float32', shape: [big.length], data: big }), 4, 'a call already running completes');
      await failsOnnx(lib, 'Relu', () => o.relu(x, { signal: {} } as never), { code: 'INVALID_ARGUMENT', mentions: ['AbortSignal'] });
      t.dispose();
    } },

    { name: 'worker: 10,000 calls queued at once resolve in order, each exact, some withdrawn by their signals', run: async () => {
      const o = await ops();
      const order: number[] = [];
      const withdrawn: number[] = [];
      const aborts: AbortController[] = [];
      const calls = Array.from({ length: 10_000 }, (_, i) => {
        const signal = i % 100 === 50 ? (aborts[aborts.length] = new AbortController()).signal : undefined;
        return o.relu(new Float32Array([i - 5000, -i]), signal ? { signal } : undefined).then((r) => {
          const d = r.data as Float32Array;
          check(d[0] === Math.max(0, i - 5000) && d[1] === 0, `call ${i}: Relu of [${i - 5000}, ${-i}] gave [${Array.from(d)}]`);
          order.push(i);
        }, (e) => {
          check(i % 100 === 50 && (e as Error).name === 'AbortError', `call ${i} rejected: ${String(e)}`);
          withdrawn.push(i);
        });
      });
      aborts.forEach((a, k) => k % 2 === 0 && a.abort());
      await Promise.all(calls);
      eq(withdrawn.length, 50, 'the calls whose signals aborted were withdrawn');
      eq(order, Array.from({ length: 10_000 }, (_, i) => i).filter((i) => !withdrawn.includes(i)), 'the others resolved in the order they were made');
    } },
  ];
  // Where a browser's page has no Web Locks (not a secure context), the worker's heartbeat tells its death.
  if (!serverSide) cases.push({ name: 'worker: a page without Web Locks hears of a killed worker by its heartbeat\'s silence, and only then', run: async () => {
    const nav = globalThis.navigator as unknown as Record<string, unknown>;
    check(typeof (nav.locks as { request?: unknown })?.request === 'function', 'the page has Web Locks (a secure context)');
    Object.defineProperty(nav, 'locks', { value: undefined, configurable: true });
    const spy = spyWorkers();
    try {
      await withBounds({ silenceMs: 1000 }, async () => {
        const o = (await lib.createOps()) as unknown as Ops;
        await sleep(2000); // idle past the bound: its beats keep it alive
        eq(Array.from((await o.relu(new Float32Array([-1, 1]))).data as Float32Array), [0, 1], 'a call after 2 s idle');
        eq(spy.made.length, 1, 'still the first worker');
        const x = ramp(1 << 16, 4);
        const calls = Array.from({ length: 20 }, () => outcome(o.relu(x)));
        spy.made[0].terminate();
        const killed = Date.now();
        const last = (await Promise.all(calls)).pop()!;
        check(!last.ok, 'the last call in flight rejected');
        throwsOnnx(lib, 'Relu', () => { throw last.error; }, { code: 'WORKER_DIED', mentions: ['sent nothing for 1 s', 'heartbeat'] });
        check(Date.now() - killed < 5000, `heard of within 5 s (${Date.now() - killed} ms)`);
        sameBits((await o.relu(x)).data, refRelu({ dtype: 'float32', shape: [x.length], data: x }), 4, 'the next call, on a new worker');
        eq(spy.made.length, 2, 'a new worker');
        await o.close();
      });
    } finally {
      delete nav.locks;
      spy.restore();
    }
    check(typeof (nav.locks as { request?: unknown })?.request === 'function', 'the page\'s Web Locks are back');
  } });
  // Last: the suite's own instance ends, as an instance a page no longer needs.
  cases.push({ name: 'worker: the suite\'s instance closes once its calls are done', run: async () => {
    const o = await ops();
    const p = o.relu(new Float32Array([-3, 3]));
    await o.close();
    eq(Array.from((await p).data as Float32Array), [0, 3], 'the last call');
    await failsOnnx(lib, 'Max', () => o.max([new Float32Array(1)]), { code: 'DISPOSED' });
  } });
  return cases;
}
