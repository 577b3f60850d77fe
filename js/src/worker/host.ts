/**
 * The worker form's worker: the file onnx-ops-wasm-worker.js, which
 * createOps({ worker: true }) starts (worker/client.ts). It makes one
 * instance with the sync API and runs the page's requests (worker/protocol.ts)
 * one after another, in the order they came: the calls were checked on the
 * page already, so here they are the sync API's calls on clean inputs.
 */
import { OnnxOpsError, WasmTensor, createOps, type Ops } from '../index.js';
import { OP_SPECS } from '../core/spec.js';
import { type Answers, type Asking, type Reply, type Request, fromFlat, moveIfLarge, toFlat, toWire } from './protocol.js';
import { workerThreads } from './node.js';
import { type Port, sharedPort } from './shared.js';


/** A worker's global scope in browsers (what TypeScript's WebWorker library declares of it). */
declare const self: { postMessage(m: unknown, t: Transferable[]): void; onmessage: ((e: MessageEvent) => void) | null };

/** The page's end: Node's (and Deno's, Bun's) parentPort under worker_threads, the worker's global scope in browsers. */
function parent(): Port {
  const port = workerThreads()?.parentPort;
  if (port) return { post: (m, t) => port.postMessage(toFlat(m), t), listen: (f) => port.on('message', (x) => f(fromFlat(x) as Request)) };
  return { post: (m, t) => self.postMessage(toFlat(m), t), listen: (f) => { self.onmessage = (e) => f(fromFlat(e.data) as Request); } };
}

serve(sharedPort(parent()));

/**
 * Takes the Web Lock `name` and holds it as long as this worker lives: its
 * release, which needs nothing of the worker (a terminate()d one sends
 * nothing), tells the page the worker ended. Whether it was taken.
 */
function watched(name: string | undefined): Promise<boolean> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (name === undefined || typeof locks?.request !== 'function') return Promise.resolve(false);
  return new Promise((taken) => {
    locks.request(name, () => {
      taken(true);
      return new Promise(() => {});
    }).catch(() => taken(false));
  });
}

/** Answers the page's requests on `port`. */
function serve(port: Port): void {
  let ops: Ops | undefined;
  const tensors = new Map<number, WasmTensor>();
  const tensor = (h: number): WasmTensor => {
    const t = tensors.get(h);
    if (!t) throw new Error(`onnx-ops-wasm worker: no tensor ${h}`);
    return t;
  };

  /** One request: its answer and what the answer moves to the page. */
  const run = (m: Asking, o: Ops): [Answers[Asking['t']], Transferable[]] => {
    switch (m.t) {
      case 'call': {
        const inputs = m.inputs.map((w) => (typeof w === 'number' ? tensor(w) : w));
        const options = { opset: m.opset, out: m.out ? tensor(m.out) : undefined };
        // The op's call, as its method makes it: its input or its list of inputs, by its arity, and the options.
        const r = OP_SPECS[m.op].arity === 'unary' ? o.runUnary(m.op, inputs[0], options, 2) : o.runVariadic(m.op, inputs, options);
        if (r instanceof WasmTensor) {
          if (m.result) tensors.set(m.result, r);
          return [undefined, []];
        }
        return [r, moveIfLarge(r.data)];
      }
      case 'tensor':
        tensors.set(m.h, o.tensor(m.dtype, m.shape, m.data));
        return [undefined, []];
      case 'read': {
        const r = tensor(m.h).toPlain();
        return [r, moveIfLarge(r.data)];
      }
      case 'stats':
        return [o.memoryStats(), []];
      case 'trim':
        o.trimMemory();
        return [undefined, []];
    }
  };

  port.listen((m) => {
    if (m.t === 'init') {
      Promise.all([createOps(m.options), watched(m.lock)]).then(
        ([made, locked]) => {
          ops = made;
          // Where the page could not be given the lock, it hears of this worker's death by its heartbeat's silence.
          if (!locked && m.beat) setInterval(() => port.post({ t: 'beat' }, []), m.beat);
          port.post({ t: 'ready', backend: made.backend, locked, reason: made.fallbackReason }, []);
        },
        (e) => port.post({ t: 'failed', error: toWire(e, 'createOps', OnnxOpsError) }, []));
      return;
    }
    if (m.t === 'free') {
      tensors.get(m.h)?.dispose();
      tensors.delete(m.h);
      return;
    }
    try {
      const [value, transfer] = run(m, ops!);
      port.post({ t: 'done', id: m.id, value }, transfer);
    } catch (e) {
      port.post({ t: 'error', id: m.id, error: toWire(e, m.t === 'call' ? m.op : m.t, OnnxOpsError) }, []);
    }
  });
}
