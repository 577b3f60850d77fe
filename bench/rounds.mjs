// Interleaved timing for clocks that browsers coarsen (performance.now() to about
// 1 ms in Firefox and WebKit): every sample is one batch of calls lasting at least
// batchMs, and the columns of a case take turns, one batch each per round, so that
// a slow spell of a shared machine falls on all of them alike. No Node APIs: the
// page (bench/browser/page.mjs) and Node (browser.mjs's fresh-array section) use it.

const now = () => performance.now();

/** The smallest step performance.now() takes here, in ms. */
export function timerStep() {
  let best = Infinity;
  for (let k = 0; k < 20; k++) {
    const a = performance.now();
    let b = a;
    while (b === a) b = performance.now();
    best = Math.min(best, b - a);
  }
  return best;
}

/** Every timed call's result is folded in here, so that none can be optimised away. */
export let sink = 0;

async function batchMs(c, batch) {
  c.before?.(batch); // untimed: what the batch's calls consume (e.g. inputs they detach)
  const t0 = now();
  if (c.isAsync) for (let i = 0; i < batch; i++) sink ^= !!(await c.fn());
  else for (let i = 0; i < batch; i++) sink ^= !!c.fn();
  return now() - t0;
}

/** The calls per batch that make one batch of c.fn last at least ms (warms it up too). */
export async function calibrate(c, ms) {
  let batch = 1;
  for (;;) {
    let t = await batchMs(c, batch);
    // one slow call (a collection, fresh pages) must not set a batch of 1: read it again
    if (t >= ms && batch === 1) t = await batchMs(c, 1);
    if (t >= ms) return batch;
    // A coarse clock reads short batches as 0 or 1 ms: grow 8x until the reading means something.
    batch = t < ms / 8 ? batch * 8 : Math.ceil((batch * ms * 1.25) / t);
  }
}

/**
 * Times columns [{ id, fn, isAsync, before }] in `rounds` rounds (the order rotated each round);
 * before(batch), if given, runs untimed before each batch.
 * Resolves to { [id]: { median_us, min_us, max_us, samples_us, batch, rounds } }:
 * per-call microseconds, the median over the rounds.
 */
export async function timeRounds(cols, { rounds, batchMs: ms, onRound } = {}) {
  const batches = [];
  for (const c of cols) batches.push(await calibrate(c, ms));
  const samples = cols.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < cols.length; k++) {
      const i = (k + r) % cols.length;
      samples[i].push((await batchMs(cols[i], batches[i])) * 1000 / batches[i]);
    }
    onRound?.(r);
  }
  const out = {};
  cols.forEach((c, i) => {
    const s = samples[i];
    out[c.id] = { median_us: median(s), min_us: Math.min(...s), max_us: Math.max(...s), samples_us: s, batch: batches[i], rounds };
  });
  return out;
}

/** The median of numbers (the mean of the middle two for an even count). */
export function median(xs) {
  const s = xs.slice().sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
