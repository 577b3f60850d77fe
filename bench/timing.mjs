// Node-side timing shared by run.mjs, shapes.mjs and backends.mjs: one cell at a
// time over rounds.mjs's loop (the one the pages use), and the CPU's name.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { calibrate, timeRounds } from './rounds.mjs';

export { sink } from './rounds.mjs';

/**
 * Time fn: warm up for cfg.warmupMs (at least cfg.warmupMin calls), then
 * samples of one batch lasting >= cfg.minBatchMs each, about cfg.targetMs in
 * all (within [minSamples, maxSamples]). Per-call times in microseconds.
 */
export async function measure(fn, isAsync, cfg) {
  const col = { id: 'cell', fn, isAsync };
  const t0 = performance.now();
  // calibrate() for 0 ms is one call.
  for (let w = 0; w < cfg.warmupMin || performance.now() - t0 < cfg.warmupMs; w++) await calibrate(col, 0);
  const samples = Math.min(cfg.maxSamples, Math.max(cfg.minSamples, Math.round(cfg.targetMs / cfg.minBatchMs)));
  const r = (await timeRounds([col], { rounds: samples, batchMs: cfg.minBatchMs })).cell;
  const times = r.samples_us.slice().sort((x, y) => x - y);
  const q = (p) => times[Math.round(p * (times.length - 1))];
  return { median_us: r.median_us, p10_us: q(0.1), p90_us: q(0.9), min_us: r.min_us, max_us: r.max_us, samples, batch: r.batch };
}

/** The CPU's model name (/proc/cpuinfo where there is one). */
export function cpuModel() {
  try {
    const m = fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.*)$/m);
    if (m) return m[1].trim();
  } catch {}
  return os.cpus()[0]?.model ?? 'unknown';
}

// Process settings of run.mjs and shapes.mjs. By default they run in the plain
// `node` a user runs: the headline figures are what users get. `--tuned` opts in to
// a child process with two settings that remove noise which is not about the
// kernels (both apply to every column alike; the results files and tables then
// say "tuned"):
//
// 1. Allocator. Every "fresh output" API (ours plain path, ort-web, tfjs, js)
//    allocates a new output ArrayBuffer per call. With glibc's default malloc,
//    large buffers come from mmap and go back to the OS on free, so a call may
//    pay page faults for its whole output, or not, depending on the
//    allocator's history (bimodal, noisy timings). Tuned, the thresholds are
//    raised so freed buffers are reused (steady state of a long-running
//    process). --stock-malloc keeps glibc's defaults in a tuned run.
// 2. Wasm tiering. V8 first runs wasm with its baseline compiler (Liftoff)
//    and recompiles hot functions with TurboFan in the background; with
//    onnxruntime-web's large module that tier-up takes long enough on 2 cores
//    to make its timings swing 10x within one cell (and the first cells of a
//    run time part baseline code). Tuned, --no-liftoff compiles every wasm
//    function (ours, ort-web, tfjs, copy) with TurboFan directly, i.e.
//    measures the steady state. --liftoff keeps V8's default tiering in a tuned run.
//
// With --tuned, runs the calling script again in a child process with those
// settings (and exits with its status) unless it already has them.
const MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: '4294967296', MALLOC_TRIM_THRESHOLD_: '4294967296' };
export const TUNED = process.argv.includes('--tuned');
export function benchProcess() {
  if (!TUNED || process.env.ONNX_OPS_BENCH_CHILD === '1') return;
  const wantMalloc = !process.argv.includes('--stock-malloc') && process.platform === 'linux' && process.env.MALLOC_MMAP_THRESHOLD_ === undefined;
  const wantNoLiftoff = !process.argv.includes('--liftoff') && !process.execArgv.includes('--no-liftoff');
  if (wantMalloc || wantNoLiftoff) {
    const r = spawnSync(process.execPath, [...process.execArgv, ...(wantNoLiftoff ? ['--no-liftoff'] : []), ...process.argv.slice(1)], {
      stdio: 'inherit', env: { ...process.env, ...(wantMalloc ? MALLOC_ENV : {}), ONNX_OPS_BENCH_CHILD: '1' },
    });
    process.exit(r.status ?? 1);
  }
}

/** How this process runs (for the tables): plain node, or which tuned settings it has. */
export function processSettings() {
  const malloc = process.env.MALLOC_MMAP_THRESHOLD_ !== undefined;
  const noLiftoff = process.execArgv.includes('--no-liftoff');
  return {
    tuned: TUNED,
    malloc: malloc
      ? `glibc tuned: MALLOC_MMAP_THRESHOLD_=${process.env.MALLOC_MMAP_THRESHOLD_} MALLOC_TRIM_THRESHOLD_=${process.env.MALLOC_TRIM_THRESHOLD_ ?? 'default'} (freed buffers are reused, no page faults per call)`
      : 'stock glibc malloc (each fresh large output buffer may be mmap-ed and page-faulted)',
    wasmTiering: noLiftoff ? 'TurboFan only (--no-liftoff)' : 'V8 default (Liftoff, then TurboFan tier-up)',
    label: malloc || noLiftoff ? `tuned: ${[malloc && 'freed buffers reused (glibc thresholds raised)', noLiftoff && 'wasm TurboFan only (--no-liftoff)'].filter(Boolean).join(', ')}` : 'plain `node` (no flags, stock malloc), as users run it',
  };
}
