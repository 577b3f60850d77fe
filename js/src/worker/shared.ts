/**
 * The worker form's shared-memory channel: where SharedArrayBuffer and
 * Atomics.waitAsync exist (Node; a cross-origin-isolated page), requests and
 * replies travel through two rings in one SharedArrayBuffer instead of
 * postMessage, because waking a thread through its event loop costs several
 * times what Atomics.notify does. sharedLink() wraps the page's Link and
 * sharedPort() the worker's Port, so that queue.ts and host.ts do not care
 * which transport runs.
 *
 * Each direction is a single-producer, single-consumer byte ring of entries:
 * an entry holds a message as JSON with its typed arrays' bytes beside it (8-aligned,
 * so that the worker runs the op on views of the ring itself). A message too large
 * for the ring (INLINE) still goes by postMessage, its buffers moved, and a
 * POSTED marker holds its place in the ring's order.
 *
 * The worker blocks in Atomics.wait while requests keep coming; IDLE_MS after
 * the last one it parks (returns to its event loop, so that postMessage'd
 * messages and control messages reach it) and the page then wakes it with a
 * postMessage. The page never blocks: it awaits replies with Atomics.waitAsync,
 * and requests that find the ring full wait on the page in order.
 */
import type { Link, Reply, Request } from './protocol.js';

/** An end of the worker's port to the page (host.ts). */
export interface Port {
  post(reply: Reply, transfer: Transferable[]): void;
  listen(f: (request: Request) => void): void;
}

/** Atomics.waitAsync (ES2024), which TypeScript's ES2022 library lacks. */
type WaitAsync = (a: Int32Array, i: number, v: number, t?: number) => { async: boolean; value: Promise<string> | string };

// The header's Int32 words: each ring's head (bytes written) and tail (bytes read), free-running.
const REQ_HEAD = 0, REQ_TAIL = 1, REP_HEAD = 2, REP_TAIL = 3;
/** The worker's state: RUNNING (it reads the ring by itself) or PARKED (in its event loop: wake it by postMessage). */
const STATE = 4;
/** Bumped by the worker after each reply (and after it made room the page waits for): what the page awaits. */
const SIGNAL = 5;
/** Set by the page while requests wait on it for room in the ring. */
const WANT_ROOM = 6;
/**
 * Set by the worker while it sleeps in Atomics.wait: only then does the page pay for Atomics.notify
 * (a futex wake, 15-35 µs here). The worker sleeps at once rather than polling: on 2 busy cores a
 * polling worker took the page's core and doubled the round trip.
 */
const SLEEPING = 7;
const RUNNING = 0, PARKED = 1;
const HEADER = 64;
/** Bytes per ring: a power of two. */
const RING = 1 << 18;
/** The largest entry that goes through a ring; larger messages are posted. */
const INLINE = 1 << 16;
/** Entry lengths that are markers: the ring goes on at its start; the message came by postMessage. */
const WRAP = -1, POSTED = -2;
/** How long the worker keeps waiting for requests before it parks, and at most runs before it lets its event loop in. */
const IDLE_MS = 100, SLICE_MS = 50;

/** The flag on an entry's JSON length when its JSON is ASCII, written and read byte by byte up to ASCII_MAX characters. */
const ASCII = 1 << 30, ASCII_MAX = 4096;
/** The key that marks a typed array's place in an entry's JSON. */
const VIEW = '\u0000v';

/** The override that tests and the benchmark use to measure postMessage where shared memory exists. */
const FORCE = Symbol.for('onnx-ops-wasm.channel');

/** A message wrapped for postMessage when it did not fit in a ring; its place in the ring is a POSTED marker. */
interface Posted { t: 'posted'; m: Request | Reply }

/** A message as a ring entry: its JSON and its typed arrays, laid out at `bytes` (8-aligned, the JSON's worst case included). */
interface Entry { json: string; views: ArrayBufferView[]; bytes: number }
const MARKER: Entry = { json: '', views: [], bytes: 8 };

const align = (n: number) => (n + 7) & ~7;

type ArrayClass = new (b: ArrayBufferLike, o: number, n: number) => { slice(): unknown };
let arrays: { names: Map<unknown, string>; classes: Map<string, ArrayClass> } | undefined;
/** This realm's typed-array classes by name and back (a Map: looking names up on a worker's global costs microseconds). */
function ARRAYS(): NonNullable<typeof arrays> {
  if (!arrays) {
    arrays = { names: new Map(), classes: new Map() };
    for (const name of ['Float32Array', 'Float64Array', 'Float16Array', 'Int8Array', 'Int16Array', 'Int32Array', 'BigInt64Array',
      'Uint8Array', 'Uint8ClampedArray', 'Uint16Array', 'Uint32Array', 'BigUint64Array']) {
      const C = (globalThis as Record<string, unknown>)[name] as ArrayClass | undefined;
      if (typeof C !== 'function') continue;
      arrays.names.set(C, name);
      arrays.classes.set(name, C);
    }
  }
  return arrays;
}
// Made on first use: hosts without them (QuickJS, a bare vm context) load this file to be refused the worker form.
let encoder: TextEncoder | undefined;
let decoder: TextDecoder | undefined;
let scratch = new Uint8Array(256);

/** `m` as an entry, or undefined if it must be posted (too large, or an array this realm could not rebuild). */
function encode(m: object): Entry | undefined {
  const views: ArrayBufferView[] = [];
  let at = 8;
  const strip = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (ArrayBuffer.isView(v)) {
      const name = ARRAYS().names.get(v.constructor);
      if (name === undefined) throw views; // a class of another realm, or a DataView
      views.push(v);
      const o = [name, at, (v as unknown as { length: number }).length];
      at = align(at + v.byteLength);
      return { [VIEW]: o };
    }
    if (Array.isArray(v)) return v.map(strip);
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(v)) o[k] = strip((v as Record<string, unknown>)[k]);
    return o;
  };
  let json: string;
  try {
    json = JSON.stringify(strip(m));
  } catch (e) {
    if (e === views) return undefined;
    throw e;
  }
  const bytes = align(at + json.length * 3);
  return bytes > INLINE ? undefined : { json, views, bytes };
}

/** One direction: the producer's and the consumer's view of a ring. */
class Ring {
  readonly u8: Uint8Array;
  readonly words: Int32Array;
  /** The consumer's read position (the shared TAIL word is stored after an entry is done with). */
  tail = 0;

  constructor(readonly sab: SharedArrayBuffer, readonly i32: Int32Array, readonly head: number, offset: number) {
    this.u8 = new Uint8Array(sab, offset, RING);
    this.words = new Int32Array(sab, offset, RING / 4);
  }

  /** Writes the entry (or a POSTED marker) if it fits now, and publishes it. */
  write(e: Entry): boolean {
    const i32 = this.i32, words = this.words;
    let head = Atomics.load(i32, this.head);
    const free = RING - ((head - Atomics.load(i32, this.head + 1)) | 0);
    let pos = head & (RING - 1);
    const room = RING - pos;
    if (e.bytes > room) {
      if (free < room + e.bytes) return false;
      words[pos >> 2] = WRAP;
      head = (head + room) | 0;
      pos = 0;
    } else if (free < e.bytes) {
      return false;
    }
    let len = 8;
    if (e === MARKER) {
      words[pos >> 2] = POSTED;
    } else {
      let at = pos + 8;
      for (const v of e.views) {
        // As its own class, not through v.buffer: a small array lives on V8's heap, and asking for its buffer allocates one.
        const C = v.constructor as new (b: ArrayBufferLike, o: number, n: number) => { set(a: ArrayBufferView): void };
        const n = (v as unknown as { length: number }).length;
        new C(this.sab, this.u8.byteOffset + at, n).set(v);
        at = align(at + v.byteLength);
      }
      // ASCII JSON (nearly all) byte by byte: TextEncoder and TextDecoder cost microseconds a call in
      // browsers (bindings), more than the rest of the entry.
      const json = e.json, n = json.length, u8 = this.u8;
      let written = n, ascii = n <= ASCII_MAX;
      for (let i = 0; ascii && i < n; i++) {
        const c = json.charCodeAt(i);
        if (c > 127) ascii = false;
        else u8[at + i] = c;
      }
      if (!ascii) {
        // Through a plain buffer: Chromium's encodeInto refuses a shared one (and TextDecoder too, in read()).
        if (scratch.length < n * 3) scratch = new Uint8Array(n * 6);
        written = (encoder ??= new TextEncoder()).encodeInto(json, scratch).written;
        u8.set(scratch.subarray(0, written), at);
      }
      len = align(at - pos + written);
      words[pos >> 2] = len;
      words[(pos >> 2) + 1] = ascii ? written | ASCII : written;
    }
    Atomics.store(i32, this.head, (head + len) | 0);
    return true;
  }

  /** The next entry's length word (POSTED for a marker), or 0 if there is none. */
  peek(): number {
    if (this.tail === Atomics.load(this.i32, this.head)) return 0;
    const len = this.words[(this.tail & (RING - 1)) >> 2];
    return len === WRAP ? this.words[0] : len;
  }

  /**
   * The next entry's message (`copy`: its arrays copied out of the ring, else
   * views of it), POSTED for a marker, or undefined if none; done() after use.
   */
  read(copy: boolean): object | typeof POSTED | undefined {
    let pos = this.tail & (RING - 1);
    if (this.tail === Atomics.load(this.i32, this.head)) return undefined;
    let len = this.words[pos >> 2];
    if (len === WRAP) {
      this.tail = (this.tail + RING - pos) | 0;
      pos = 0;
      len = this.words[0];
    }
    if (len === POSTED) return POSTED;
    const word = this.words[(pos >> 2) + 1], n = word & ~ASCII;
    const at = pos + len - align(n);
    let text: string;
    if (word & ASCII) {
      text = String.fromCharCode.apply(null, this.u8.subarray(at, at + n) as unknown as number[]);
    } else {
      if (scratch.length < n) scratch = new Uint8Array(n * 2);
      scratch.set(this.u8.subarray(at, at + n));
      text = (decoder ??= new TextDecoder()).decode(scratch.subarray(0, n));
    }
    const sab = this.sab, offset = this.u8.byteOffset + pos;
    const revive = (v: unknown): unknown => {
      if (v === null || typeof v !== 'object') return v;
      if (Array.isArray(v)) return v.map(revive);
      const o = v as Record<string, unknown>;
      const view = o[VIEW] as [string, number, number] | undefined;
      if (view) {
        const C = ARRAYS().classes.get(view[0])!;
        const shared = new C(sab, offset + view[1], view[2]);
        return copy ? shared.slice() : shared;
      }
      for (const k of Object.keys(o)) o[k] = revive(o[k]);
      return o;
    };
    return revive(JSON.parse(text)) as object;
  }

  /** Frees the entry read last (its views of the ring are no longer used). */
  done(): void {
    let pos = this.tail & (RING - 1);
    let len = this.words[pos >> 2];
    if (len === WRAP) {
      this.tail = (this.tail + RING - pos) | 0;
      pos = 0;
      len = this.words[0];
    }
    this.tail = (this.tail + (len === POSTED ? 8 : len)) | 0;
    // No notify: a worker waiting for room polls (notify takes V8's one futex lock, which both threads contend for).
    Atomics.store(this.i32, this.head + 1, this.tail);
  }
}

function rings(sab: SharedArrayBuffer): { i32: Int32Array; requests: Ring; replies: Ring } {
  const i32 = new Int32Array(sab, 0, HEADER / 4);
  return { i32, requests: new Ring(sab, i32, REQ_HEAD, HEADER), replies: new Ring(sab, i32, REP_HEAD, HEADER + RING) };
}

/** Whether this thread can be the page's end: SharedArrayBuffer that a worker may share, and Atomics.waitAsync. */
function available(): boolean {
  const g = globalThis as { crossOriginIsolated?: boolean; [FORCE]?: string };
  return g[FORCE] !== 'message' && typeof SharedArrayBuffer === 'function' && typeof (Atomics as { waitAsync?: unknown }).waitAsync === 'function' &&
    g.crossOriginIsolated !== false;
}

/**
 * The page's end: `base` with requests and replies through the shared rings
 * (init goes by `base`, carrying the SharedArrayBuffer), or `base` itself
 * where shared memory or Atomics.waitAsync is missing.
 */
export function sharedLink(base: Link): Link {
  if (!available()) return base;
  const sab = new SharedArrayBuffer(HEADER + 2 * RING);
  new Int32Array(sab).fill(0); // touched now, not page by page during the first calls (fresh pages cost here)
  const { i32, requests, replies } = rings(sab);
  i32[STATE] = PARKED;
  const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;
  let onReply: (r: Reply) => void = () => {};
  let onFailure: ((why: string) => void) | undefined;
  /** Replies wanted and replies had. */
  let wanted = 0, had = 0;
  /** Requests waiting for room in the ring, in order. */
  const waiting: Entry[] = [];
  /** Replies posted (too large for the ring), in order, until the ring reaches their markers. */
  const posted: Reply[] = [];
  let awaiting = false, ended = false, turn = false;

  /**
   * Wakes the worker for the requests just written: a notify if it sleeps in Atomics.wait (the page's
   * last step: the woken worker may take this thread's core), a message if it parked.
   */
  const wake = () => {
    if (Atomics.load(i32, SLEEPING)) Atomics.notify(i32, REQ_HEAD);
    if (Atomics.load(i32, STATE) === PARKED && Atomics.compareExchange(i32, STATE, PARKED, RUNNING) === PARKED) {
      base.post({ t: 'wake' } as unknown as Request, []);
    }
  };
  /** Reads the next reply, if it is here. */
  const deliver = () => {
    let m = replies.read(true);
    if (m === POSTED) m = posted.shift(); // none yet: it is on its way, and base's listener pumps when it comes
    if (m === undefined) return;
    replies.done();
    had++;
    onReply(m as Reply);
  };
  /** Whether a reply can be read now. */
  const ready = () => {
    const next = replies.peek();
    return next !== 0 && (next !== POSTED || posted.length > 0);
  };
  /** Sends the requests that waited for room, as far as they fit. */
  const flush = () => {
    let sent = false;
    while (waiting.length && requests.write(waiting[0])) {
      waiting.shift();
      sent = true;
    }
    Atomics.store(i32, WANT_ROOM, waiting.length ? 1 : 0);
    if (sent) wake();
  };
  /**
   * Reads a reply (`read`: in a task of its own, never inside a call), sends what
   * waited for room, and awaits the worker's next signal while replies or room
   * are wanted. One reply a task, as postMessage delivers them: the promise
   * reactions of one (a result's own then) run before the next settles, so that
   * calls settle in the order they were made.
   */
  const pump = (read: boolean) => {
    for (;;) {
      if (ended) return;
      if (waiting.length) Atomics.store(i32, WANT_ROOM, 1);
      const seen = Atomics.load(i32, SIGNAL);
      if (read) deliver();
      read = false;
      flush();
      if (turn) return;
      // A reply already here is read in a task of its own even while a wait is out: a posted reply read just now
      // may have replies behind it that the worker signalled before that wait began, and it will not signal again.
      if (ready()) {
        turn = true;
        nextTask(() => {
          turn = false;
          pump(true);
        });
        return;
      }
      if (awaiting || (had === wanted && !waiting.length)) return;
      const w = waitAsync(i32, SIGNAL, seen);
      if (!w.async) continue;
      awaiting = true;
      (w.value as Promise<string>).then(() => {
        awaiting = false;
        pump(true);
      });
      return;
    }
  };

  return {
    watch: base.watch, // the worker's life is watched as on base (a Web Lock): the ring carries no heartbeat
    post(m, transfer) {
      if (m.t === 'init') {
        base.post({ ...m, channel: sab } as Request, transfer);
        return;
      }
      let e = encode(m);
      if (!e) {
        base.post({ t: 'posted', m } as unknown as Request, transfer); // throws as postMessage does, before anything is counted
        e = MARKER;
      }
      if (m.t !== 'free') wanted++;
      const sent = !waiting.length && requests.write(e);
      if (!sent) waiting.push(e);
      pump(false);
      if (sent) wake();
    },
    // Called again by each user (start-up, then the queue): base's listeners are added once, the callbacks replaced.
    listen(message, failure) {
      const first = !onFailure;
      onReply = message;
      onFailure = failure;
      if (!first) return;
      base.listen((r) => {
        if ((r as unknown as Posted).t !== 'posted') return onReply(r);
        posted.push((r as unknown as Posted).m as Reply);
        pump(true);
      }, (why) => {
        ended = true;
        onFailure!(why);
      });
    },
    terminate() {
      ended = true;
      return base.terminate();
    },
    hold: (on) => base.hold(on),
  };
}

/**
 * The worker's end: `base` until an init carrying a channel, then requests
 * read from the shared ring (and from `base` for posted ones) and replies
 * written to it.
 */
export function sharedPort(base: Port): Port {
  let ch: ReturnType<typeof rings> | undefined;
  let handle: (m: Request) => void = () => {};
  const posted: Request[] = [];
  let yielded: MessageChannel | undefined;

  /** Runs the requests in the ring as they come, until IDLE_MS without one (then parks) or SLICE_MS (then yields). */
  const run = () => {
    const { i32, requests } = ch!;
    Atomics.store(i32, STATE, RUNNING);
    const start = performance.now();
    let last = start;
    for (;;) {
      const m = requests.read(false);
      if (m !== undefined) {
        let request = m as Request;
        if (m === POSTED) {
          if (!posted.length) return; // base's listener runs again when it comes
          request = posted.shift()!;
        }
        handle(request);
        requests.done();
        if (Atomics.load(i32, WANT_ROOM)) signal(i32);
        last = performance.now();
        if (last - start > SLICE_MS) return later();
        continue;
      }
      const now = performance.now();
      if (now - last >= IDLE_MS) {
        Atomics.store(i32, STATE, PARKED);
        // A request written before the page saw PARKED is read now; one after it comes with a wake message.
        if (requests.tail !== Atomics.load(i32, REQ_HEAD) && Atomics.compareExchange(i32, STATE, PARKED, RUNNING) === PARKED) continue;
        return;
      }
      if (now - start > SLICE_MS) return later();
      // Atomics.wait compares the head after SLEEPING is set: a request the page wrote before it saw SLEEPING is not missed.
      Atomics.store(i32, SLEEPING, 1);
      Atomics.wait(i32, REQ_HEAD, requests.tail, IDLE_MS - (now - last));
      Atomics.store(i32, SLEEPING, 0);
    }
  };
  /** Lets the event loop run (postMessage'd messages), then runs on. */
  const later = () => {
    if (!yielded) {
      yielded = new MessageChannel();
      yielded.port1.onmessage = run;
    }
    yielded.port2.postMessage(0);
  };

  return {
    listen(f) {
      handle = f;
      base.listen((m) => {
        const t = (m as { t: string }).t;
        // No SharedArrayBuffer at all on a page that is not cross-origin isolated: no channel either.
        const channel = t === 'init' ? (m as { channel?: SharedArrayBuffer }).channel : undefined;
        if (channel && typeof SharedArrayBuffer === 'function' && channel instanceof SharedArrayBuffer) ch = rings(channel);
        if (t === 'wake') return run();
        if (t === 'posted') {
          posted.push((m as unknown as Posted).m as Request);
          return run();
        }
        f(m);
      });
    },
    post(reply, transfer) {
      // A heartbeat goes by postMessage: it tells the page's link (not the queue) that this worker lives.
      if (!ch || reply.t === 'ready' || reply.t === 'failed' || reply.t === 'beat') {
        base.post(reply, transfer);
        if (ch && reply.t === 'ready') run();
        return;
      }
      const { i32, replies } = ch;
      let e = encode(reply);
      if (!e) {
        base.post({ t: 'posted', m: reply } as unknown as Reply, transfer);
        e = MARKER;
      }
      // The worker may block: the page reads replies whenever it is signalled (and a full ring is rare: it polls).
      while (!replies.write(e)) Atomics.wait(i32, REP_TAIL, Atomics.load(i32, REP_TAIL), 1);
      signal(i32);
    },
  };
}

/** Runs `f` in a task of its own: setImmediate where there is one (Node, Bun), else a MessageChannel's message. */
let nextTask = (f: () => void): void => {
  const g = globalThis as { setImmediate?: (f: () => void) => void };
  if (typeof g.setImmediate === 'function') {
    nextTask = g.setImmediate;
  } else {
    const queue: (() => void)[] = [];
    const ch = new MessageChannel();
    ch.port1.onmessage = () => queue.shift()!();
    nextTask = (f) => {
      queue.push(f);
      ch.port2.postMessage(0);
    };
  }
  nextTask(f);
};

function signal(i32: Int32Array): void {
  Atomics.add(i32, SIGNAL, 1);
  Atomics.notify(i32, SIGNAL);
}
