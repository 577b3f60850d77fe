/**
 * node:worker_threads where the runtime has it (Node, and Deno's and Bun's
 * compatibility), for both ends of the worker form: taken through
 * process.getBuiltinModule, which no bundler resolves or warns about, where an
 * import() of the name would make webpack and rspack warn and Metro fail.
 */
import type { Flat, Request } from './protocol.js';

/** The part of node:worker_threads the worker form uses. */
export interface WorkerThreads {
  Worker: new (file: URL | string, options: object) => {
    postMessage(m: unknown, t: Transferable[]): void; on(e: string, f: (x: never) => void): void;
    terminate(): Promise<number>; ref(): void; unref(): void;
  };
  parentPort: { postMessage(m: unknown, t: Transferable[]): void; on(e: 'message', f: (m: Flat | Request) => void): void } | null;
}

/** The module, or undefined outside a runtime with Node's APIs (a browser); throws where Node is too old to hand it out. */
export function workerThreads(): WorkerThreads | undefined {
  const proc = (globalThis as { process?: { versions?: { node?: unknown }; getBuiltinModule?: (name: string) => unknown } }).process;
  if (typeof proc?.versions?.node !== 'string') return undefined;
  if (typeof proc.getBuiltinModule !== 'function') {
    throw new Error('this Node has no process.getBuiltinModule, which the worker form needs (Node 20.16+, 22.3+)');
  }
  return proc.getBuiltinModule('node:worker_threads') as WorkerThreads;
}

declare const __dirname: string;
/**
 * The worker's file for worker_threads: beside this file, by import.meta.url
 * in ES modules and __dirname in CommonJS (whose build empties import.meta).
 * Held in a variable, so that bundlers do not take it for a second copy of the
 * file to emit (the browser's is in start.ts).
 */
export function nodeWorkerFile(name: string): URL | string {
  const here = import.meta.url;
  return here ? new URL(name, here) : `${__dirname}/${name}`;
}
