// Timing shared by run.mjs and shapes.mjs: the sampling loop and the CPU's name.
import fs from 'node:fs';
import os from 'node:os';

const now = () => performance.now();
/** Every timed call's result is folded in here, so that none can be optimised away. */
export let sink = 0;

/**
 * Time fn: warm up, calibrate a batch size so one sample lasts >= minBatchMs,
 * then take samples until ~targetMs (within [minSamples, maxSamples]).
 * Per-call times in microseconds.
 */
export async function measure(fn, isAsync, cfg) {
  const call = isAsync ? async () => { sink ^= !!(await fn()); } : () => { sink ^= !!fn(); };
  let t0 = now(), w = 0;
  do { isAsync ? await call() : call(); w++; } while (w < cfg.warmupMin || (now() - t0 < cfg.warmupMs && w < 1e5));
  // calibrate
  t0 = now();
  let k = 0;
  do { isAsync ? await call() : call(); k++; } while (now() - t0 < cfg.minBatchMs);
  const per = (now() - t0) / k;
  const batch = Math.max(1, Math.ceil(cfg.minBatchMs / per));
  const samples = Math.min(cfg.maxSamples, Math.max(cfg.minSamples, Math.round(cfg.targetMs / (per * batch))));
  const times = [];
  for (let s = 0; s < samples; s++) {
    const a = now();
    if (isAsync) for (let b = 0; b < batch; b++) await call();
    else for (let b = 0; b < batch; b++) call();
    times.push(((now() - a) * 1000) / batch);
  }
  times.sort((x, y) => x - y);
  const q = (p) => times[Math.min(times.length - 1, Math.max(0, Math.round(p * (times.length - 1))))];
  return { median_us: q(0.5), p10_us: q(0.1), p90_us: q(0.9), min_us: times[0], max_us: times[times.length - 1], samples, batch };
}

/** The CPU's model name (/proc/cpuinfo where there is one). */
export function cpuModel() {
  try {
    const m = fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.*)$/m);
    if (m) return m[1].trim();
  } catch {}
  return os.cpus()[0]?.model ?? 'unknown';
}
