// The worker form, createOps({ worker: true }), in Node (worker_threads), from
// the CommonJS build: the sync API's results and errors, as promises; copies,
// transfers and `out`; order; tensors in the worker; misuse; close(); its
// worker's death, restart and start-up bound; { signal }. (About 15 s here.)
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DTYPES, OnnxOpsError, WasmTensor, type Ops, type WorkerOps, createOps, encodeFloat16, encodeBfloat16 } from 'onnx-ops-wasm';
import { cases } from './error-cases';
import { thrown } from './helpers';

const run = promisify(execFile);
const DIST = join(__dirname, '..', '..', 'dist', 'cjs', 'index.js');
let sync: Ops;
let w: WorkerOps;

beforeAll(async () => {
  sync = await createOps();
  w = await createOps({ worker: true });
});
afterAll(() => w.close());

/** The rejection of a promise (fails when it resolves). */
async function rejection(p: unknown): Promise<OnnxOpsError> {
  expect(p).toBeInstanceOf(Promise);
  try {
    await p;
  } catch (e) {
    return e as OnnxOpsError;
  }
  throw new Error('expected a rejection');
}

const nums = (a: ArrayBufferView): number[] => Array.from(a as Float32Array);
const bits = (a: ArrayBufferView) => Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));

/** Data of every dtype with its special values (NaN of both signs, ±0, ±Inf, extremes). */
function data(dtype: string, n: number, seed: number): ArrayBufferView {
  let s = seed;
  const next = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const specials = [NaN, -NaN, 0, -0, Infinity, -Infinity, 1, -1];
  const num = (i: number) => (i % 7 === 0 ? specials[(i / 7) % specials.length] : (next() - 0.5) * 200);
  switch (dtype) {
    case 'float32': return Float32Array.from({ length: n }, (_, i) => num(i));
    case 'float64': return Float64Array.from({ length: n }, (_, i) => num(i));
    case 'float16': return encodeFloat16(Array.from({ length: n }, (_, i) => num(i)));
    case 'bfloat16': return encodeBfloat16(Array.from({ length: n }, (_, i) => num(i)));
    case 'int64': return BigInt64Array.from({ length: n }, () => BigInt(Math.floor((next() - 0.5) * 2 ** 52)) * 1021n);
    case 'uint64': return BigUint64Array.from({ length: n }, () => BigInt(Math.floor(next() * 2 ** 52)) * 4093n);
    default: {
      const C = { int8: Int8Array, int16: Int16Array, int32: Int32Array, uint8: Uint8Array, uint16: Uint16Array, uint32: Uint32Array }[dtype]!;
      const a = new C(n);
      const b = new Uint8Array(a.buffer);
      for (let i = 0; i < b.length; i++) b[i] = Math.floor(next() * 256);
      return a;
    }
  }
}

describe('the worker form', () => {
  test('ops: backend, simd, worker; createOps option errors', async () => {
    expect([w.backend, w.simd, w.worker]).toEqual(['wasm-simd', true, true]);
    const bad: [object, object | undefined][] = [
      [{ worker: 'yes' }, undefined], [{ worker: true, backend: 'gpu' }, { backend: 'gpu' }],
      [{ worker: true, nope: 1 }, { nope: 1 }], [{ worker: true, scratchBytes: 3 }, { scratchBytes: 3 }],
    ];
    for (const [options, syncOptions] of bad) {
      const e = await rejection(createOps(options as never));
      expect([e.code, e.op]).toEqual(['INVALID_ARGUMENT', 'createOps']);
      if (syncOptions) expect(e.message).toBe((await rejection(createOps(syncOptions as never))).message);
    }
  });

  test.each(['wasm', 'js'] as const)('the worker runs the %s backend when asked', async (backend) => {
    const o = await createOps({ worker: true, backend });
    try {
      expect(o.backend).toBe(backend);
      const a = data('float32', 300, 5);
      const b = data('float32', 300, 6);
      expect(bits((await o.max([a, b])).data)).toEqual(bits((sync.max([a, b]) as { data: ArrayBufferView }).data));
    } finally {
      await o.close();
    }
  });

  test.each([...DTYPES])('%s: Max (3 inputs, broadcasting) and Relu, bit for bit the sync results', async (dtype) => {
    const x = { dtype, shape: [4, 1, 33], data: data(dtype, 132, 1) };
    const y = { dtype, shape: [5, 1], data: data(dtype, 5, 2) };
    const z = { dtype, shape: [33], data: data(dtype, 33, 3) };
    const want = sync.max([x, y, z]) as { shape: number[]; data: ArrayBufferView };
    const got = await w.max([x, y, z]);
    expect(got.shape).toEqual(want.shape);
    // (By name: under Jest, messages arrive as the main realm's typed arrays, not the test's.)
    expect(got.data.constructor.name).toBe(want.data.constructor.name);
    expect(bits(got.data)).toEqual(bits(want.data));
    if (sync.supportedDtypes('Relu').includes(dtype)) {
      const r = await w.relu(x);
      expect(bits(r.data)).toEqual(bits((sync.relu(x) as { data: ArrayBufferView }).data));
    }
    if (sync.supportedDtypes('Max', 6).includes(dtype)) {
      const old = await w.max([x, x], { opset: 6 });
      expect(bits(old.data)).toEqual(bits((sync.max([x, x], { opset: 6 }) as { data: ArrayBufferView }).data));
    }
  });

  test.each(cases.filter((c) => !c.syncOnly).map((c) => [c.name, c] as const))('bad call, the sync error as a rejection: %s', async (_name, c) => {
    const want = thrown(() => c.call(sync));
    let p: unknown;
    expect(() => { p = c.call(w as unknown as Ops); }).not.toThrow();
    const e = await rejection(p);
    expect(e).toBeInstanceOf(OnnxOpsError);
    expect([e.name, e.code, e.op, e.input, e.message]).toEqual([want.name, want.code, want.op, want.input, want.message]);
    expect(nums((await w.relu(new Float32Array([-1, 1]))).data)).toEqual([0, 1]);
  });

  test('inputs are copied by default and left untouched; results are fresh buffers', async () => {
    const a = new Float32Array([1, -2, 3, -4]);
    const r = await w.relu(a);
    expect(nums(a)).toEqual([1, -2, 3, -4]);
    expect(nums(r.data)).toEqual([1, 0, 3, 0]);
    expect(r.data.buffer).not.toBe(a.buffer);
    expect(r.data.buffer.byteLength).toBe(16);
    // A view into a larger buffer sends only its elements.
    const big = new Float32Array(1000).fill(-1);
    big.set([5, 6], 500);
    expect(nums((await w.relu(big.subarray(499, 502))).data)).toEqual([0, 5, 6]);
  });

  test('{ transfer: true } moves the inputs\' buffers (same results); SharedArrayBuffers and out\'s buffer are copied', async () => {
    const a = data('float32', 1000, 7) as Float32Array;
    const b = data('float32', 1000, 8) as Float32Array;
    const want = bits((sync.max([a, b]) as { data: ArrayBufferView }).data);
    const got = await w.max([a, b], { transfer: true });
    expect(a.length).toBe(0);
    expect(b.length).toBe(0);
    expect(bits(got.data)).toEqual(want);
    const shared = new Float32Array(new SharedArrayBuffer(8));
    shared.set([-3, 3]);
    expect(nums((await w.relu(shared, { transfer: true })).data)).toEqual([0, 3]);
    expect(nums(shared)).toEqual([-3, 3]);
    const x = new Float32Array([-1, 2]);
    const r = await w.relu(x, { out: x, transfer: true }); // in place: x is out, so it stays
    expect(r.data).toBe(x);
    expect(nums(x)).toEqual([0, 2]);
    const e = await rejection(w.relu(x, { transfer: 1 } as never));
    expect([e.code, e.op]).toEqual(['INVALID_ARGUMENT', 'Relu']);
  });

  test('a typed-array out is filled when the promise resolves', async () => {
    const out = new Int32Array(3);
    const p = w.max([new Int32Array([1, 5, -3]), new Int32Array([4])], { out });
    expect(nums(out)).toEqual([0, 0, 0]);
    const r = await p;
    expect(r.data).toBe(out);
    expect(nums(out)).toEqual([4, 5, 4]);
  });

  test('calls in flight complete in the order they were made', async () => {
    const order: number[] = [];
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < 60; i++) {
      const p = i % 3 === 0 ? w.max([new Float64Array(5000), new Float64Array([i])])
        : i % 3 === 1 ? w.relu(new Float32Array([i - 30])) : w.max([new Float32Array(2), new Float32Array(3)]);
      calls.push(p.then(() => order.push(i), () => order.push(i)));
    }
    await Promise.all(calls);
    expect(order).toEqual([...Array(60).keys()]);
  });

  test('tensors live in the worker: chained calls, ops.read(), dispose(), memoryStats()', async () => {
    const before = await w.memoryStats();
    const a = await w.tensor('float32', [2, 3], new Float32Array([-1, 2, -3, 4, -5, 6]));
    const b = await w.tensor('float32', [3], new Float32Array([0, 0, 10]));
    expect(a).toBeInstanceOf(WasmTensor);
    expect([a.dtype, a.shape, a.size]).toEqual(['float32', [2, 3], 6]);
    const m = await w.max([a, b]) as WasmTensor;
    expect(m).toBeInstanceOf(WasmTensor);
    const r = await w.relu(m, { out: m });
    expect(r).toBe(m);
    expect(nums((await w.read(m)).data)).toEqual([0, 2, 10, 4, 0, 10]);
    expect(thrown(() => a.data).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => a.toPlain()).message).toContain('await ops.read(tensor)');
    expect((await w.memoryStats()).liveAllocations).toBe(before.liveAllocations + 3);
    for (const t of [a, b, m]) t.dispose();
    expect((await rejection(w.relu(a))).code).toBe('DISPOSED');
    expect((await rejection(w.read(a))).code).toBe('DISPOSED');
    const after = await w.memoryStats();
    expect([after.liveAllocations, after.heapInUse]).toEqual([before.liveAllocations, before.heapInUse]);
    const e = await rejection(w.tensor('float32', [2 ** 20, 2 ** 12]));
    expect([e.code, e.op]).toEqual(['TOO_LARGE', 'tensor']);
    await w.trimMemory();
  });

  test('a tensor of the other form is FOREIGN_TENSOR, never a silent copy', async () => {
    const s = sync.tensor('float32', [2], new Float32Array([1, 2]));
    const t = await w.tensor('float32', [2]);
    try {
      const e = await rejection(w.relu(s));
      expect([e.code, e.input]).toEqual(['FOREIGN_TENSOR', 0]);
      expect(e.message).toContain('the sync API');
      expect(e.message).toContain('the worker form');
      const f = thrown(() => sync.max([s, t]));
      expect([f.code, f.input]).toEqual(['FOREIGN_TENSOR', 1]);
      expect((await rejection(w.read(s as never))).code).toBe('FOREIGN_TENSOR');
    } finally {
      s.dispose();
      t.dispose();
    }
  });

  test('close(): calls already made complete, later ones reject DISPOSED; Symbol.asyncDispose closes', async () => {
    const o = await createOps({ worker: true });
    const made = o.relu(new Float32Array([-1, 1]));
    const closing = o.close();
    expect(o.close()).toBe(closing);
    expect(nums((await made).data)).toEqual([0, 1]);
    await closing;
    for (const p of [o.relu(new Float32Array(1)), o.max([new Float32Array(1)]), o.tensor('float32', [1]), o.memoryStats()]) {
      expect((await rejection(p)).code).toBe('DISPOSED');
    }
    const d = await createOps({ worker: true });
    const dispose = (d as unknown as Record<symbol, () => Promise<void>>)[Symbol.for('Symbol.asyncDispose')] ??
      (d as unknown as Record<symbol, () => Promise<void>>)[(Symbol as { asyncDispose?: symbol }).asyncDispose!];
    await dispose.call(d);
    expect((await rejection(d.relu(new Float32Array(1)))).code).toBe('DISPOSED');
  });

  test('a Node process exits by itself, after close() and without it', async () => {
    const script = (close: boolean) => `const { createOps } = require(${JSON.stringify(DIST)});
createOps({ worker: true }).then(async (ops) => {
  const r = await ops.relu(new Float32Array([-1, 2]));
  console.log(Array.from(r.data).join());
  ${close ? 'await ops.close();' : ''}
});`;
    for (const close of [true, false]) {
      const { stdout } = await run(process.execPath, ['-e', script(close)], { timeout: 20_000 });
      expect(stdout.trim()).toBe('0,2');
    }
  });

  test.each([
    ['onnx-ops-wasm-worker.js', { worker: true }], ['worker-client.js', { worker: true }],
    ['backend-js.js', { backend: 'js' }], ['onnx-ops-wasm-scalar.js', { backend: 'wasm' }],
  ])('without %s beside index.js, createOps(%j) rejects UNSUPPORTED_ENGINE naming it', async (file, options) => {
    const dir = mkdtempSync(join(tmpdir(), 'onnx-ops-missing-'));
    try {
      cpSync(join(DIST, '..'), dir, { recursive: true });
      rmSync(join(dir, file));
      const script = `require(${JSON.stringify(join(dir, 'index.js'))}).createOps(${JSON.stringify(options)}).then(
  () => console.log('resolved'), (e) => console.log(JSON.stringify({ code: e.code, op: e.op, message: e.message })));`;
      const { stdout } = await run(process.execPath, ['-e', script], { timeout: 20_000 });
      const e = JSON.parse(stdout);
      expect([e.code, e.op]).toEqual(['UNSUPPORTED_ENGINE', 'createOps']);
      expect(e.message).toMatch(new RegExp(`^createOps: could not (load|start the worker from) ${file.replace(/\./g, '\\.')}[,:]`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Wraps node:worker_threads' Worker, which the library starts its worker
 * with, to reach the workers it makes; `silent`: they never get their init
 * message (they load and never answer). restore() puts it back.
 */
function spyWorkers(silent = false): { made: import('node:worker_threads').Worker[]; restore(): void } {
  const wt = process.getBuiltinModule('node:worker_threads') as { Worker: typeof import('node:worker_threads').Worker };
  const Original = wt.Worker;
  const made: import('node:worker_threads').Worker[] = [];
  wt.Worker = class extends Original {
    constructor(...a: ConstructorParameters<typeof Original>) {
      super(...a);
      made.push(this);
    }
    postMessage(m: unknown, t?: readonly import('node:worker_threads').TransferListItem[]): void {
      if (!(silent && (m as { t?: string })?.t === 'init')) super.postMessage(m, t);
    }
  };
  return { made, restore: () => { wt.Worker = Original; } };
}
const BOUNDS = Symbol.for('onnx-ops-wasm.worker-bounds');

describe('the worker form\'s worker dies, restarts; start-up bound; cancellation', () => {
  test('killed with calls in flight: they reject WORKER_DIED with the exit code; the next call runs on a new worker; old tensors are lost', async () => {
    const spy = spyWorkers();
    try {
      const o = await createOps({ worker: true });
      const t = await o.tensor('float32', [2], new Float32Array([-1, 1]));
      const x = data('float32', 1 << 16, 9) as Float32Array;
      const want = bits((sync.relu(x) as { data: ArrayBufferView }).data);
      const calls = Array.from({ length: 30 }, () => o.relu(x).then((r) => bits(r.data), (e: OnnxOpsError) => e));
      await spy.made[0].terminate();
      const settled = await Promise.all(calls);
      const first = settled.findIndex((r) => r instanceof Error);
      expect(first).toBeGreaterThanOrEqual(0);
      settled.slice(0, first).forEach((r) => expect(r).toEqual(want));
      for (const e of settled.slice(first) as OnnxOpsError[]) {
        expect(e).toBeInstanceOf(OnnxOpsError);
        expect([e.code, e.op, e.message]).toEqual(['WORKER_DIED', 'Relu',
          'Relu: the worker died before the call completed: the worker exited (code 1); the next call starts a new worker [WORKER_DIED]']);
      }
      expect(bits((await o.relu(x)).data)).toEqual(want);
      expect(spy.made.length).toBe(2);
      for (const p of [o.relu(t), o.read(t), o.max([t, t])]) {
        const e = await rejection(p);
        expect([e.code, e.input]).toEqual(['DISPOSED', 0]);
        expect(e.message).toContain('the tensor\'s memory was lost with the worker that held it (the worker exited (code 1))');
      }
      t.dispose();
      expect((await o.memoryStats()).liveAllocations).toBe(0);
      await o.close();
      expect((await rejection(o.relu(x))).code).toBe('DISPOSED');
      expect(spy.made.length).toBe(2);
    } finally {
      spy.restore();
    }
  });

  test.each([
    ['process.exit(7)', 'the worker exited (code 7)'],
    ['throw new Error("boom")', 'the worker failed: boom'],
  ])('a worker that runs %s: the calls in flight reject WORKER_DIED saying so, and the next call runs on a new worker', async (death, why) => {
    // The library's worker, with a listener of its own before the library's: on a Max call, it dies.
    const wt = process.getBuiltinModule('node:worker_threads') as { Worker: typeof import('node:worker_threads').Worker };
    const Original = wt.Worker;
    let made = 0;
    wt.Worker = class extends Original {
      constructor(file: string | URL) {
        // (stopImmediatePropagation: the library's listener never sees the Max, which an uncaught error alone would not stop.
        // A call crosses as protocol.ts's flat list: [1, id, op, ...].)
        super(`require('node:worker_threads').parentPort.addEventListener('message', (e) => {
  if (Array.isArray(e.data) && e.data[0] === 1 && e.data[2] === 'Max') { e.stopImmediatePropagation(); ${death}; }
});
import(${JSON.stringify(String(file))});`, { eval: true });
        made++;
      }
    };
    // Over postMessage, where the listener above sees the call (the shared channel's ring it would not).
    const FORCE = Symbol.for('onnx-ops-wasm.channel');
    (globalThis as Record<symbol, unknown>)[FORCE] = 'message';
    try {
      const o = await createOps({ worker: true });
      const before = o.relu(new Float32Array([-1, 1]));
      const dies = o.max([new Float32Array(2)]);
      // Made after it: the dying worker may still answer it (an uncaught error ends the thread a moment later).
      const after = o.relu(new Float32Array([-3, 3])).then((r) => nums(r.data), (e: OnnxOpsError) => e);
      expect(nums((await before).data)).toEqual([0, 1]);
      const message = (op: string) => `${op}: the worker died before the call completed: ${why}; the next call starts a new worker [WORKER_DIED]`;
      const e = await rejection(dies);
      expect([e.code, e.op, e.message]).toEqual(['WORKER_DIED', 'Max', message('Max')]);
      const a = await after;
      if (a instanceof Error) expect([(a as OnnxOpsError).code, a.message]).toEqual(['WORKER_DIED', message('Relu')]);
      else expect(a).toEqual([0, 3]);
      expect(nums((await o.relu(new Float32Array([-2, 2]))).data)).toEqual([0, 2]);
      expect(made).toBe(2);
      await o.close();
    } finally {
      wt.Worker = Original;
      delete (globalThis as Record<symbol, unknown>)[FORCE];
    }
  });

  test('a worker that never answers: createOps() rejects UNSUPPORTED_ENGINE after its bound, and the Node process exits', async () => {
    const script = `const wt = process.getBuiltinModule('node:worker_threads');
const Original = wt.Worker;
wt.Worker = class extends Original { postMessage(m, t) { if (m.t !== 'init') super.postMessage(m, t); } };
globalThis[Symbol.for('onnx-ops-wasm.worker-bounds')] = { startMs: 500 };
const started = Date.now();
require(${JSON.stringify(DIST)}).createOps({ worker: true }).then(() => console.log('resolved'),
  (e) => console.log(JSON.stringify({ code: e.code, message: e.message, ms: Date.now() - started })));`;
    const { stdout } = await run(process.execPath, ['-e', script], { timeout: 20_000 });
    const e = JSON.parse(stdout);
    expect([e.code, e.message]).toEqual(['UNSUPPORTED_ENGINE',
      'createOps: could not start the worker from onnx-ops-wasm-worker.js: it did not answer within 0.5 s [UNSUPPORTED_ENGINE]']);
    expect(e.ms).toBeGreaterThanOrEqual(490);
  });

  test('a Node process exits by itself after its worker died, and after a restart', async () => {
    const script = `const wt = process.getBuiltinModule('node:worker_threads');
const Original = wt.Worker;
const made = [];
wt.Worker = class extends Original { constructor(...a) { super(...a); made.push(this); } };
require(${JSON.stringify(DIST)}).createOps({ worker: true }).then(async (ops) => {
  const p = ops.relu(new Float32Array(1 << 20));
  await made[0].terminate();
  const e = await p.then(() => 'resolved', (e) => e.code);
  const r = await ops.relu(new Float32Array([-1, 2]));
  const t = await ops.tensor('float32', [1]);
  console.log(e, Array.from(r.data).join(), made.length);
});`;
    const { stdout } = await run(process.execPath, ['-e', script], { timeout: 20_000 });
    expect(stdout.trim()).toMatch(/^(WORKER_DIED|resolved) 0,2 2$/);
  });

  test('3 failed starts in a row: the instance gives up, with no fourth start', async () => {
    const first = spyWorkers();
    const o = await createOps({ worker: true });
    first.restore();
    const spy = spyWorkers(true);
    (globalThis as Record<symbol, unknown>)[BOUNDS] = { startMs: 200 };
    try {
      await first.made[0].terminate();
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (let i = 0; i < 3; i++) {
        const e = await rejection(o.relu(new Float32Array(1)));
        expect([e.code, e.op]).toEqual(['WORKER_DIED', 'Relu']);
        expect(e.message).toContain('a new one could not be started: createOps: could not start the worker from onnx-ops-wasm-worker.js: it did not answer within 0.2 s');
      }
      const e = await rejection(o.max([new Float32Array(1)]));
      expect([e.code, e.op]).toEqual(['WORKER_DIED', 'Max']);
      expect(e.message).toMatch(/the worker failed to start 3 times in a row \(.*\): this instance gave up on it/);
      expect(spy.made.length).toBe(3);
      await o.close();
    } finally {
      delete (globalThis as Record<symbol, unknown>)[BOUNDS];
      spy.restore();
    }
  });

  test('{ signal }: before the call, while it waits, and while it runs; refused by the sync API', async () => {
    const ac = new AbortController();
    const reason = new Error('stop');
    ac.abort(reason);
    await expect(w.relu(new Float32Array(1), { signal: ac.signal })).rejects.toBe(reason);
    const t = await w.tensor('int32', [3], new Int32Array([4, 4, 4]));
    const long = w.max([new Float64Array(1 << 21), new Float64Array([1])]);
    const waits = new AbortController();
    const withdrawn = w.relu(new Int32Array([-1, 2, -3]), { out: t, signal: waits.signal });
    const after = w.relu(new Int32Array([-7, 7]));
    waits.abort(reason);
    await expect(withdrawn).rejects.toBe(reason);
    expect(nums((await after).data)).toEqual([0, 7]);
    expect(nums((await long).data).every((v) => v === 1)).toBe(true);
    expect(nums((await w.read(t)).data)).toEqual([4, 4, 4]);
    const runs = new AbortController();
    const running = w.relu(new Int32Array([-1, 2, -3]), { out: t, signal: runs.signal });
    runs.abort();
    expect(await running).toBe(t);
    expect(nums((await w.read(t)).data)).toEqual([0, 2, 0]);
    t.dispose();
    const e = await rejection(w.relu(new Float32Array(1), { signal: 'soon' } as never));
    expect([e.code, e.op, e.message]).toEqual(['INVALID_ARGUMENT', 'Relu', 'Relu: signal must be an AbortSignal [INVALID_ARGUMENT]']);
    const f = thrown(() => sync.relu(new Float32Array(1), { signal: new AbortController().signal } as never));
    expect([f.code, f.message]).toEqual(['INVALID_ARGUMENT', 'Relu: unknown option "signal" [INVALID_ARGUMENT]']);
  });

  test('10,000 queued calls resolve in order, each exact', async () => {
    const order: number[] = [];
    await Promise.all(Array.from({ length: 10_000 }, (_, i) => w.max([new Int32Array([i, -i]), new Int32Array([1])]).then((r) => {
      expect(nums(r.data)).toEqual([Math.max(i, 1), 1]);
      order.push(i);
    })));
    expect(order).toEqual([...Array(10_000).keys()]);
  });
});
