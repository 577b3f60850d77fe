// The worker form's shared-memory channel (js/src/worker/shared.ts) in Node,
// from the CommonJS build, beside the postMessage channel it falls back to
// (forced here by the override the benchmark uses): which one runs, exact
// results over both, order across the ring and posted (large) messages, a
// ring that fills, a worker that parked, tensors and their frees, and a
// worker that dies while the page awaits the ring. No timing. ~10 s here.
import { Worker } from 'node:worker_threads';
import { DTYPES, OnnxOpsError, type Ops, type WorkerOps, createOps } from 'onnx-ops-wasm';

const FORCE = Symbol.for('onnx-ops-wasm.channel');
const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
/** Whether two arrays hold the same bytes (NaN payloads included). */
const same = (a: ArrayBufferView, b: ArrayBufferView) => bytes(a).equals(bytes(b));
/** A float32 result's elements as numbers. */
const nums = (a: ArrayBufferView) => Array.from(a as Float32Array);
type Posted = { worker: Worker; message: { t?: string; channel?: unknown } };

/** Records what the page posts to its workers (worker_threads is one module object for the library and the test). */
function recordPosts(): { posted: Posted[]; restore: () => void } {
  const posted: Posted[] = [];
  const original = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (this: Worker, message: Posted['message'], transfer?: readonly never[]) {
    posted.push({ worker: this, message });
    return original.call(this, message, transfer);
  };
  return { posted, restore: () => { Worker.prototype.postMessage = original; } };
}

/** createOps({ worker: true }) over `channel`, and the page's posts to its worker. */
async function start(channel: 'shared' | 'message'): Promise<{ ops: WorkerOps; posted: Posted[]; restore: () => void }> {
  const record = recordPosts();
  if (channel === 'message') (globalThis as Record<symbol, unknown>)[FORCE] = 'message';
  try {
    return { ops: await createOps({ worker: true }), ...record };
  } catch (e) {
    record.restore();
    throw e;
  } finally {
    delete (globalThis as Record<symbol, unknown>)[FORCE];
  }
}

function data(dtype: string, n: number, seed: number): ArrayBufferView {
  const bytes = new Uint8Array(n * ({ float64: 8, int64: 8, uint64: 8, float32: 4, int32: 4, uint32: 4, float16: 2, bfloat16: 2, int16: 2, uint16: 2 } as Record<string, number>)[dtype]! || n);
  let s = seed;
  for (let i = 0; i < bytes.length; i++) bytes[i] = (s = (s * 1103515245 + 12345) >>> 0) >>> 24; // NaNs of all payloads included
  const C = { float32: Float32Array, float64: Float64Array, int8: Int8Array, int16: Int16Array, int32: Int32Array, uint8: Uint8Array, uint16: Uint16Array,
    uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array, float16: Uint16Array, bfloat16: Uint16Array } as Record<string, new (b: ArrayBuffer) => ArrayBufferView>;
  return new C[dtype]!(bytes.buffer);
}

let sync: Ops;
beforeAll(async () => {
  sync = await createOps();
});

test('Node uses the shared channel: the init carries a SharedArrayBuffer and calls post nothing', async () => {
  const { ops, posted, restore } = await start('shared');
  try {
    const init = posted.find((p) => p.message.t === 'init')!;
    expect(init.message.channel).toBeInstanceOf(SharedArrayBuffer);
    const before = posted.length;
    for (let i = 0; i < 50; i++) expect(nums((await ops.relu(new Float32Array([i - 25, 1]))).data)).toEqual([Math.max(i - 25, 0), 1]);
    // At most a wake for a worker that parked between two calls (the machine may stall 100 ms).
    expect(posted.length - before).toBeLessThanOrEqual(2);
    // The override measures postMessage where shared memory exists.
    const forced = await start('message');
    try {
      expect(forced.posted.find((p) => p.message.t === 'init')!.message.channel).toBeUndefined();
      await forced.ops.relu(new Float32Array([1]));
      // A call crosses in its flat form (js/src/worker/protocol.ts's toFlat): a list whose first item is 1.
      expect(forced.posted.some((p) => Array.isArray(p.message) && p.message[0] === 1)).toBe(true);
    } finally {
      forced.restore();
      await forced.ops.close();
    }
  } finally {
    restore();
    await ops.close();
  }
});

describe.each(['shared', 'message'] as const)('over the %s channel', (channel) => {
  let ops: WorkerOps;
  beforeAll(async () => {
    const s = await start(channel);
    s.restore();
    ops = s.ops;
  });
  afterAll(() => ops.close());

  test.each([...DTYPES])('%s: Max-2 and Relu bit for bit the sync results, small (ring) and large (posted)', async (dtype) => {
    for (const n of [7, 40000]) {
      const a = { dtype, shape: [n], data: data(dtype, n, 1) };
      const b = { dtype, shape: [n], data: data(dtype, n, 2) };
      const got = await ops.max([a, b]);
      const want = sync.max([a, b]) as { shape: number[]; data: ArrayBufferView };
      expect(got.shape).toEqual(want.shape);
      expect(got.data.constructor.name).toBe(want.data.constructor.name);
      expect(same(got.data, want.data)).toBe(true);
      if (sync.supportedDtypes('Relu').includes(dtype)) expect(same((await ops.relu(a)).data, (sync.relu(a) as { data: ArrayBufferView }).data)).toBe(true);
    }
  });

  test('10,000 calls in flight (more than the ring holds) settle in order, each with its own result', async () => {
    const order: number[] = [];
    const calls = Array.from({ length: 10000 }, (_, i) => ops.relu(new Float32Array([i - 5000, -1, i])).then((r) => {
      order.push(i);
      expect(nums(r.data)).toEqual([Math.max(i - 5000, 0), 0, i]);
    }));
    await Promise.all(calls);
    expect(order).toEqual([...Array(10000).keys()]);
  });

  test('large messages (posted, moved) and small ones (ring) interleaved keep their order; errors too', async () => {
    const order: number[] = [];
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < 60; i++) {
      const n = i % 4 === 0 ? 300000 : 3;
      const x = new Float32Array(n).fill(i - 30);
      const p = i % 7 === 3 ? ops.max([new Float32Array(2), new Float32Array(3)]) // a page-side error, rejected in its turn
        : i % 4 === 0 && i % 8 === 0 ? ops.relu(x, { transfer: true }) : ops.relu(x);
      if (i % 8 === 0 && i % 7 !== 3) expect(x.length).toBe(0); // moved
      calls.push(p.then((r) => {
        order.push(i);
        expect((r as { data: Float32Array }).data[n - 1]).toBe(Math.max(i - 30, 0));
      }, (e: OnnxOpsError) => {
        order.push(i);
        expect([i % 7, e.code]).toEqual([3, 'BROADCAST_MISMATCH']);
      }));
    }
    await Promise.all(calls);
    expect(order).toEqual([...Array(60).keys()]);
  });

  test('a worker left idle (parked) answers the next call; tensors, read(), out and frees', async () => {
    await new Promise((r) => setTimeout(r, 250));
    const t = await ops.tensor('float32', [4], new Float32Array([-1, 2, -3, 4]));
    await new Promise((r) => setTimeout(r, 250));
    const out = await ops.tensor('float32', [4]);
    expect(await ops.relu(t, { out })).toBe(out);
    expect(nums((await ops.read(out)).data)).toEqual([0, 2, 0, 4]);
    const before = await ops.memoryStats();
    const many = await Promise.all(Array.from({ length: 200 }, (_, i) => ops.tensor('float32', [16], new Float32Array(16).fill(i))));
    expect(nums((await ops.read(many[199])).data)).toEqual(Array(16).fill(199));
    for (const m of many) m.dispose(); // frees: no answer, through the ring in turn
    expect((await ops.memoryStats()).liveAllocations).toBe(before.liveAllocations);
    t.dispose();
    out.dispose();
  });
});

test('a worker that dies while the page awaits the shared ring rejects the calls in flight', async () => {
  const { ops, posted, restore } = await start('shared');
  restore();
  const worker = posted[0].worker;
  // Small enough for the ring (32 KB each), too many to be done when the first is.
  const calls = Array.from({ length: 2000 }, (_, i) => ops.max([new Float64Array(4000).fill(i), new Float64Array([1])]).then(() => 'done', (e: OnnxOpsError) => e));
  expect(await calls[0]).toBe('done');
  await worker.terminate();
  const settled = await Promise.all(calls);
  const failed = settled.filter((s) => s !== 'done') as OnnxOpsError[];
  expect(failed.length).toBeGreaterThan(0);
  for (const e of failed) expect([e instanceof OnnxOpsError, e.code]).toEqual([true, 'WORKER_DIED']);
  // Settled in order: no call after a failed one succeeded.
  expect(settled.indexOf('done', settled.findIndex((s) => s !== 'done'))).toBe(-1);
  await ops.close();
});
