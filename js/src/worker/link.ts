/**
 * The worker form's transport and start-up: a port to the worker, whatever
 * the runtime's kind of worker, and starting it until its instance is made.
 */
import type { OnnxOpsError } from '../errors.js';
import type { BackendName } from '../backend/backend.js';
import { type Reply, type Request, fromWire } from './protocol.js';
import { nodeWorkerFile, workerThreads } from './node.js';
import { sharedLink } from './shared.js';

/** A message port to the worker. */
export interface Link {
  post(message: Request, transfer: Transferable[]): void;
  /** Calls `message` with each reply and `failure` once if the worker dies. */
  listen(message: (reply: Reply) => void, failure: (why: string) => void): void;
  terminate(): Promise<unknown> | void;
  /** Whether the worker keeps a Node process alive (while calls are in flight). */
  hold(on: boolean): void;
}

const WORKER_FILE = 'onnx-ops-wasm-worker.js';

/**
 * Starts the worker and waits until its createOps(options) made its instance:
 * the link and the instance's backend. `startWebWorker` starts it in a
 * browser (worker/start.ts, in the main file, where bundlers see it).
 */
export async function start(OnnxOpsErrorClass: typeof OnnxOpsError, startWebWorker: () => Worker, options: object):
  Promise<{ link: Link; backend: BackendName }> {
  const failed = (why: string) => new OnnxOpsErrorClass('UNSUPPORTED_ENGINE', 'createOps', undefined,
    `could not start the worker from ${WORKER_FILE}: ${why}`);
  let link: Link;
  try {
    link = sharedLink(connect(startWebWorker)); // shared memory where the engine lets the page use it
  } catch (e) {
    throw failed((e as Error)?.message ?? String(e));
  }
  const ready = await new Promise<Reply | string>((resolve) => {
    link.listen(resolve, resolve);
    link.hold(true);
    link.post({ t: 'init', options }, []);
  });
  if (typeof ready === 'string' || ready.t !== 'ready') {
    await link.terminate();
    // The worker's createOps() failed as the sync one would (its error), or the worker did not start.
    throw typeof ready === 'string' ? failed(ready) : ready.t === 'failed' ? fromWire(ready.error, OnnxOpsErrorClass) : failed('no answer');
  }
  return { link, backend: ready.backend };
}

/** The worker: Node's worker_threads (and Deno's and Bun's) in server runtimes, a module Worker in browsers. */
function connect(startWebWorker: () => Worker): Link {
  const wt = workerThreads();
  if (!wt) return webLink(startIn(startWebWorker));
  const worker = new wt.Worker(nodeWorkerFile(WORKER_FILE), { name: 'onnx-ops-wasm' });
  return {
    post: (m, t) => worker.postMessage(m, t),
    listen(message, failure) {
      worker.on('message', message);
      worker.on('error', (e: Error) => failure(`the worker failed: ${e?.message ?? String(e)}`));
      worker.on('exit', (code: number) => failure(`the worker exited (code ${code})`));
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

function webLink(worker: Worker): Link {
  return {
    post: (m, t) => worker.postMessage(m, t),
    listen(message, failure) {
      worker.onmessage = (e) => message(e.data as Reply);
      worker.onerror = (e) => {
        e.preventDefault?.();
        // A load error carries no message: most often the file is not served beside the bundle.
        failure(e.message ? `the worker failed: ${e.message}` : `the worker failed to load (is ${WORKER_FILE} served beside the code that starts it? docs/API.md says where each bundler puts it)`);
      };
      worker.onmessageerror = () => failure('a reply could not be read');
    },
    terminate: () => worker.terminate(),
    hold: () => {},
  };
}
