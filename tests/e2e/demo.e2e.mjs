// End-to-end tests of the demo page (demo/) in real browsers: headless Chromium, headless
// Firefox and WebKitGTK's MiniBrowser (on an Xvfb display of its own), every test in each.
//
//   npm run build                           # dist/ (the page imports /dist/esm/index.js)
//   node --test tests/e2e/demo.e2e.mjs
//
// Drives the browsers through tests/browsers/drivers.mjs, which says what each needs:
// Chromium (/usr/bin/chromium or CHROMIUM_PATH) with playwright-core (root devDependency);
// firefox-esr (or FIREFOX_PATH) with puppeteer-core from tests/engines/node_modules
// (npm --prefix tests/engines ci); WebKitWebDriver, MiniBrowser and Xvfb (Debian:
// webkit2gtk-driver, xvfb); onnxruntime-web in bench/node_modules (npm --prefix bench ci),
// which demo/serve.mjs serves at /ort/ for the benchmark panel's comparison. scripts/setup.sh
// installs all of them. Nothing is skipped: a missing browser, package or build fails
// the run. Each browser starts once and each test gets a fresh page (in WebKit a fresh
// MiniBrowser) and its own servers (port 0): demo/serve.mjs, behind a small pass-through
// front server that logs the requests and, for WebKit only, puts the drivers' capture script
// at the top of the HTML (WebDriver classic has no console or network events). A test fails
// on any problem the page reports: console error or warning, page error, unhandled
// rejection, failed request, HTTP status >= 400, or a request to another origin (see
// drivers.mjs for what Firefox and WebKit cannot report), but for the 404 of /ort/ that
// the test of the panel without onnxruntime-web provokes. Screenshots go to
// test-artifacts/e2e/<browser>/. The browsers run one after another.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../demo/serve.mjs';
import {
  BROWSERS, launch, needsCaptureScript, injectCaptureTag, CAPTURE_PATH, CAPTURE_SCRIPT,
  click, fill, selectOption, check, uncheck, waitFor, exists, textContent, getAttribute, isHidden, evalAll,
} from '../browsers/drivers.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/e2e/', import.meta.url));
const TEST_TIMEOUT = 45_000;

function checkPrerequisites() {
  assert.ok(existsSync(`${ROOT}dist/esm/index.js`), 'dist/esm/index.js is missing: run `npm run build` first');
}

/** One browser per name, started by its first test and closed after the last one. */
const browsers = new Map();
function browserFor(name) {
  if (!browsers.has(name)) browsers.set(name, launch(name));
  return browsers.get(name);
}
after(async () => {
  for (const b of browsers.values()) await (await b.catch(() => undefined))?.close();
});

/**
 * A pass-through server in front of the demo server: logs every request URL the browser
 * made, and with `inject` serves CAPTURE_PATH and puts CAPTURE_TAG into the HTML.
 */
function startFrontServer(target, { inject }) {
  const upstream = new URL(target.url);
  const requests = [];
  const sockets = new Set();
  let url;
  const server = http.createServer((req, res) => {
    requests.push(new URL(req.url, url).href);
    if (inject && new URL(req.url, url).pathname === CAPTURE_PATH) {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' });
      return res.end(CAPTURE_SCRIPT);
    }
    const up = http.request({
      host: upstream.hostname, port: upstream.port, method: req.method, path: req.url,
      headers: { ...req.headers, host: upstream.host },
    }, (ur) => {
      const headers = { ...ur.headers };
      for (const h of ['connection', 'keep-alive', 'transfer-encoding']) delete headers[h];
      if (inject && String(headers['content-type']).startsWith('text/html')) {
        const chunks = [];
        ur.on('data', (c) => chunks.push(c));
        ur.on('end', () => {
          const html = Buffer.from(injectCaptureTag(Buffer.concat(chunks).toString('utf8')));
          headers['content-length'] = html.length;
          res.writeHead(ur.statusCode, headers);
          res.end(req.method === 'HEAD' ? undefined : html);
        });
      } else {
        res.writeHead(ur.statusCode, headers);
        ur.pipe(res);
      }
    });
    up.on('error', (e) => {
      res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`front server: ${e.message}\n`);
    });
    req.pipe(up);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      url = `http://127.0.0.1:${server.address().port}/`;
      resolve({
        url,
        requests,
        close: () => new Promise((done) => {
          server.close(() => done());
          for (const s of sockets) s.destroy();
        }),
      });
    });
  });
}

/**
 * Starts the servers, opens the demo in a fresh page of `browserName`, waits until the
 * library is loaded, runs `fn(page, ctx)`, saves a screenshot `<browser>/<shot>.png`, and
 * fails on any problem the page reported on the way. The page and servers are closed
 * afterwards.
 */
async function withDemo(browserName, shot, fn, { ort = true, allowedProblems = [] } = {}) {
  checkPrerequisites();
  const dir = `${ARTIFACTS}${browserName}/`;
  mkdirSync(dir, { recursive: true });
  const demo = await startServer({ port: 0, ort });
  const server = await startFrontServer(demo, { inject: needsCaptureScript(browserName) });
  let page;
  let problems = [];
  try {
    const browser = await browserFor(browserName);
    page = await browser.newPage();
    await page.goto(server.url);
    await waitFor(page, 'body[data-ready="true"]');
    await fn(page, { server, requests: server.requests, dir });
    await page.screenshot(`${dir}${shot}.png`);
    await page.close(); // (in WebKit this also collects the last problems)
    problems = page.problems();
  } catch (e) {
    if (page) {
      await page.screenshot(`${dir}${shot}-FAILED.png`).catch(() => {});
      await page.close().catch(() => {});
      if (page.problems().length) e.message += `\nproblems reported by the page:\n  ${page.problems().join('\n  ')}`;
    }
    throw e;
  } finally {
    await server.close();
    await demo.close();
  }
  // allowedProblems: what a test provokes on purpose (not every browser reports it: see drivers.mjs).
  assert.deepEqual(problems.filter((p) => !allowedProblems.some((re) => re.test(p))), [], 'the page reported problems');
}

// ------------------------------------------------------------------ UI helpers

const cellTexts = (page, testid) =>
  evalAll(page, `[data-testid="${testid}"] td.cell`, (tds) => tds.map((td) => td.textContent.trim()));

/** A property of the first element matching `selector` (fails if there is none). */
const prop = (page, selector, name) => page.evaluate((sel, n) => {
  const el = document.querySelector(sel);
  if (!el) throw new Error(`no element matches ${sel}`);
  return el[n];
}, selector, name);

async function setOp(page, op) {
  await check(page, `[data-testid="op-${op.toLowerCase()}"]`);
}
async function setOpset(page, opset) {
  await selectOption(page, '[data-testid="opset"]', String(opset));
}
async function setDtype(page, dtype) {
  await selectOption(page, '[data-testid="dtype"]', dtype);
}
async function setInput(page, idx, shape, values) {
  await fill(page, `[data-testid="input-${idx}-shape"]`, shape);
  await fill(page, `[data-testid="input-${idx}-values"]`, values);
}
async function resultOk(page) {
  await waitFor(page, '[data-testid="result"][data-state="ok"]');
  assert.equal(await isHidden(page, '[data-testid="error"]'), true, 'no error is shown');
}
async function shownError(page) {
  await waitFor(page, '[data-testid="error"]:not([hidden])');
  return {
    code: (await textContent(page, '[data-testid="error-code"]')).trim(),
    message: (await textContent(page, '[data-testid="error-message"]')).trim(),
    resultState: await getAttribute(page, '[data-testid="result"]', 'data-state'),
  };
}
/** What the library itself says for a call, run inside the page (same module instance as the app's import). */
function libraryError(page, call) {
  return page.evaluate(async (src) => {
    const lib = await import('/dist/esm/index.js');
    const ops = await lib.createOps();
    try {
      new Function('ops', 'lib', src)(ops, lib);
      return null;
    } catch (e) {
      return { code: e.code, message: e.message, isOnnxOpsError: e instanceof lib.OnnxOpsError };
    }
  }, call);
}
/** Picks the benchmark panel's operator, dtype and size, runs it and waits until it is done. */
async function runBenchPanel(page, op, dtype, size) {
  await selectOption(page, '[data-testid="bench-op"]', op);
  await selectOption(page, '[data-testid="bench-dtype"]', dtype);
  await selectOption(page, '[data-testid="bench-size"]', size);
  await click(page, '[data-testid="bench-run"]');
  await waitFor(page, '[data-testid="bench-status"][data-state="done"]', { timeout: 30_000 });
}
/** The benchmark table's rows, in order, each matching the oracle (bench/oracle.mjs), and a bar with a throughput for each. */
async function assertBenchRows(page, names) {
  const rows = await evalAll(page, '[data-testid="bench-results"] tbody tr', (trs) =>
    trs.map((tr) => ({ name: tr.dataset.name, check: tr.querySelector('[data-testid="bench-check"]')?.textContent ?? tr.textContent })));
  assert.deepEqual(rows, names.map((name) => ({ name, check: 'matches the reference' })));
  const bars = await evalAll(page, '[data-testid="bench-svg"] rect[data-testid="bench-bar"]', (rs) => rs.map((r) => Number(r.dataset.rate)));
  assert.ok(bars.length === names.length && bars.every((r) => r > 0), `${names.length} bars with a throughput`);
}
/**
 * The sentence under the benchmark table: a fresh array of the result's size,
 * timed alone in the same run, against the plain call; "Fresh arrays dominate"
 * exactly when it took more than half of the plain call's time.
 */
async function assertFreshNote(page, n) {
  const text = (await textContent(page, '[data-testid="bench-fresh"]')).trim();
  const freshMs = Number(await getAttribute(page, '[data-testid="bench-fresh"]', 'data-fresh-ms'));
  const plainMs = Number(await getAttribute(page, '[data-testid="bench-fresh"]', 'data-plain-ms'));
  const dominates = await getAttribute(page, '[data-testid="bench-fresh"]', 'data-dominates');
  assert.ok(freshMs > 0 && plainMs > 0, `both timed: ${text}`);
  const plainCell = await evalAll(page, '[data-testid="bench-results"] tbody tr[data-name="onnx-ops-wasm"] td', (tds) => tds[1].textContent);
  assert.ok(text.includes(`plain call's ${plainCell}`), `the plain call's time is the table's (${plainCell}): ${text}`);
  assert.ok(text.includes(`of ${n.toLocaleString('en-US')} elements alone`), text);
  assert.equal(dominates, String(freshMs > plainMs / 2));
  if (freshMs > plainMs / 2) assert.match(text, /^Fresh arrays dominate what was measured: a fresh .* pass \{ out \} or keep tensors in wasm memory/);
  else assert.match(text, /^A fresh (?!.*dominate)/);
  return freshMs > plainMs / 2;
}
async function axisStates(page, idx) {
  return evalAll(page, `[data-testid="broadcast-input-${idx}"] .axis-box`, (els) => els.map((e) => e.dataset.state));
}

// ------------------------------------------------------------------ tests, in each browser

for (const browser of BROWSERS) {
  test(`[${browser}] the page loads offline from localhost, imports /dist/esm/index.js and shows SIMD on`, { timeout: TEST_TIMEOUT }, async () => {
    await withDemo(browser, '01-loaded', async (page, { requests, server }) => {
      assert.equal(await getAttribute(page, '[data-testid="load-status"]', 'data-state'), 'ready');
      assert.equal(await getAttribute(page, '[data-testid="simd-status"]', 'data-simd'), 'true');
      assert.equal((await textContent(page, '[data-testid="simd-status"]')).trim(), 'WASM SIMD: on');
      assert.ok(requests.includes(`${server.url}dist/esm/index.js`), 'the library is imported from /dist/esm/index.js');

      // The opset resolves to an operator version, and the dtype list follows it.
      await setOp(page, 'Max');
      await setOpset(page, 7);
      assert.equal((await textContent(page, '[data-testid="op-version"]')).trim(), 'Max-6');
      await setOpset(page, 11);
      assert.equal((await textContent(page, '[data-testid="op-version"]')).trim(), 'Max-8');
      const opts = await evalAll(page, '[data-testid="dtype"] option', (os) => os.map((o) => ({ v: o.value, disabled: o.disabled, text: o.textContent })));
      assert.equal(opts.length, 12, 'every dtype is listed');
      assert.deepEqual(opts.filter((o) => !o.disabled).map((o) => o.v).sort(), ['float16', 'float32', 'float64']);
      assert.match(opts.find((o) => o.v === 'int8').text, /int8 needs opset >= 12/);
      assert.match(opts.find((o) => o.v === 'bfloat16').text, /bfloat16 needs opset >= 13/);
      await setOp(page, 'Relu');
      await setOpset(page, 18);
      assert.equal((await textContent(page, '[data-testid="op-version"]')).trim(), 'Relu-14');
      const uint8Sel = '[data-testid="dtype"] option[value="uint8"]';
      const uint8 = { disabled: await prop(page, uint8Sel, 'disabled'), text: await prop(page, uint8Sel, 'textContent') };
      assert.equal(uint8.disabled, true);
      assert.match(uint8.text, /Relu never takes uint8/);
    });
  });

  test(`[${browser}] Max broadcasts [2,3] with [3] (and a third input [2,1]) and shows the right values and stretched axes`, { timeout: TEST_TIMEOUT }, async () => {
    await withDemo(browser, '02-max-broadcast', async (page, { dir }) => {
      await setOp(page, 'Max');
      await setOpset(page, 13);
      await setDtype(page, 'float32');
      // Start from exactly two inputs.
      while (await exists(page, '[data-testid="input-2"]')) await click(page, '[data-testid="input-2-remove"]');
      if (!(await exists(page, '[data-testid="input-1"]'))) await click(page, '[data-testid="add-input"]');
      await setInput(page, 0, '2,3', '1, -2, 3\n-4, 5, -6');
      await setInput(page, 1, '3', '0 2.5 -1');
      await resultOk(page);
      assert.equal(await textContent(page, '[data-testid="result-shape"]'), '[2,3]');
      assert.deepEqual(await cellTexts(page, 'result-grid'), ['1', '2.5', '3', '0', '5', '-1']);
      assert.deepEqual(await cellTexts(page, 'input-0-grid'), ['1', '-2', '3', '-4', '5', '-6']);
      assert.deepEqual(await axisStates(page, 0), ['kept', 'kept']);
      assert.deepEqual(await axisStates(page, 1), ['new', 'kept']);

      // Add a third input of shape [2,1]: it is stretched along axis 1.
      await click(page, '[data-testid="add-input"]');
      await waitFor(page, '[data-testid="input-2"]');
      await setInput(page, 2, '2,1', '10 -10');
      await resultOk(page);
      assert.deepEqual(await cellTexts(page, 'result-grid'), ['10', '10', '10', '0', '5', '-1']);
      assert.deepEqual(await axisStates(page, 2), ['kept', 'stretched']);
      assert.equal(await getAttribute(page, '[data-testid="broadcast-input-2"]', 'data-stretched'), '1');
      // Rank 3: input 0 becomes [2,1,3]; the result is shown as 2 slices of [2,3].
      await setInput(page, 0, '2,1,3', '1 -2 3 -4 5 -6');
      await resultOk(page);
      assert.equal(await textContent(page, '[data-testid="result-shape"]'), '[2,2,3]');
      assert.equal(await evalAll(page, '[data-testid="result-grid"] .slice', (s) => s.length), 2);
      assert.deepEqual(await cellTexts(page, 'result-grid'), ['10', '10', '10', '1', '2.5', '3', '10', '10', '10', '0', '5', '-1']);
      assert.deepEqual(await axisStates(page, 0), ['kept', 'stretched', 'kept']);
      await page.screenshot(`${dir}02-max-broadcast-3-inputs.png`);

      // Remove it again: back to the two-input result.
      await setInput(page, 0, '2,3', '1, -2, 3\n-4, 5, -6');
      await click(page, '[data-testid="input-2-remove"]');
      await resultOk(page);
      assert.equal(await exists(page, '[data-testid="input-2"]'), false);
      assert.deepEqual(await cellTexts(page, 'result-grid'), ['1', '2.5', '3', '0', '5', '-1']);
    });
  });

  test(`[${browser}] Relu on int8 works at opset 14 and shows the library's DTYPE_NOT_ALLOWED error at opset 13`, { timeout: TEST_TIMEOUT }, async () => {
    await withDemo(browser, '03-relu-int8', async (page, { dir }) => {
      const int8 = '[data-testid="dtype"] option[value="int8"]';
      await setOp(page, 'Relu');
      await setOpset(page, 14);
      assert.equal(await prop(page, int8, 'disabled'), false);
      await setDtype(page, 'int8');
      await setInput(page, 0, '2,3', '-128 -1 0\n1 127 -5');
      await resultOk(page);
      assert.equal((await textContent(page, '[data-testid="op-version"]')).trim(), 'Relu-14');
      assert.equal(await textContent(page, '[data-testid="result-dtype"]'), 'int8');
      assert.deepEqual(await cellTexts(page, 'result-grid'), ['0', '0', '0', '1', '127', '0']);
      await page.screenshot(`${dir}03-relu-int8-opset14.png`);

      // Opset 13 does not allow int8: the dtype stays selected and the call runs anyway.
      await setOpset(page, 13);
      const err = await shownError(page);
      assert.equal(err.code, 'DTYPE_NOT_ALLOWED');
      assert.equal(err.resultState, 'error');
      assert.match(err.message, /int8 is not allowed by Relu-13/);
      assert.match(err.message, /int8 needs opset >= 14/);
      const lib = await libraryError(page, "ops.relu({ dtype: 'int8', shape: [2,3], data: new Int8Array([-128,-1,0,1,127,-5]) }, { opset: 13 })");
      assert.deepEqual({ code: err.code, message: err.message }, { code: lib.code, message: lib.message }, 'shown exactly as the library reports it');
      assert.equal(lib.isOnnxOpsError, true);
      assert.equal(await prop(page, '[data-testid="dtype"]', 'value'), 'int8');
      assert.equal(await prop(page, int8, 'disabled'), true);
      assert.match(await textContent(page, '[data-testid="dtype-note"]'), /int8 is not allowed here/);

      // The checkbox lets a visitor pick disallowed dtypes on purpose.
      await check(page, '[data-testid="allow-disallowed"]');
      assert.equal(await prop(page, '[data-testid="dtype"] option[value="int16"]', 'disabled'), false);
      await setDtype(page, 'int16');
      assert.equal((await shownError(page)).code, 'DTYPE_NOT_ALLOWED');
      assert.match((await shownError(page)).message, /dtype int16 is not allowed by Relu-13/);
      await uncheck(page, '[data-testid="allow-disallowed"]');
      await setDtype(page, 'float32');
      await resultOk(page);
      await setOpset(page, 14);
      await setDtype(page, 'int8');

      // Back to 14: the error goes away.
      await setOpset(page, 14);
      await resultOk(page);
      assert.deepEqual(await cellTexts(page, 'result-grid'), ['0', '0', '0', '1', '127', '0']);
      await setOpset(page, 13);
      await shownError(page);
    });
  });

  test(`[${browser}] incompatible shapes [2,3] and [4] show the BROADCAST_MISMATCH error; Max-6 shows SHAPE_MISMATCH`, { timeout: TEST_TIMEOUT }, async () => {
    await withDemo(browser, '04-broadcast-error', async (page, { dir }) => {
      await setOp(page, 'Max');
      await setOpset(page, 13);
      await setDtype(page, 'float32');
      while (await exists(page, '[data-testid="input-2"]')) await click(page, '[data-testid="input-2-remove"]');
      await setInput(page, 0, '2,3', '1 2 3 4 5 6');
      await setInput(page, 1, '4', '0 0 0 0');
      const err = await shownError(page);
      assert.equal(err.code, 'BROADCAST_MISMATCH');
      assert.equal(err.resultState, 'error');
      assert.equal(err.message, "Max: input 1: shape [4] does not broadcast with input 0's shape [2,3] (axis -1: 4 vs 3) [BROADCAST_MISMATCH]");
      const lib = await libraryError(page, "const f = (s) => ({ dtype: 'float32', shape: s, data: new Float32Array(s.reduce((a, b) => a * b, 1)) }); ops.max([f([2,3]), f([4])], { opset: 13 })");
      assert.equal(err.message, lib.message);
      assert.match(await getAttribute(page, '[data-testid="input-1"]', 'class'), /lib-error/, 'the input the error names is marked');
      assert.equal(await evalAll(page, '[data-testid="broadcast"] .axis-box', (b) => b.length), 0, 'no broadcast picture for a failed call');
      await page.screenshot(`${dir}04-broadcast-mismatch.png`);

      // Before opset 8 Max does not broadcast at all.
      await setInput(page, 1, '3', '0 0 0');
      await resultOk(page);
      await setOpset(page, 7);
      const old = await shownError(page);
      assert.equal(old.code, 'SHAPE_MISMATCH');
      assert.match(old.message, /Max-6 needs inputs of one shape/);

      // Too few values for the shape: the library's DATA_LENGTH error.
      await setOpset(page, 13);
      await setInput(page, 1, '3', '0 0');
      const short = await shownError(page);
      assert.equal(short.code, 'DATA_LENGTH');
    });
  });

  test(`[${browser}] float16, bfloat16 and int64 results are shown as decoded numbers and exact BigInts`, { timeout: TEST_TIMEOUT }, async () => {
    await withDemo(browser, '05-dtypes', async (page) => {
      await setOp(page, 'Relu');
      await setOpset(page, 14);
      await setDtype(page, 'float16');
      await setInput(page, 0, '6', '-1.5 0.1 65504 -inf nan 70000');
      await resultOk(page);
      assert.deepEqual(await cellTexts(page, 'result-grid'), ['0', '0.1', '65504', '0', 'NaN', 'Inf']);
      assert.match(await getAttribute(page, '[data-testid="result-grid"] td.cell[data-index="1"]', 'title'), /0\.0999755859375 \(bits 0x2e66\)/);

      await setDtype(page, 'bfloat16');
      await setInput(page, 0, '2', '-2 3.14159');
      await resultOk(page);
      assert.deepEqual(await cellTexts(page, 'result-grid'), ['0', '3.14']);
      assert.match(await getAttribute(page, '[data-testid="result-grid"] td.cell[data-index="1"]', 'title'), /^3\.140625 /);

      await setOp(page, 'Max');
      await setOpset(page, 13);
      await setDtype(page, 'int64');
      while (await exists(page, '[data-testid="input-2"]')) await click(page, '[data-testid="input-2-remove"]');
      await setInput(page, 0, '3', '9007199254740993 -9223372036854775808 5');
      await setInput(page, 1, '1', '9007199254740992');
      await resultOk(page);
      assert.deepEqual(await cellTexts(page, 'result-grid'), ['9007199254740993', '9007199254740992', '9007199254740992']);
      await setDtype(page, 'uint64');
      await setInput(page, 0, '2', '18446744073709551615 0');
      await setInput(page, 1, '', '1');
      await resultOk(page);
      assert.deepEqual(await cellTexts(page, 'result-grid'), ['18446744073709551615', '1']);
    });
  });

  test(`[${browser}] the benchmark panel times the library against a JS loop and draws an SVG bar chart`, { timeout: TEST_TIMEOUT }, async () => {
    await withDemo(browser, '06-benchmark', async (page) => {
      assert.equal((await textContent(page, '[data-testid="bench-simd"]')).trim(), 'ops.simd = true');
      assert.equal(await getAttribute(page, '[data-testid="bench-ort"]', 'data-present'), 'false', 'onnxruntime-web is not bundled');
      await runBenchPanel(page, 'Max', 'float32', '10000');
      const bars = await evalAll(page, '[data-testid="bench-svg"] rect[data-testid="bench-bar"]', (rs) =>
        rs.map((r) => ({ name: r.dataset.name, width: Number(r.getAttribute('width')), rate: Number(r.dataset.rate) })));
      assert.deepEqual(bars.map((b) => b.name), ['onnx-ops-wasm', 'onnx-ops-wasm zero-copy', 'plain JS loop']);
      for (const b of bars) {
        assert.ok(b.width > 0, `${b.name} has a visible bar`);
        assert.ok(b.rate > 0, `${b.name} has a throughput`);
      }
      const checks = await evalAll(page, '[data-testid="bench-check"]', (tds) => tds.map((td) => td.textContent));
      assert.deepEqual(checks, ['matches the reference', 'matches the reference', 'matches the reference']);
      assert.match(await textContent(page, '[data-testid="bench-status"]'), /onnxruntime-web was not included \(tick "compare with onnxruntime-web"\)/);
      assert.match(await textContent(page, '[data-testid="bench-status"]'), /0 live allocations/);
      await assertFreshNote(page, 10000);
      const gaps = (await textContent(page, '[data-testid="bench-gaps"]')).trim();
      assert.ok(Number(await getAttribute(page, '[data-testid="bench-gaps"]', 'data-sync-gap-ms')) > 0, gaps);
      assert.equal(await getAttribute(page, '[data-testid="bench-gaps"]', 'data-worker-gap-ms'), null, 'no worker call unless ticked');
      assert.match(gaps, /^Longest gap between this page's frames during one call: sync plain call [\d.]+ ms \(the call took [\d.]+ ms\); tick "also run in a worker"/);
      // a size where the fresh array's pages weigh more; which side it falls on is the machine's
      await runBenchPanel(page, 'Relu', 'float32', '1000000');
      await assertFreshNote(page, 1000000);
    });
  });

  test(`[${browser}] "also run in a worker" times the worker form, and the page's frames go on during its call`, { timeout: TEST_TIMEOUT }, async () => {
    await withDemo(browser, '09-benchmark-worker', async (page, { server, requests }) => {
      const at = () => page.evaluate(() => document.querySelector('[data-testid="bench-pulse"]').style.transform);
      const x0 = await at();
      await new Promise((r) => setTimeout(r, 300));
      assert.notEqual(await at(), x0, 'the indicator moves on its own');
      await check(page, '[data-testid="bench-worker"]');
      await runBenchPanel(page, 'Max', 'float32', '1000000');
      await assertBenchRows(page, ['onnx-ops-wasm', 'onnx-ops-wasm zero-copy', 'onnx-ops-wasm worker', 'plain JS loop']);
      const gaps = (await textContent(page, '[data-testid="bench-gaps"]')).trim();
      assert.equal(await getAttribute(page, '[data-testid="bench-gaps"]', 'data-ok'), 'true', gaps);
      for (const k of ['data-sync-gap-ms', 'data-worker-gap-ms', 'data-frame-ms']) {
        assert.ok(Number(await getAttribute(page, '[data-testid="bench-gaps"]', k)) > 0, `${k}: ${gaps}`);
      }
      assert.match(gaps, /sync plain call [\d.]+ ms \(the call took [\d.]+ ms\); worker form with \{ transfer: true \} [\d.]+ ms \(the call took [\d.]+ ms\)\. The page draws a frame every [\d.]+ ms when idle\.$/);
      // the library's own worker file, from the page's origin (no blob: URL)
      assert.ok(requests.includes(`${server.url}dist/esm/onnx-ops-wasm-worker.js`), 'the worker came from /dist/esm/');
      assert.match(await textContent(page, '[data-testid="bench-status"]'), /done/);
    });
  });

  test(`[${browser}] "compare with onnxruntime-web" loads it from /ort/ and shows it beside ours, checked bit for bit`, { timeout: TEST_TIMEOUT }, async () => {
    await withDemo(browser, '07-benchmark-ort', async (page, { server, requests }) => {
      assert.equal(await getAttribute(page, '[data-testid="bench-ort"]', 'data-present'), 'false', 'not loaded before it is asked for');
      await check(page, '[data-testid="bench-ort-include"]');
      await waitFor(page, '[data-testid="bench-ort"]:not([data-present="loading"])', { timeout: 30_000 });
      const badge = (await textContent(page, '[data-testid="bench-ort"]')).trim();
      // bench/node_modules (scripts/setup.sh installs it) holds the copy demo/serve.mjs serves
      assert.equal(await getAttribute(page, '[data-testid="bench-ort"]', 'data-present'), 'true', `onnxruntime-web did not load: ${badge}`);
      assert.match(badge, /^onnxruntime-web 1\.\d+\.\d+: loaded from \/ort\/ort\.wasm\.min\.mjs$/);
      await runBenchPanel(page, 'Relu', 'float32', '1000');
      await assertBenchRows(page, ['onnx-ops-wasm', 'onnx-ops-wasm zero-copy', 'plain JS loop', 'onnxruntime-web']);
      assert.doesNotMatch(await textContent(page, '[data-testid="bench-status"]'), /onnxruntime-web was/);
      await assertFreshNote(page, 1000);
      assert.ok(requests.includes(`${server.url}ort/ort.wasm.min.mjs`), 'imported from /ort/');
      assert.ok(requests.some((u) => u.startsWith(`${server.url}ort/`) && u.endsWith('.wasm')), 'its wasm came from /ort/ too');
    });
  });

  test(`[${browser}] "compare with onnxruntime-web" where /ort/ is not served says how to serve it, and the panel still runs`, { timeout: TEST_TIMEOUT }, async () => {
    await withDemo(browser, '08-benchmark-ort-missing', async (page, { server, requests }) => {
      await check(page, '[data-testid="bench-ort-include"]');
      await waitFor(page, '[data-testid="bench-ort"]:not([data-present="loading"])', { timeout: 30_000 });
      assert.equal(await getAttribute(page, '[data-testid="bench-ort"]', 'data-present'), 'false');
      assert.match(await textContent(page, '[data-testid="bench-ort"]'), /not served at \/ort\/: install it \(npm --prefix bench ci\) and restart demo\/serve\.mjs/);
      assert.ok(requests.includes(`${server.url}ort/ort.wasm.min.mjs`), 'it was asked for at /ort/');
      await runBenchPanel(page, 'Max', 'float32', '1000');
      const checks = await evalAll(page, '[data-testid="bench-check"]', (tds) => tds.map((td) => td.textContent));
      assert.deepEqual(checks, ['matches the reference', 'matches the reference', 'matches the reference']);
    }, { ort: false, allowedProblems: [/ort\/ort\.wasm\.min\.mjs/, /^console error: Failed to load resource: the server responded with a status of 404/] });
  });
}

// ------------------------------------------------------------------ no browser

test('serve.mjs serves demo/, dist/, bench/ and the oracle with the right MIME types and nothing outside them', { timeout: TEST_TIMEOUT }, async () => {
  checkPrerequisites();
  const server = await startServer({ port: 0 });
  try {
    const type = async (path) => {
      const r = await fetch(new URL(path, server.url));
      await r.arrayBuffer();
      return [r.status, r.headers.get('content-type')];
    };
    const raw = (path) => new Promise((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: server.port, path }, (res) => { res.resume(); resolve(res.statusCode); }).on('error', reject);
    });
    assert.deepEqual(await type('/'), [200, 'text/html; charset=utf-8']);
    assert.deepEqual(await type('/app.js'), [200, 'text/javascript; charset=utf-8']);
    assert.deepEqual(await type('/style.css'), [200, 'text/css; charset=utf-8']);
    assert.deepEqual(await type('/dist/esm/index.js'), [200, 'text/javascript; charset=utf-8']);
    assert.equal((await type('/nope.js'))[0], 404);
    // the bench panel's modules, and the oracle served as JavaScript (types stripped)
    assert.deepEqual(await type('/bench/rounds.mjs'), [200, 'text/javascript; charset=utf-8']);
    assert.deepEqual(await type('/tests/portable/reference.ts'), [200, 'text/javascript; charset=utf-8']);
    const oracle = await (await fetch(new URL('/tests/portable/reference.ts', server.url))).text();
    assert.match(oracle, /function refMax\(inputs\) \{/, 'served without its types');
    assert.equal(await raw('/tests/package/run.mjs'), 404, 'only tests/portable/ is served');
    // Raw paths (fetch would normalize the dots away): nothing outside demo/ and dist/.
    assert.equal(await raw('/../package.json'), 404);
    assert.equal(await raw('/dist/../package.json'), 404);
    assert.equal(await raw('/dist/%2e%2e/package.json'), 404);
    assert.equal(await raw('/..%2fpackage.json'), 404);
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
  } finally {
    await server.close();
  }
});
