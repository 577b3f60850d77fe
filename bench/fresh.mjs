// The ways to hand a caller a fresh Float32Array holding n elements of wasm memory
// (what a plain call does with its result), timed side by side, interleaved. The
// wasm memory is a tensor's (ops.tensor(), public API only). No Node APIs unless
// Buffer exists: pages (bench/browser/page.mjs) and Node (browser.mjs) both run it.

import { compareOutputs, randomData } from './common.mjs';
import { timeRounds } from './rounds.mjs';

export const FRESH_SIZES = [1e3, 1e5, 1e6, 4e6];

/** [{ id, desc, fn }] for n elements at float offset a of heap (a Float32Array over all of wasm memory). */
export function freshVariants(heapOf, a, n) {
  const reused = new Float32Array(n);
  const v = [
    { id: 'new+set', desc: 'new Float32Array(n), then .set(heap.subarray(a, a + n))', fn: () => { const o = new Float32Array(n); o.set(heapOf().subarray(a, a + n)); return o; } },
    { id: 'slice', desc: 'heap.slice(a, a + n)', fn: () => heapOf().slice(a, a + n) },
    { id: 'buffer.slice', desc: 'new Float32Array(heap.buffer.slice(4a, 4(a + n)))', fn: () => new Float32Array(heapOf().buffer.slice(a * 4, (a + n) * 4)) },
    { id: 'ctor(view)', desc: 'new Float32Array(heap.subarray(a, a + n))', fn: () => new Float32Array(heapOf().subarray(a, a + n)) },
  ];
  if (typeof Buffer === 'function' && Buffer.allocUnsafeSlow) {
    v.push({ id: 'allocUnsafeSlow+set', desc: 'Buffer.allocUnsafeSlow(4n) as a Float32Array, then .set(...)', fn: () => {
      const b = Buffer.allocUnsafeSlow(n * 4);
      const o = new Float32Array(b.buffer, b.byteOffset, n);
      o.set(heapOf().subarray(a, a + n));
      return o;
    } });
  }
  v.push({ id: 'set (reused)', desc: 'no allocation: .set(...) into one array made once (the copy alone)', fn: () => { reused.set(heapOf().subarray(a, a + n)); return reused; } });
  // Not a way to make the result (it holds zeros, so it is not checked): the
  // allocation without the first write to its pages, which new+set adds.
  v.push({ id: 'new (untouched)', desc: 'new Float32Array(n) alone, never written: the allocation without the first touch of its pages', fn: () => new Float32Array(n), unchecked: true });
  return v;
}

/** Times every variant at each size; each output is checked bit for bit first. */
export async function runFresh(ops, { sizes = FRESH_SIZES, rounds, batchMs }) {
  const rows = [];
  for (const n of sizes) {
    const t = ops.tensor('float32', [n], randomData('float32', n, 4242));
    try {
      const want = t.data.slice();
      const a = t.data.byteOffset / 4;
      let heap = new Float32Array(t.data.buffer);
      // a fresh heap view only when memory grew (the library keeps one the same way)
      const heapOf = () => (heap.buffer.byteLength ? heap : (heap = new Float32Array(t.data.buffer)));
      const variants = freshVariants(heapOf, a, n);
      for (const x of variants) {
        if (x.unchecked) continue;
        const c = compareOutputs('float32', want, x.fn(), 'bits');
        if (c) throw new Error(`fresh array ${x.id} n=${n} differs from the source: ${JSON.stringify(c)}`);
      }
      const res = await timeRounds(variants.map((x) => ({ id: x.id, fn: x.fn })), { rounds, batchMs });
      rows.push({ n, bytes: n * 4, results: Object.fromEntries(variants.map((x) => [x.id, { desc: x.desc, ...res[x.id] }])) });
    } finally {
      t.dispose();
    }
  }
  return rows;
}
