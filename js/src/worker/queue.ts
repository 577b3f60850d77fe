/**
 * The worker form's requests in flight, and the worker's life: each request
 * numbered and sent over the link, and settled by its reply. The worker
 * answers in the order of the requests; a call's error found on the page
 * rejects in its turn too (inTurn), so calls settle in the order they were
 * made (an aborted call rejects when aborted). When the worker dies, the
 * requests made before reject WORKER_DIED, and the next one starts a new
 * worker (docs/API.md's restart rule: MAX_FAILED_STARTS).
 */
import type { OnnxOpsError } from '../errors.js';
import type { AbortSignalLike } from '../core/types.js';
import { type Answers, type Asking, type Link, type Reply, type Request, fromWire } from './protocol.js';

/** A request's promise, to settle; `op` names it in errors. */
type Pending = { resolve: (value: unknown) => void; reject: (e: unknown) => void; op: string };

/**
 * A request kept on the page until it can be sent: while a worker starts, and
 * a call with a signal (with those after it) until the calls before it are
 * done, so that it is withdrawn, never run, if its signal aborts meanwhile.
 * `settle` undefined: a tensor's free, which wants no answer.
 */
interface Held {
  request: Request;
  transfer: Transferable[];
  settle: Pending | undefined;
  signal: AbortSignalLike | undefined;
  abort: (() => void) | undefined;
}

/** Starts that fail in a row (no worker ready in between) before the instance gives up for good. */
export const MAX_FAILED_STARTS = 3;

export class Requests {
  readonly #pending = new Map<number, Pending>();
  /** Requests not sent yet, in order: #held[#head] is the first. */
  #held: Held[] = [];
  #head = 0;
  #ids = 0;
  /** The live worker's link; undefined once it died, until the next request starts another. */
  #link: Link | undefined;
  #starting = false;
  #failedStarts = 0;
  /** Why later requests are refused: set by close(), or when starts failed MAX_FAILED_STARTS times in a row. */
  #refusal: string | undefined;
  #closed: Promise<void> | undefined;
  /** The promise of the request made last. */
  #last: Promise<unknown> = Promise.resolve();

  /**
   * `restart` starts a new worker with the instance's options (link.ts's
   * start); `lost` is told, with why, when a worker's memory is gone (its
   * tensors with it: remote.ts).
   */
  constructor(link: Link, readonly OnnxOpsErrorClass: typeof OnnxOpsError, readonly restart: () => Promise<Link>,
    readonly lost: (why: string) => void) {
    this.#attach(link);
  }

  /**
   * Sends a request, numbered here, and returns the promise of its answer;
   * `op` names the call in errors. With `signal`, the request waits on the
   * page until the requests before it are done, and is withdrawn if it aborts.
   */
  send<R extends Asking>(request: R, transfer: Transferable[], op: string, signal?: AbortSignalLike): Promise<Answers[R['t']]> {
    const refused = this.refuse(op);
    if (refused) return refused;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = (request.id = ++this.#ids);
    let p: Promise<Answers[R['t']]>;
    if (this.#link && this.#head === this.#held.length && (!signal || this.#pending.size === 0)) {
      p = new Promise((resolve, reject) => this.#post(this.#link!, request, transfer, { resolve: resolve as Pending['resolve'], reject, op }));
    } else {
      p = new Promise((resolve, reject) => {
        const held: Held = { request, transfer, settle: { resolve: resolve as Pending['resolve'], reject, op }, signal, abort: undefined };
        if (signal) {
          held.abort = () => this.#withdraw(held);
          signal.addEventListener('abort', held.abort, { once: true });
        }
        this.#held.push(held);
      });
      this.#wake();
    }
    this.#last = p;
    return p;
  }

  /** A tensor's dispose(), which wants no answer: after the requests made before it. */
  free(h: number): void {
    if (this.#refusal) return; // after close(), the worker's memory went with it
    if (this.#link && this.#head === this.#held.length) this.#post(this.#link, { t: 'free', h }, [], undefined);
    else if (this.#link || this.#starting) this.#held.push({ request: { t: 'free', h }, transfer: [], settle: undefined, signal: undefined, abort: undefined });
  }

  /** A call's error found here, rejected in its turn: after the calls made before it settle. */
  inTurn(e: unknown): Promise<never> {
    // Thrown, not returned as a rejected promise (which settles two microtasks later): replies that
    // arrive together (the shared channel reads them in one go) must not overtake it.
    const fail = () => {
      throw e;
    };
    const p = this.#last.then(fail, fail);
    this.#last = p;
    return p;
  }

  /** A rejection for a call `op` after close() (or once the instance gave up on its worker), or undefined before. */
  refuse(op: string): Promise<never> | undefined {
    if (this.#refusal === undefined) return undefined;
    return Promise.reject(new this.OnnxOpsErrorClass(this.#closed ? 'DISPOSED' : 'WORKER_DIED', op, undefined, this.#refusal));
  }

  /** Ends the worker once the requests already made are done. Idempotent. */
  close(): Promise<void> {
    if (this.#closed) return this.#closed;
    this.#refusal = 'ops.close() ended this instance\'s worker';
    this.#closed = this.#last.then(() => {}, () => {}).then(() => {
      const link = this.#link;
      this.#link = undefined; // its exit is no death
      return link?.terminate();
    }).then(() => {});
    return this.#closed;
  }

  /** Sends one request now; `settle`, if any, is settled by its reply (or here, if it cannot be sent). */
  #post(link: Link, request: Request, transfer: Transferable[], settle: Pending | undefined): void {
    try {
      link.post(request, transfer);
    } catch (e) {
      settle?.reject(new this.OnnxOpsErrorClass('INVALID_ARGUMENT', settle.op, undefined,
        `the call could not be sent to the worker: ${(e as Error)?.message ?? String(e)}`));
      return;
    }
    if (!settle) return;
    this.#pending.set((request as Asking).id, settle);
    if (this.#pending.size === 1) link.hold(true);
  }

  /** Sends the held requests that may go: all of them, but a call with a signal only once nothing is in flight. */
  #drain(): void {
    const link = this.#link;
    if (!link) return;
    while (this.#head < this.#held.length) {
      const h = this.#held[this.#head];
      if (h.signal && this.#pending.size > 0) break;
      this.#held[this.#head++] = undefined as never;
      if (h.abort) h.signal!.removeEventListener('abort', h.abort);
      this.#post(link, h.request, h.transfer, h.settle);
    }
    if (this.#head === this.#held.length) {
      this.#held = [];
      this.#head = 0;
    }
  }

  /** A held call whose signal aborted: it never runs, and rejects with the signal's reason. */
  #withdraw(h: Held): void {
    const i = this.#held.indexOf(h, this.#head);
    if (i < 0) return;
    this.#held.splice(i, 1);
    h.settle!.reject(h.signal!.reason);
    this.#drain(); // the calls behind it may go now
  }

  /** Held requests wait for a worker: start one if there is none (the next call after a death). */
  #wake(): void {
    if (this.#link || this.#starting) return;
    this.#starting = true;
    this.restart().then((link) => {
      this.#starting = false;
      if (this.#closed) {
        void link.terminate();
        return;
      }
      this.#failedStarts = 0;
      this.#attach(link);
      this.#drain();
    }, (e: unknown) => {
      this.#starting = false;
      const why = `${(e as Error)?.message ?? String(e)}`;
      if (++this.#failedStarts >= MAX_FAILED_STARTS && !this.#closed) {
        this.#refusal = `the worker failed to start ${MAX_FAILED_STARTS} times in a row (${why}): this instance gave up on it`;
      }
      this.lost(why);
      this.#rejectHeld((op) => new this.OnnxOpsErrorClass('WORKER_DIED', op, undefined,
        `the worker had died, and a new one could not be started: ${why}`));
    });
  }

  #attach(link: Link): void {
    this.#link = link;
    link.listen((reply) => this.#reply(link, reply), (why) => this.#died(link, why));
    link.hold(this.#pending.size > 0);
  }

  #reply(link: Link, reply: Reply): void {
    if (link !== this.#link || (reply.t !== 'done' && reply.t !== 'error')) return;
    const p = this.#pending.get(reply.id);
    if (!p) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) link.hold(false);
    if (reply.t === 'done') p.resolve(reply.value);
    else p.reject(fromWire(reply.error, this.OnnxOpsErrorClass));
    if (this.#head < this.#held.length) this.#drain();
  }

  /**
   * The worker died (not by close()): every request made before rejects
   * WORKER_DIED saying why, its tensors are lost, and the next request starts
   * a new worker.
   */
  #died(link: Link, why: string): void {
    if (link !== this.#link) return;
    this.#link = undefined;
    link.hold(false);
    void Promise.resolve(link.terminate()).catch(() => {});
    const error = (op: string) => new this.OnnxOpsErrorClass('WORKER_DIED', op, undefined,
      `the worker died before the call completed: ${why}; the next call starts a new worker`);
    this.lost(why);
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) p.reject(error(p.op));
    this.#rejectHeld(error);
  }

  /** Every held request rejects (`error` of its op): they were made for a worker that is gone. */
  #rejectHeld(error: (op: string) => unknown): void {
    const held = this.#held.slice(this.#head);
    this.#held = [];
    this.#head = 0;
    for (const h of held) {
      if (h.abort) h.signal!.removeEventListener('abort', h.abort);
      if (h.settle) h.settle.reject(error(h.settle.op));
    }
  }
}
