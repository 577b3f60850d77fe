/**
 * The worker form's transport and start-up: a port to the worker, whatever
 * the runtime's kind of worker, and starting it until its instance is made.
 */
import type { OnnxOpsError } from '../errors.js';
import type { BackendName } from '../backend/backend.js';
import { type Link, type Reply, fromFlat, fromWire, toFlat } from './protocol.js';
import { nodeWorkerFile, workerThreads } from './node.js';
import { sharedLink } from './shared.js';


const WORKER_FILE = 'onnx-ops-wasm-worker.js';

/** How long a worker may take to make its instance before createOps() gives up on it (docs/API.md says it). */
export const START_MS = 30_000;
/** Where a browser's worker cannot hold a Web Lock: how long a silent worker (no reply, no heartbeat) is taken for alive. */
export const SILENCE_MS = 20_000;

/**
 * @internal The tests' way to shorten those bounds (tests/js/worker.test.ts,
 * tests/portable/cases/worker.ts): an object under this registered symbol on
 * globalThis, read when a worker starts. Not an API.
 */
const TESTING = Symbol.for('onnx-ops-wasm.worker-bounds');
const bound = (key: 'startMs' | 'silenceMs', fallback: number): number => {
  const v = (globalThis as Record<symbol, Record<string, unknown> | undefined>)[TESTING]?.[key];
  return typeof v === 'number' && v > 0 ? v : fallback;
};

/**
 * Starts the worker and waits until its createOps(options) made its instance:
 * the link and the instance's backend. `startWebWorker` starts it in a
 * browser (worker/start.ts, in the main file, where bundlers see it). A
 * worker that dies or says nothing within START_MS is ended, and the start
 * rejects (UNSUPPORTED_ENGINE, or the worker's createOps() error).
 */
export async function start(OnnxOpsErrorClass: typeof OnnxOpsError, startWebWorker: () => Worker, options: object):
  Promise<{ link: Link; backend: BackendName; reason?: string }> {
  const failed = (why: string) => new OnnxOpsErrorClass('UNSUPPORTED_ENGINE', 'createOps', undefined,
    `could not start the worker from ${WORKER_FILE}: ${why}`);
  let link: Link;
  try {
    link = sharedLink(connect(startWebWorker)); // shared memory where the engine lets the page use it
  } catch (e) {
    throw failed((e as Error)?.message ?? String(e));
  }
  // The link is listened to once: replies and a death go to the start until it is done, then to whoever listens to the link it returns.
  let onReply: (reply: Reply) => void;
  let onFailure: (why: string) => void;
  let died: string | undefined;
  const limit = bound('startMs', START_MS);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ready = await new Promise<Reply | string>((resolve) => {
    onReply = resolve;
    onFailure = (why) => {
      died ??= why;
      resolve(why);
    };
    link.listen((r) => onReply(r), (why) => onFailure(why));
    link.hold(true);
    timer = setTimeout(() => resolve(`it did not answer within ${limit / 1000} s`), limit);
    link.post({ t: 'init', options, ...link.watch }, []);
  });
  clearTimeout(timer);
  if (typeof ready === 'string' || ready.t !== 'ready') {
    await link.terminate();
    // The worker's createOps() failed as the sync one would (its error), or the worker did not start.
    throw typeof ready === 'string' ? failed(ready) : ready.t === 'failed' ? fromWire(ready.error, OnnxOpsErrorClass) : failed('no answer');
  }
  const started: Link = {
    ...link,
    listen(message, failure) {
      onReply = message;
      onFailure = failure;
      if (died !== undefined) failure(died); // a death between the ready reply and this
    },
  };
  return { link: started, backend: ready.backend, reason: ready.reason };
}

/** The worker: Node's worker_threads (and Deno's and Bun's) in server runtimes, a module Worker in browsers. */
function connect(startWebWorker: () => Worker): Link {
  const wt = workerThreads();
  if (!wt) return webLink(startIn(startWebWorker));
  const worker = new wt.Worker(nodeWorkerFile(WORKER_FILE), { name: 'onnx-ops-wasm' });
  return {
    post: (m, t) => worker.postMessage(toFlat(m), t),
    listen(message, failure) {
      let dead = false;
      // An uncaught error is followed by the exit: the first says why.
      const fail = (why: string) => {
        if (!dead) failure(why);
        dead = true;
      };
      worker.on('message', (x: Parameters<typeof fromFlat>[0]) => message(fromFlat(x) as Reply));
      worker.on('error', (e: Error) => fail(`the worker failed: ${e?.message ?? String(e)}`));
      worker.on('exit', (code: number) => fail(`the worker exited (code ${code})`));
    },
    terminate: () => worker.terminate(),
    hold: (on) => (on ? worker.ref() : worker.unref()),
  };
}

/** startWebWorker(), what the engine lacks for it said as such, not as a missing file. */
function startIn(startWebWorker: () => Worker): Worker {
  if (typeof Worker !== 'function') throw new Error('this engine has neither Worker nor node:worker_threads');
  if (typeof URL !== 'function') throw new Error('this engine has no URL, to locate the worker\'s file');
  try {
    return startWebWorker();
  } catch (e) {
    throw e instanceof TypeError && /URL/.test(e.message) ? new Error(`no URL for the worker's file (import.meta.url is empty in a CommonJS bundle): ${e.message}`) : e;
  }
}

/**
 * A browser's worker, whose terminate() (by the page, or by the browser under
 * memory pressure) and crash fire no event on the page: the worker holds a
 * Web Lock of its own name from its start until it ends, and the page's
 * request for the same lock is granted when it ends, with nothing asked of
 * the worker. Where there are no Web Locks (a page not in a secure context),
 * the worker beats ten times per SILENCE_MS instead, and SILENCE_MS without a
 * word from it is taken for its death (and ends it).
 */
function webLink(worker: Worker): Link {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  const lock = typeof locks?.request === 'function' && typeof AbortController === 'function' ? `onnx-ops-wasm-worker-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}` : undefined;
  const silence = bound('silenceMs', SILENCE_MS);
  // Aborts the page's lock request once the worker is ended or dead; `ended` stops every watch.
  const stop = lock ? new AbortController() : undefined;
  let ended = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  const end = () => {
    ended = true;
    stop?.abort();
    clearInterval(timer);
  };
  return {
    watch: { lock, beat: silence / 10 },
    post: (m, t) => worker.postMessage(toFlat(m), t),
    listen(message, failure) {
      let heard = Date.now();
      const fail = (why: string) => {
        if (ended) return;
        end();
        failure(why);
      };
      worker.onmessage = (e) => {
        heard = Date.now();
        const reply = fromFlat(e.data) as Reply;
        if (reply.t === 'beat') return;
        if (reply.t === 'ready') {
          if (reply.locked) {
            locks!.request(lock!, { signal: stop!.signal }, () => fail('the worker ended (terminated by the page or the browser, or crashed)')).catch(() => {});
          } else {
            let tick = Date.now();
            timer = setInterval(() => {
              const now = Date.now();
              // A page that was itself busy has not read the beats waiting for it yet: they count as heard.
              if (now - tick > silence / 2) heard = now;
              tick = now;
              if (now - heard > silence) fail(`the worker sent nothing for ${silence / 1000} s (no heartbeat): taken for dead`);
            }, silence / 4);
          }
        }
        message(reply);
      };
      worker.onerror = (e) => {
        e.preventDefault?.();
        // A load error carries no message: most often the file is not served beside the bundle.
        fail(e.message ? `the worker failed: ${e.message}` : `the worker failed to load (is ${WORKER_FILE} served beside the code that starts it? docs/API.md says where each bundler puts it)`);
      };
      worker.onmessageerror = () => fail('a reply could not be read');
    },
    terminate: () => {
      end();
      worker.terminate();
    },
    hold: () => {},
  };
}
