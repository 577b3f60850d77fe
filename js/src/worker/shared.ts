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
 * an entry holds a message's flat form (protocol.ts) item by item, its typed
 * arrays' bytes 8-aligned, so that the worker runs the op on views of the ring
 * itself. A message too large for the ring (INLINE) still goes by postMessage,
 * its buffers moved, and a POSTED marker holds its place in the ring's order.
 *
 * The worker blocks in Atomics.wait while requests keep coming; IDLE_MS after
 * the last one it parks (returns to its event loop, so that postMessage'd
 * messages and control messages reach it) and the page then wakes it with a
 * postMessage. The page never blocks: it awaits replies with Atomics.waitAsync,
 * and requests that find the ring full wait on the page in order.
 */
import { type Flat, type Link, type Reply, type Request, fromFlat, toFlat } from './protocol.js';

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
/** Set by the worker while it sleeps in Atomics.wait: only then does the page pay for Atomics.notify (a futex wake). */
const SLEEPING = 7;
const RUNNING = 0, PARKED = 1;
export const HEADER = 64;
/** Bytes per ring: a power of two. */
export const RING = 1 << 18;
/** The largest entry that goes through a ring; larger messages are posted. */
const INLINE = 1 << 16;
/** Entry lengths that are markers: the ring goes on at its start; the message came by postMessage. */
const WRAP = -1, POSTED = -2;
/** How long the worker keeps waiting for requests before it parks, and at most runs before it lets its event loop in. */
const IDLE_MS = 100, SLICE_MS = 50;
/**
 * How long the worker polls the ring after a request before it sleeps: a caller that awaits its calls one
 * after another sends the next within it, and a sleeping worker costs a wake-up each way that is most of a
 * round trip. A poll in vain means the page was slow to answer (a collection, or busy cores, where polling
 * takes the page's core): after n in a row the next 2^n - 1 sleeps (at most 2^MAX_MISSES - 1) follow at once.
 */
const SPIN_MS = 0.04, MAX_MISSES = 6;

/** The override that tests and the benchmark use to measure postMessage where shared memory exists. */
const FORCE = Symbol.for('onnx-ops-wasm.channel');

/** A message wrapped for postMessage when it did not fit in a ring; its place in the ring is a POSTED marker. */
interface Posted { t: 'posted'; m: Request | Reply }

/** A message as a ring entry: its flat form (protocol.ts), at most `bytes` long once written (8-aligned). */
interface Entry { items: Flat; bytes: number }
const MARKER: Entry = { items: [], bytes: 8 };

// An item's first word, its kind: an int32; a float64 (8-aligned); undefined; a string by its number in the
// ring's table; a string written out (and numbered, if short); a typed array (its class, length, 8-aligned bytes).
const INT = 1, F64 = 2, UNDEF = 3, STR = 4, NEW_STR = 5, LONG_STR = 6, ARR = 7;
/** Strings up to this length (op and dtype names) are written once per ring and then sent as their number, up to TABLE of them. */
const SHORT = 24, TABLE = 256;

const align = (n: number) => (n + 7) & ~7;

type ArrayClass = new (b: ArrayBufferLike, o: number, n: number) => ArrayBufferView & { slice(): ArrayBufferView; set(a: ArrayBufferView): void };
let arrays: { index: Map<unknown, number>; classes: ArrayClass[] } | undefined;
/** This realm's typed-array classes, numbered alike on both ends (a Map: looking names up on a worker's global costs microseconds). */
function ARRAYS(): NonNullable<typeof arrays> {
  if (!arrays) {
    arrays = { index: new Map(), classes: [] };
    for (const name of ['Float32Array', 'Float64Array', 'Float16Array', 'Int8Array', 'Int16Array', 'Int32Array', 'BigInt64Array',
      'Uint8Array', 'Uint8ClampedArray', 'Uint16Array', 'Uint32Array', 'BigUint64Array']) {
      const C = (globalThis as Record<string, unknown>)[name] as ArrayClass | undefined;
      arrays.classes.push(C!); // undefined where the engine lacks it: the numbers stay the same on both ends
      if (typeof C === 'function') arrays.index.set(C, arrays.classes.length - 1);
    }
  }
  return arrays;
}

/** `m` as an entry, or undefined if it must be posted (too large, an object, or an array this realm could not rebuild). @internal Exported for tests/js/worker-wire.test.ts. */
export function encode(m: Request | Reply): Entry | undefined {
  const items = toFlat(m);
  if (!Array.isArray(items)) return undefined;
  let bytes = 8;
  for (const v of items) {
    if (typeof v === 'string') bytes += 12 + 2 * v.length; // its kind and length, the characters, 2 bytes to a word
    else if (typeof v === 'object') {
      if (ARRAYS().index.get(v.constructor) === undefined) return undefined; // a class of another realm, or a DataView
      bytes += 24 + v.byteLength;
    } else bytes += 16;
  }
  bytes = align(bytes);
  return bytes > INLINE ? undefined : { items, bytes };
}

/** One direction: the producer's and the consumer's view of a ring. @internal Exported for tests/js/worker-wire.test.ts. */
export class Ring {
  readonly u8: Uint8Array;
  readonly u16: Uint16Array;
  readonly words: Int32Array;
  readonly f64: Float64Array;
  /** The consumer's read position (the shared TAIL word is stored after an entry is done with). */
  tail = 0;
  /** The short strings written so far by their number (the producer's), and read so far in order (the consumer's). */
  readonly sent = new Map<string, number>();
  readonly seen: string[] = [];

  constructor(readonly sab: SharedArrayBuffer, readonly i32: Int32Array, readonly head: number, offset: number) {
    this.u8 = new Uint8Array(sab, offset, RING);
    this.u16 = new Uint16Array(sab, offset, RING / 2);
    this.words = new Int32Array(sab, offset, RING / 4);
    this.f64 = new Float64Array(sab, offset, RING / 8);
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
    let at = pos + 8; // bytes, at a word
    if (e === MARKER) {
      words[pos >> 2] = POSTED;
    } else {
      const items = e.items;
      words[(pos >> 2) + 1] = items.length;
      for (const v of items) {
        if (typeof v === 'number') {
          if ((v | 0) === v) {
            words[at >> 2] = INT;
            words[(at >> 2) + 1] = v;
            at += 8;
          } else {
            words[at >> 2] = F64;
            at = align(at + 4);
            this.f64[at >> 3] = v;
            at += 8;
          }
        } else if (v === undefined) {
          words[at >> 2] = UNDEF;
          at += 4;
        } else if (typeof v === 'string') {
          const known = this.sent.get(v);
          if (known !== undefined) {
            words[at >> 2] = STR;
            words[(at >> 2) + 1] = known;
            at += 8;
            continue;
          }
          const n = v.length, numbered = n <= SHORT && this.sent.size < TABLE;
          if (numbered) this.sent.set(v, this.sent.size);
          words[at >> 2] = numbered ? NEW_STR : LONG_STR;
          words[(at >> 2) + 1] = n;
          at += 8;
          const u16 = this.u16, k = at >> 1;
          for (let i = 0; i < n; i++) u16[k + i] = v.charCodeAt(i);
          at = (at + 2 * n + 3) & ~3;
        } else {
          const C = v.constructor as ArrayClass, n = (v as unknown as { length: number }).length;
          words[at >> 2] = ARR;
          words[(at >> 2) + 1] = ARRAYS().index.get(C)!;
          words[(at >> 2) + 2] = n;
          at = align(at + 12);
          // As its own class, not through v.buffer: a small array lives on V8's heap, and asking for its buffer allocates one.
          new C(this.sab, this.u8.byteOffset + at, n).set(v);
          at = (at + v.byteLength + 3) & ~3;
        }
      }
    }
    const len = align(at - pos);
    if (e !== MARKER) words[pos >> 2] = len;
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
  read(copy: boolean): Request | Reply | typeof POSTED | undefined {
    let pos = this.tail & (RING - 1);
    if (this.tail === Atomics.load(this.i32, this.head)) return undefined;
    const words = this.words;
    if (words[pos >> 2] === WRAP) {
      this.tail = (this.tail + RING - pos) | 0;
      pos = 0;
    }
    if (words[pos >> 2] === POSTED) return POSTED;
    const count = words[(pos >> 2) + 1], items: Flat = [];
    let at = pos + 8;
    for (let k = 0; k < count; k++) {
      const kind = words[at >> 2];
      if (kind === INT) {
        items.push(words[(at >> 2) + 1]);
        at += 8;
      } else if (kind === F64) {
        at = align(at + 4);
        items.push(this.f64[at >> 3]);
        at += 8;
      } else if (kind === UNDEF) {
        items.push(undefined);
        at += 4;
      } else if (kind === STR) {
        items.push(this.seen[words[(at >> 2) + 1]]);
        at += 8;
      } else if (kind === ARR) {
        const C = ARRAYS().classes[words[(at >> 2) + 1]], n = words[(at >> 2) + 2];
        at = align(at + 12);
        const view = new C(this.sab, this.u8.byteOffset + at, n);
        items.push(copy ? view.slice() : view);
        at = (at + view.byteLength + 3) & ~3;
      } else {
        const n = words[(at >> 2) + 1];
        at += 8;
        let v = '';
        // In slices: an argument list has a limit.
        for (let i = 0; i < n; i += 8192) v += String.fromCharCode.apply(null, this.u16.subarray((at >> 1) + i, (at >> 1) + Math.min(n, i + 8192)) as unknown as number[]);
        if (kind === NEW_STR) this.seen.push(v);
        items.push(v);
        at = (at + 2 * n + 3) & ~3;
      }
    }
    return fromFlat(items);
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

/** The header and both rings of a channel's buffer (HEADER + 2 * RING bytes). @internal Exported for tests. */
export function rings(sab: SharedArrayBuffer): { i32: Int32Array; requests: Ring; replies: Ring } {
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
   * Wakes the worker for the requests just written: a notify if it sleeps in Atomics.wait (before the
   * page sets up its own wait, so that the worker starts sooner), a message if it parked.
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
      if (sent) wake();
      pump(false);
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

  /** Sleeps left before the worker polls again (SPIN_MS), and the polls in vain in a row. */
  let skip = 0, misses = 0;
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
      if (skip === 0 && now - last < SPIN_MS) {
        while (requests.tail === Atomics.load(i32, REQ_HEAD) && performance.now() - last < SPIN_MS);
        if (requests.tail !== Atomics.load(i32, REQ_HEAD)) misses = 0;
        else skip = (1 << (misses = Math.min(misses + 1, MAX_MISSES))) - 1;
        continue;
      }
      if (skip > 0) skip--;
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
