/**
 * node:worker_threads where the runtime has it (Node, and Deno's and Bun's
 * compatibility), for both ends of the worker form: loaded at run time by
 * name, so that bundlers for browsers never try to resolve it.
 */
import type { Reply, Request } from './protocol.js';

/** The part of node:worker_threads the worker form uses. */
export interface WorkerThreads {
  Worker: new (file: URL, options: object) => {
    postMessage(m: Request, t: Transferable[]): void; on(e: string, f: (x: never) => void): void;
    terminate(): Promise<number>; ref(): void; unref(): void;
  };
  parentPort: { postMessage(m: Reply, t: Transferable[]): void; on(e: 'message', f: (m: Request) => void): void } | null;
}

/** The module, or undefined outside a runtime with Node's APIs (a browser). */
export async function workerThreads(): Promise<WorkerThreads | undefined> {
  const proc = (globalThis as { process?: { versions?: { node?: unknown }; getBuiltinModule?: (name: string) => unknown } }).process;
  if (typeof proc?.versions?.node !== 'string') return undefined;
  const name = 'node:worker_threads';
  return (proc.getBuiltinModule?.(name) ?? await import(/* @vite-ignore */ /* webpackIgnore: true */ name)) as WorkerThreads;
}
