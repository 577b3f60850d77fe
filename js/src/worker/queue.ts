/**
 * The worker form's requests in flight: each numbered and sent over the link,
 * and settled by its reply. The worker answers in the order of the requests;
 * a call's error found on the page rejects in its turn too (inTurn), so calls
 * settle in the order they were made.
 */
import type { OnnxOpsError } from '../errors.js';
import type { Link } from './link.js';
import { type Answers, type Asking, type Reply, fromWire } from './protocol.js';

type Pending = { resolve: (value: unknown) => void; reject: (e: unknown) => void };

export class Requests {
  readonly #pending = new Map<number, Pending>();
  #ids = 0;
  /** Set by close(), or when the worker died: later requests reject with DISPOSED. */
  #closed: Promise<void> | undefined;
  /** The promise of the request made last. */
  #last: Promise<unknown> = Promise.resolve();

  constructor(readonly link: Link, readonly OnnxOpsErrorClass: typeof OnnxOpsError) {
    link.listen((reply) => this.#reply(reply), (why) => this.#died(why));
    link.hold(false);
  }

  /** Sends a request, numbered here, and returns the promise of its answer; `op` names the call in errors. */
  send<R extends Asking>(request: R, transfer: Transferable[], op: string): Promise<Answers[R['t']]> {
    const closed = this.refuse(op);
    if (closed) return closed;
    const id = (request.id = ++this.#ids);
    const p = new Promise<Answers[R['t']]>((resolve, reject) => this.#pending.set(id, { resolve: resolve as Pending['resolve'], reject }));
    try {
      this.link.post(request, transfer);
    } catch (e) {
      this.#pending.delete(id);
      return Promise.reject(new this.OnnxOpsErrorClass('INVALID_ARGUMENT', op, undefined,
        `the call could not be sent to the worker: ${(e as Error)?.message ?? String(e)}`));
    }
    if (this.#pending.size === 1) this.link.hold(true);
    this.#last = p;
    return p;
  }

  /** A tensor's dispose(), which wants no answer (after close(), the worker's memory went with it). */
  free(h: number): void {
    if (!this.#closed) this.link.post({ t: 'free', h }, []);
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

  /** A rejection for a call `op` after close(), or undefined before. */
  refuse(op: string): Promise<never> | undefined {
    if (!this.#closed) return undefined;
    return Promise.reject(new this.OnnxOpsErrorClass('DISPOSED', op, undefined, 'ops.close() ended this instance\'s worker'));
  }

  /** Ends the worker once the requests already made are done. Idempotent. */
  close(): Promise<void> {
    this.#closed ??= this.#last.then(() => {}, () => {}).then(() => this.link.terminate()).then(() => {});
    return this.#closed;
  }

  #reply(reply: Reply): void {
    if (reply.t !== 'done' && reply.t !== 'error') return;
    const p = this.#pending.get(reply.id);
    if (!p) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.link.hold(false);
    if (reply.t === 'done') p.resolve(reply.value);
    else p.reject(fromWire(reply.error, this.OnnxOpsErrorClass));
  }

  /** The worker died: every request in flight rejects, and so do later ones. */
  #died(why: string): void {
    this.#closed ??= Promise.resolve(this.link.terminate()).then(() => {}, () => {});
    for (const [, p] of this.#pending) p.reject(new this.OnnxOpsErrorClass('DISPOSED', 'worker', undefined, `the worker ended: ${why}`));
    this.#pending.clear();
    this.link.hold(false);
  }
}
