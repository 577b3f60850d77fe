// A/B: two builds of the package (their dist/ folders) in one process,
// timed in alternating batches; the median per cell, and B's change against A.
//   node bench/ab.mjs <A dist> <B dist> [filter|filter...] [--browser=chromium|firefox|webkit] [--backend=js|wasm|wasm-simd]
// (a dist is a folder with esm/index.js, or that file; a filter keeps the
// cells whose name contains it). With --browser the same cells run in one
// page of that browser (tests/browsers/drivers.mjs), in batches of at least
// 40 ms, as browsers coarsen performance.now() to 0.1-1 ms. --backend= times
// that backend of both builds (createOps({ backend })), not the automatic one.
// Each build's cells come from a module instance of their own, so that the
// call sites of one build never see the other's ops (as in a user's program).
// Noise on a shared machine is a few per cent: rerun a cell that moves alone.
// For cells under about 1 us in Node, run it as `node --single-threaded
// bench/ab.mjs ...`: V8 then compiles on the main thread, and A/A runs agree
// within 2 % (with background compilation, 5-19 % at n = 16).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { table } from './ab-cells.mjs';

const args = process.argv.slice(2);
const browser = args.find((a) => a.startsWith('--browser='))?.slice('--browser='.length);
const backend = args.find((a) => a.startsWith('--backend='))?.slice('--backend='.length);
const options = backend ? { backend } : {};
const [A, B, filter] = args.filter((a) => !a.startsWith('--'));
if (!A || !B) {
  console.error('usage: node bench/ab.mjs <A dist> <B dist> [filter|filter...] [--browser=chromium|firefox|webkit] [--backend=js|wasm|wasm-simd]');
  process.exit(2);
}
const only = filter ? filter.split('|') : null;
const distOf = (p) => path.resolve(p.endsWith('.js') ? path.dirname(path.dirname(p)) : p);

if (!browser) {
  const [libA, libB] = [await import(pathToFileURL(path.join(distOf(A), 'esm', 'index.js')).href),
    await import(pathToFileURL(path.join(distOf(B), 'esm', 'index.js')).href)];
  const [opsA, opsB] = [await libA.createOps(options), await libB.createOps(options)];
  const [abA, abB] = [await import('./ab-cells.mjs?a'), await import('./ab-cells.mjs?b')];
  console.log(table(abA.compare(abA.cells(opsA, only), abB.cells(opsB, only))));
} else {
  const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { launch } = await import('../tests/browsers/drivers.mjs');
  const { serve } = await import('../tests/support/static-server.mjs');
  const server = await serve([['/a/', distOf(A)], ['/b/', distOf(B)], ['/bench/', path.join(root, 'bench')],
    ['/', path.join(root, 'bench', 'browser')]]);
  const b = await launch(browser);
  try {
    const page = await b.newPage();
    await page.goto(`${server.url}/page.html`);
    const rows = await page.evaluate(async ([filters, options]) => {
      const [libA, libB, abA, abB] = await Promise.all([import('/a/esm/index.js'), import('/b/esm/index.js'),
        import('/bench/ab-cells.mjs?a'), import('/bench/ab-cells.mjs?b')]);
      const [opsA, opsB] = [await libA.createOps(options), await libB.createOps(options)];
      return abA.compare(abA.cells(opsA, filters), abB.cells(opsB, filters), { batchMs: 40, rounds: 9 });
    }, [only, options]);
    console.log(`${b.version}\n${table(rows)}`);
    await page.close();
  } finally {
    await b.close();
    await server.close();
  }
}
