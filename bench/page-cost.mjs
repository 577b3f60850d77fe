// What the machine charges for fresh memory, measured from JavaScript in the run
// itself: the first write to each 4 KiB page of a new WebAssembly.Memory (a fresh
// mapping in every engine, never recycled pages, unlike a large ArrayBuffer)
// against writing those pages again. Every plain call's fresh result array (any
// library's) pays this for each page the allocator does not recycle, so the
// results files record it beside the figures it moves. No Node APIs: Node
// (run.mjs, browser.mjs) and the pages (browser/page.mjs) both run it.
// bench/research/page-faults.c measures the same natively.

export const PAGE_BYTES = 4096;
/** What a usual desktop or server is commonly put at per fresh 4 KiB page, µs (not measured here). */
export const USUAL_PAGE_US = [0.1, 0.3];
/** Above this, the run's output and results files warn that fresh arrays cost far more than usual. */
export const WARN_PAGE_US = 1;

const MEMORY_BYTES = 32 * 2 ** 20;

/**
 * Fresh pages of 32 MiB memories until at least minMs of first writes were timed
 * (3 to maxReps memories). Resolves to { us_per_page (all first writes, less the
 * rewrites, over all pages), min_us, max_us (per memory), pages, reps, rewrite_us_per_page }.
 */
export async function measurePageCost({ minMs = 60, maxReps = 12 } = {}) {
  const pages = MEMORY_BYTES / PAGE_BYTES;
  const per = [];
  let firstTotal = 0, againTotal = 0;
  for (let r = 0; r < maxReps && (r < 3 || firstTotal < minMs); r++) {
    const u8 = new Uint8Array(new WebAssembly.Memory({ initial: MEMORY_BYTES / 65536 }).buffer);
    const t0 = performance.now();
    for (let i = 0; i < MEMORY_BYTES; i += PAGE_BYTES) u8[i] = 1;
    const t1 = performance.now();
    // four passes over touched pages, so that a coarse clock still reads them
    for (let k = 2; k < 6; k++) for (let i = 0; i < MEMORY_BYTES; i += PAGE_BYTES) u8[i] = k;
    const again = (performance.now() - t1) / 4;
    if (u8[PAGE_BYTES] !== 5) throw new Error('page-cost: the writes did not land');
    firstTotal += t1 - t0;
    againTotal += again;
    per.push(Math.max(0, ((t1 - t0) - again) * 1000 / pages));
    await new Promise((res) => setTimeout(res, 0)); // lets the engine collect the memories already dropped
  }
  return {
    us_per_page: Math.max(0, (firstTotal - againTotal) * 1000 / (pages * per.length)),
    min_us: Math.min(...per),
    max_us: Math.max(...per),
    rewrite_us_per_page: againTotal * 1000 / (pages * per.length),
    pages,
    reps: per.length,
    method: `first write to each 4 KiB page of ${per.length} fresh ${MEMORY_BYTES / 2 ** 20} MiB WebAssembly.Memory objects, less writing those pages again`,
  };
}

const fmt = (x) => (x >= 10 ? x.toFixed(0) : x >= 1 ? x.toFixed(1) : x.toFixed(2));

/** One line for a results file's header table: the measurements of a run ({ at, ...measurePageCost() }). */
export function pageCostCell(list) {
  if (!list?.length) return 'not measured';
  const each = list.map((p) => `${p.at ? `${p.at} ` : ''}${fmt(p.us_per_page)} µs <sub>${fmt(p.min_us)}–${fmt(p.max_us)}</sub>`).join(', ');
  return `${each} per 4 KiB page (first write to fresh 32 MiB memories; a usual machine: ${USUAL_PAGE_US.join('–')} µs)`
    + (list.some(isUnusual) ? ' — **far above a usual machine\'s: plain calls\' fresh result arrays (any library\'s) cost more here than elsewhere**' : '');
}

/** The same for a console line. */
export const pageCostLine = (list) => pageCostCell(list).replace(/<sub>/g, '(').replace(/<\/sub>/g, ')').replace(/\*\*/g, '');

export const isUnusual = (p) => !!p && p.us_per_page > WARN_PAGE_US;

/** The warning line the run prints when the cost is far from a usual machine's, else null. */
export function pageCostWarning(p, where) {
  if (!isUnusual(p)) return null;
  return `!!!!!!!! ${where}: a fresh 4 KiB page costs ${fmt(p.us_per_page)} µs here (a usual machine: ${USUAL_PAGE_US.join('–')} µs): `
    + 'plain calls\' fresh result arrays, ours and the peers\', are slower than they would be elsewhere; compare `{ out }`, zero-copy and the ratios instead';
}

/** The fresh-page cost of a run's bytes of output: pages × µs per page. */
export const freshPagesUs = (p, bytes) => (p ? Math.ceil(bytes / PAGE_BYTES) * p.us_per_page : null);
