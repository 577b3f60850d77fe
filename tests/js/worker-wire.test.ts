// The worker form's messages on the wire (js/src/worker/protocol.ts's flat form,
// js/src/worker/shared.ts's ring entries), from the sources: every kind of
// request and reply comes back as it went, typed arrays bit for bit, through
// the flat list alone (what postMessage clones) and through a ring written by
// one end and read by the other, round and round past its end. No worker.
import { type Reply, type Request, fromFlat, toFlat, CLONE_MAX, moveIfLarge } from '../../js/src/worker/protocol';
import { HEADER, RING, encode, rings } from '../../js/src/worker/shared';

/** Float32 data whose NaNs carry payloads and signs: a copy that went through a number would lose them. */
function payloads(): Float32Array {
  const u = new Uint32Array([0x7fc00001, 0xffc00002, 0x7f800001, 0x80000000, 0, 0x3f800000, 0xff800000, 0x7f7fffff]);
  return new Float32Array(u.buffer);
}

const MESSAGES: (Request | Reply)[] = [
  { t: 'call', id: 1, op: 'Relu', opset: undefined, inputs: [{ dtype: 'float32', shape: [2, 4], data: payloads() }], out: 0, result: 0 },
  { t: 'call', id: 2, op: 'Max', opset: 13, inputs: [7, { dtype: 'int64', shape: [], data: new BigInt64Array([-(2n ** 63n)]) }, 9], out: 3, result: 0 },
  { t: 'call', id: 3, op: 'Max', opset: 8, inputs: [{ dtype: 'float64', shape: [3, 1], data: new Float64Array([-0, NaN, 1e300]) }], out: 0, result: 12 },
  { t: 'tensor', id: 4, h: 5, dtype: 'float16', shape: [0], data: new Uint16Array(0) },
  { t: 'tensor', id: 5, h: 6, dtype: 'uint8', shape: [2147483647, 0], data: undefined },
  { t: 'read', id: 6, h: 5 },
  // Numbers beyond int32 (an item of its own kind in a ring).
  { t: 'read', id: 2 ** 40, h: -1.5 },
  { t: 'stats', id: 7 },
  { t: 'trim', id: 8 },
  { t: 'free', h: 5 },
  { t: 'done', id: 1, value: undefined },
  { t: 'done', id: 2, value: { dtype: 'bfloat16', shape: [1, 3], data: new Uint16Array([0x7fc1, 0xff80, 0x8000]) } },
  { t: 'done', id: 3, value: { heapInUse: 1.5, liveAllocations: 2, liveBytes: 2 ** 40, memoryBytes: 65536 } },
  { t: 'error', id: 4, error: { code: 'OUT_OF_MEMORY', op: 'Max', input: 'out', name: 'OnnxOpsError', message: 'Max: naïve × µ — \u{1F600} '.repeat(40) } },
  { t: 'error', id: 5, error: { code: undefined, op: 'read', input: undefined, name: 'RangeError', message: '' } },
];

/** A comparable form of a message: typed arrays as their class and bytes, undefined fields dropped as JSON drops them. */
function plain(m: unknown): unknown {
  return JSON.parse(JSON.stringify(m, (_k, v: unknown) => {
    if (ArrayBuffer.isView(v)) return { class: v.constructor.name, bytes: Array.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)) };
    if (typeof v === 'bigint') return `${v}n`;
    if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
    if (Object.is(v, -0)) return '-0';
    return v;
  }));
}

test.each(MESSAGES.map((m) => [m.t, m] as const))('%s: toFlat then fromFlat gives the message back', (_t, m) => {
  const flat = toFlat(m);
  expect(Array.isArray(flat)).toBe(true);
  // What postMessage carries: only numbers, strings, undefined and typed arrays, no nested object.
  for (const v of flat as unknown[]) expect(v === undefined || ['number', 'string'].includes(typeof v) || ArrayBuffer.isView(v)).toBe(true);
  expect(plain(fromFlat(structuredClone(flat)))).toEqual(plain(m));
});

test('init, ready, failed and beat cross as the objects they are', () => {
  const objects: (Request | Reply)[] = [{ t: 'init', options: {}, lock: 'x' }, { t: 'ready', backend: 'wasm', locked: false }, { t: 'beat' },
    { t: 'failed', error: { code: 'UNSUPPORTED_ENGINE', op: 'createOps', input: undefined, name: 'OnnxOpsError', message: 'no' } }];
  for (const m of objects) {
    expect(toFlat(m)).toBe(m);
    expect(fromFlat(m)).toBe(m);
  }
  expect(() => fromFlat([99])).toThrow(/unknown kind 99/);
});

test('arrays up to CLONE_MAX bytes are copied, larger ones moved', () => {
  expect(moveIfLarge(new Uint8Array(CLONE_MAX))).toEqual([]);
  const large = new Uint8Array(CLONE_MAX + 1);
  expect(moveIfLarge(large)).toEqual([large.buffer]);
  expect(moveIfLarge(undefined)).toEqual([]);
});

test('a ring: what one end writes the other reads, in order and bit for bit, many times past its end', () => {
  const sab = new SharedArrayBuffer(HEADER + 2 * RING);
  const producer = rings(sab).requests, consumer = rings(sab).requests;
  let written = 0, read = 0;
  const readOne = (copy: boolean) => {
    const got = consumer.read(copy);
    expect(got).not.toBeUndefined();
    expect(plain(got)).toEqual(plain(MESSAGES[read++ % MESSAGES.length]));
    if (!copy) expect(ArrayBuffer.isView((got as { value?: { data?: unknown } }).value?.data ?? new Uint8Array(0))).toBe(true);
    consumer.done();
  };
  for (let round = 0; round < 400; round++) {
    for (const m of MESSAGES) {
      const e = encode(m)!;
      expect(e).toBeDefined();
      // A full ring refuses the entry until the consumer frees room.
      const head = producer.i32[producer.head];
      while (!producer.write(e)) readOne(round % 2 === 0);
      written++;
      // An entry takes no more than encode() reserved for it (past a wrap, the skipped end of the ring aside).
      const used = (producer.i32[producer.head] - head) | 0;
      if (used <= RING - (head & (RING - 1))) expect(used).toBeLessThanOrEqual(e.bytes);
    }
  }
  while (read < written) readOne(false);
  expect(consumer.read(true)).toBeUndefined();
  // Short strings (op and dtype names) went out once and then as numbers; long ones each time.
  expect(producer.sent.has('Relu') && producer.sent.has('float32')).toBe(true);
  expect([...producer.sent.keys()].every((k) => k.length <= 24)).toBe(true);
  expect(consumer.seen).toEqual([...producer.sent.keys()]);
});

test('messages a ring does not carry: larger than an entry may be, or holding an array it could not rebuild', () => {
  const big: Request = { t: 'call', id: 1, op: 'Relu', opset: undefined, inputs: [{ dtype: 'float32', shape: [1 << 15], data: new Float32Array(1 << 15) }], out: 0, result: 0 };
  expect(encode(big)).toBeUndefined();
  const view: Request = { t: 'tensor', id: 1, h: 1, dtype: 'uint8', shape: [4], data: new DataView(new ArrayBuffer(4)) as never };
  expect(encode(view)).toBeUndefined();
  expect(encode({ t: 'init', options: {} })).toBeUndefined();
});
