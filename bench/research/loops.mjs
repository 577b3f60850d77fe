// What each engine's own code reaches for the zero-copy workloads: the bare
// 128-bit loops of bench/research/kernels.cpp (vcopy: loads and stores only; pmax: Max
// without NaN or signed-zero order) and the library's Relu and Max kernels
// called directly in that module, beside the library's zero-copy call, each
// as a share of memory.copy of the same traffic, float32, all in one page (or
// process), interleaved in rounds. Where the zero-copy call trails copy, the
// bare loop in the same run shows whether the engine's loop itself does.
//   node bench/research/loops.mjs [--browsers=chromium,firefox,webkit] [--node] [--rounds=9]
// Needs npm run build (dist/ and build/wasm/bench/bench-kernels.cjs). Prints a
// Markdown table and writes bench/results/loops.{md,json}. Pages import runLoops from this
// file too, so Node's modules are loaded only by the driver.

/** The rows of one engine: for each n, µs per call and % of copy. Runs in a page or in Node. */
export async function runLoops({ createBenchKernels, createOps, createCopyLimit, timeRounds, sizes = [1e6, 4e6], rounds = 9, batchMs = 40 }) {
  const M = await createBenchKernels();
  const ops = await createOps();
  const copy = await createCopyLimit();
  const rows = [];
  for (const n of sizes) {
    const [a, b, o] = [0, 1, 2].map(() => M._bench_alloc(n * 4)); // all before any view: allocation may grow memory
    const heap = () => new Float32Array(M.HEAPU8.buffer);
    const x = new Float32Array(n), y = new Float32Array(n);
    for (let i = 0; i < n; i++) { x[i] = Math.sin(i) * 3; y[i] = Math.cos(i) * 3; } // no NaN, no zero
    heap().set(x, a / 4);
    heap().set(y, b / 4);
    const tx = ops.tensor('float32', [n], x), ty = ops.tensor('float32', [n], y), tout = ops.tensor('float32', [n]);
    const relu = x.map((v) => Math.max(v, 0)), max = x.map((v, i) => Math.max(v, y[i]));
    try {
      // memory.copy in each of its placements (peers.mjs): the fastest is the limit, as in run.mjs.
      const copies = (bytes, id) => [0, 1, 2].map((k) => ({ id: `${id} ${k}`, bytes: 0, fn: copy.prepare(bytes, k) }));
      const cols = [
        ...copies(n * 4, 'copy'),
        { id: 'vcopy', bytes: 2, fn: () => M._bench_vcopy_f32(n, a, o), want: x },
        { id: 'relu kernel', bytes: 2, fn: () => M._bench_relu_f32(n, a, o), want: relu },
        { id: 'relu zero-copy', bytes: 2, fn: () => ops.relu(tx, { out: tout }), want: relu, lib: true },
        ...copies(n * 6, 'copy (Max-2 traffic)'),
        { id: 'pmax', bytes: 3, fn: () => M._bench_pmax_f32(n, a, b, o), want: max },
        { id: 'max kernel', bytes: 3, fn: () => M._bench_max_f32(n, a, b, o), want: max },
        { id: 'max2 zero-copy', bytes: 3, fn: () => ops.max([tx, ty], { out: tout }), want: max, lib: true },
      ];
      for (const c of cols.filter((k) => k.want)) {
        c.fn();
        const got = c.lib ? tout.data : heap().subarray(o / 4, o / 4 + n);
        for (let i = 0; i < n; i++) {
          if (!Object.is(got[i], Math.fround(c.want[i]))) throw new Error(`${c.id} n=${n}: element ${i} is ${got[i]}, want ${c.want[i]}`);
        }
      }
      const t = await timeRounds(cols.map((c) => ({ id: c.id, fn: c.fn })), { rounds, batchMs });
      const row = { n, us: {}, ofCopy: {} };
      for (const id of ['copy', 'copy (Max-2 traffic)']) row.us[id] = Math.min(...[0, 1, 2].map((k) => t[`${id} ${k}`].median_us));
      for (const c of cols.filter((k) => k.want)) {
        row.us[c.id] = t[c.id].median_us;
        row.ofCopy[c.id] = row.us[c.bytes === 2 ? 'copy' : 'copy (Max-2 traffic)'] / t[c.id].median_us;
      }
      rows.push(row);
    } finally {
      tx.dispose(); ty.dispose(); tout.dispose();
    }
  }
  return rows;
}

// ---------------------------------------------------------------- the driver
async function main() {
  const [{ default: fs }, { default: path }, { fileURLToPath, pathToFileURL }, { finishMachine, headerLines, machine, writeResults }, { cliOption }] =
    await Promise.all([import('node:fs'), import('node:path'), import('node:url'), import('../machine.mjs'),
      import('../common.mjs')]);
  const start = machine();
  const BENCH = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
  const ROOT = path.join(BENCH, '..');
  const KERNELS = path.join(ROOT, 'build', 'wasm', 'bench', 'bench-kernels.cjs');
  const argv = process.argv.slice(2);
  const opt = (name, dflt) => cliOption(argv, name, dflt);
  const browsers = String(opt('browsers', 'chromium,firefox,webkit')).split(',').filter(Boolean);
  const rounds = Number(opt('rounds', 9));
  for (const f of [KERNELS, path.join(ROOT, 'dist', 'esm', 'index.js')]) {
    if (!fs.existsSync(f)) throw new Error(`${path.relative(ROOT, f)} is missing: run npm run build`);
  }
  const results = [];
  if (opt('node', false)) {
    const { createRequire } = await import('node:module');
    const { createOps } = await import(pathToFileURL(path.join(ROOT, 'dist', 'esm', 'index.js')).href);
    const { createCopyLimit } = await import('../peers.mjs');
    const { timeRounds } = await import('../rounds.mjs');
    const createBenchKernels = createRequire(import.meta.url)(KERNELS);
    const { measurePageCost } = await import('../page-cost.mjs');
    results.push({ engine: `Node ${process.version}`, rows: await runLoops({ createBenchKernels, createOps, createCopyLimit, timeRounds, rounds }), pageCost: await measurePageCost() });
  }
  const { launch } = await import('../../tests/browsers/drivers.mjs');
  const { serve } = await import('../../tests/support/static-server.mjs');
  const server = await serve([['/dist/', path.join(ROOT, 'dist')], ['/kernels/', path.dirname(KERNELS)],
    ['/bench/', BENCH], ['/tests/portable/', path.join(ROOT, 'tests', 'portable')], ['/', path.join(BENCH, 'browser')]]);
  try {
    for (const name of browsers) {
      const b = await launch(name);
      try {
        const page = await b.newPage();
        await page.goto(`${server.url}/blank.html`);
        const { rows, pageCost } = await page.evaluate(async (r) => {
          // The Emscripten glue is a classic script that defines createBenchKernels.
          const glue = await (await fetch('/kernels/bench-kernels.cjs')).text();
          const createBenchKernels = new Function(`${glue}\nreturn createBenchKernels;`)();
          const [{ createOps }, { createCopyLimit }, { timeRounds }, { runLoops: run }, { measurePageCost }] = await Promise.all([
            import('/dist/esm/index.js'), import('/bench/peers.mjs'), import('/bench/rounds.mjs'), import('/bench/research/loops.mjs'), import('/bench/page-cost.mjs')]);
          return { rows: await run({ createBenchKernels, createOps, createCopyLimit, timeRounds, rounds: r }), pageCost: await measurePageCost() };
        }, rounds);
        const problems = page.problems();
        if (problems.length) throw new Error(`${name}: ${problems.join('; ')}`);
        results.push({ engine: b.version, rows, pageCost });
        await page.close();
      } finally {
        await b.close();
      }
    }
  } finally {
    await server.close();
  }
  const pct = (x) => `${Math.round(100 * x)} %`;
  const cols = ['vcopy', 'relu kernel', 'relu zero-copy', 'pmax', 'max kernel', 'max2 zero-copy'];
  const meta = finishMachine({ ...start, rounds, engines: results.map((r) => r.engine) });
  const L = [...headerLines(meta, {
    title: 'The engines\' own loops against memory.copy', script: 'research/loops.mjs', pageCost: null,
    rows: [['engines', meta.engines.join('; ')], ['timing', `float32, median of ${rounds} interleaved rounds of batches of at least 40 ms`]],
  }),
  'Each column as a share of `memory.copy` of the same traffic (Relu: n elements in, n out; ' +
    'Max-2: 2n in, n out; the fastest of three placements), µs of the copy in brackets.', '',
    `| engine | n | ${cols.join(' | ')} |`, `|---|---:|${cols.map(() => '---:').join('|')}|`];
  for (const { engine, rows } of results) {
    for (const r of rows) {
      // The bare loops also show the µs of the copy they are a share of.
      L.push(`| ${engine} | ${r.n.toExponential(0).replace('+', '')} | ${cols.map((c) =>
        `${pct(r.ofCopy[c])}${c === 'vcopy' || c === 'pmax' ? ` (${(r.ofCopy[c] * r.us[c]).toFixed(0)} µs)` : ''}`).join(' | ')} |`);
    }
  }
  const { pageCostCell, pageCostWarning } = await import('../page-cost.mjs');
  L.push('', 'Fresh memory, measured in the same page or process after the loops:', '');
  for (const { engine, pageCost } of results) {
    L.push(`- ${engine}: ${pageCostCell([pageCost])}`);
    if (pageCostWarning(pageCost, engine)) console.warn(pageCostWarning(pageCost, engine));
  }
  const md = `${L.join('\n')}\n`;
  writeResults(path.join(BENCH, 'results', 'loops'), { meta, results }, md);
  console.log(md);
}

if (typeof process !== 'undefined' && process.argv?.[1] && import.meta.url.endsWith(`/${process.argv[1].split('/').pop()}`)) {
  await main();
}
