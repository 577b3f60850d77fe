// End-to-end tests of the demo page (demo/) in real headless Chromium.
//
//   npm run build                           # dist/ (the page imports /dist/esm/index.js)
//   node --test tests/e2e/demo.e2e.mjs
//
// Needs Chromium (Debian: apt-get install -y chromium; another binary: CHROMIUM_PATH)
// and the playwright-core package. Nothing is skipped: a missing browser, package
// or build fails the run. Each test starts its own server (port 0) and browser,
// fails on any console error or warning, page error, failed request or request
// off this machine, and saves a screenshot to test-artifacts/e2e/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../demo/serve.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/e2e/', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
];
const TEST_TIMEOUT = 45_000;

function checkPrerequisites() {
  assert.ok(existsSync(CHROMIUM),
    `Chromium not found at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`);
  assert.ok(existsSync(`${ROOT}dist/esm/index.js`), 'dist/esm/index.js is missing: run `npm run build` first');
}

/**
 * Starts the server and Chromium, opens the demo, waits until the library is
 * loaded, runs `fn(page, ctx)`, saves a screenshot `<shot>.png`, and fails on
 * any problem the page reported on the way. Everything is closed afterwards.
 */
async function withDemo(shot, fn) {
  checkPrerequisites();
  mkdirSync(ARTIFACTS, { recursive: true });
  const server = await startServer({ port: 0 });
  const origin = new URL(server.url).origin;
  const problems = [];
  const requests = [];
  let browser;
  let page;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(15_000);
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => {
      requests.push(r.url());
      const u = new URL(r.url());
      if (!['data:', 'blob:'].includes(u.protocol) && u.origin !== origin) problems.push(`request off this machine: ${r.url()}`);
    });
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()} for ${r.url()}`);
    });

    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]');
    await fn(page, { server, requests });
    await page.screenshot({ path: `${ARTIFACTS}${shot}.png`, fullPage: true });
  } catch (e) {
    if (page) await page.screenshot({ path: `${ARTIFACTS}${shot}-FAILED.png`, fullPage: true }).catch(() => {});
    if (problems.length) e.message += `\nproblems reported by the page:\n  ${problems.join('\n  ')}`;
    throw e;
  } finally {
    await browser?.close();
    await server.close();
  }
  assert.deepEqual(problems, [], 'the page reported problems');
}

// ------------------------------------------------------------------ UI helpers

const cellTexts = (page, testid) =>
  page.$$eval(`[data-testid="${testid}"] td.cell`, (tds) => tds.map((td) => td.textContent.trim()));

async function setOp(page, op) {
  await page.check(`[data-testid="op-${op.toLowerCase()}"]`);
}
async function setOpset(page, opset) {
  await page.selectOption('[data-testid="opset"]', String(opset));
}
async function setDtype(page, dtype) {
  await page.selectOption('[data-testid="dtype"]', dtype);
}
async function setInput(page, idx, shape, values) {
  await page.fill(`[data-testid="input-${idx}-shape"]`, shape);
  await page.fill(`[data-testid="input-${idx}-values"]`, values);
}
async function resultOk(page) {
  await page.waitForSelector('[data-testid="result"][data-state="ok"]');
  assert.equal(await page.isHidden('[data-testid="error"]'), true, 'no error is shown');
}
async function shownError(page) {
  await page.waitForSelector('[data-testid="error"]:not([hidden])');
  return {
    code: (await page.textContent('[data-testid="error-code"]')).trim(),
    message: (await page.textContent('[data-testid="error-message"]')).trim(),
    resultState: await page.getAttribute('[data-testid="result"]', 'data-state'),
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
async function axisStates(page, idx) {
  return page.$$eval(`[data-testid="broadcast-input-${idx}"] .axis-box`, (els) => els.map((e) => e.dataset.state));
}

// ------------------------------------------------------------------ tests

test('the page loads offline from localhost, imports /dist/esm/index.js and shows SIMD on', { timeout: TEST_TIMEOUT }, async () => {
  await withDemo('01-loaded', async (page, { requests, server }) => {
    assert.equal(await page.getAttribute('[data-testid="load-status"]', 'data-state'), 'ready');
    assert.equal(await page.getAttribute('[data-testid="simd-status"]', 'data-simd'), 'true');
    assert.equal((await page.textContent('[data-testid="simd-status"]')).trim(), 'WASM SIMD: on');
    assert.ok(requests.includes(`${server.url}dist/esm/index.js`), 'the library is imported from /dist/esm/index.js');
    assert.ok(requests.includes(`${server.url}dist/esm/wasm/onnx-ops-wasm.js`));

    // The opset resolves to an operator version, and the dtype list follows it.
    await setOp(page, 'Max');
    await setOpset(page, 7);
    assert.equal((await page.textContent('[data-testid="op-version"]')).trim(), 'Max-6');
    await setOpset(page, 11);
    assert.equal((await page.textContent('[data-testid="op-version"]')).trim(), 'Max-8');
    const opts = await page.$$eval('[data-testid="dtype"] option', (os) => os.map((o) => ({ v: o.value, disabled: o.disabled, text: o.textContent })));
    assert.equal(opts.length, 12, 'every dtype is listed');
    assert.deepEqual(opts.filter((o) => !o.disabled).map((o) => o.v).sort(), ['float16', 'float32', 'float64']);
    assert.match(opts.find((o) => o.v === 'int8').text, /int8 needs opset >= 12/);
    assert.match(opts.find((o) => o.v === 'bfloat16').text, /bfloat16 needs opset >= 13/);
    await setOp(page, 'Relu');
    await setOpset(page, 18);
    assert.equal((await page.textContent('[data-testid="op-version"]')).trim(), 'Relu-14');
    const uint8 = await page.$eval('[data-testid="dtype"] option[value="uint8"]', (o) => ({ disabled: o.disabled, text: o.textContent }));
    assert.equal(uint8.disabled, true);
    assert.match(uint8.text, /Relu never takes uint8/);
  });
});

test('Max broadcasts [2,3] with [3] (and a third input [2,1]) and shows the right values and stretched axes', { timeout: TEST_TIMEOUT }, async () => {
  await withDemo('02-max-broadcast', async (page) => {
    await setOp(page, 'Max');
    await setOpset(page, 13);
    await setDtype(page, 'float32');
    // Start from exactly two inputs.
    while (await page.$('[data-testid="input-2"]')) await page.click('[data-testid="input-2-remove"]');
    if (!(await page.$('[data-testid="input-1"]'))) await page.click('[data-testid="add-input"]');
    await setInput(page, 0, '2,3', '1, -2, 3\n-4, 5, -6');
    await setInput(page, 1, '3', '0 2.5 -1');
    await resultOk(page);
    assert.equal(await page.textContent('[data-testid="result-shape"]'), '[2,3]');
    assert.deepEqual(await cellTexts(page, 'result-grid'), ['1', '2.5', '3', '0', '5', '-1']);
    assert.deepEqual(await cellTexts(page, 'input-0-grid'), ['1', '-2', '3', '-4', '5', '-6']);
    assert.deepEqual(await axisStates(page, 0), ['kept', 'kept']);
    assert.deepEqual(await axisStates(page, 1), ['new', 'kept']);

    // Add a third input of shape [2,1]: it is stretched along axis 1.
    await page.click('[data-testid="add-input"]');
    await page.waitForSelector('[data-testid="input-2"]');
    await setInput(page, 2, '2,1', '10 -10');
    await resultOk(page);
    assert.deepEqual(await cellTexts(page, 'result-grid'), ['10', '10', '10', '0', '5', '-1']);
    assert.deepEqual(await axisStates(page, 2), ['kept', 'stretched']);
    assert.equal(await page.getAttribute('[data-testid="broadcast-input-2"]', 'data-stretched'), '1');
    // Rank 3: input 0 becomes [2,1,3]; the result is shown as 2 slices of [2,3].
    await setInput(page, 0, '2,1,3', '1 -2 3 -4 5 -6');
    await resultOk(page);
    assert.equal(await page.textContent('[data-testid="result-shape"]'), '[2,2,3]');
    assert.equal(await page.$$eval('[data-testid="result-grid"] .slice', (s) => s.length), 2);
    assert.deepEqual(await cellTexts(page, 'result-grid'), ['10', '10', '10', '1', '2.5', '3', '10', '10', '10', '0', '5', '-1']);
    assert.deepEqual(await axisStates(page, 0), ['kept', 'stretched', 'kept']);
    await page.screenshot({ path: `${ARTIFACTS}02-max-broadcast-3-inputs.png`, fullPage: true });

    // Remove it again: back to the two-input result.
    await setInput(page, 0, '2,3', '1, -2, 3\n-4, 5, -6');
    await page.click('[data-testid="input-2-remove"]');
    await resultOk(page);
    assert.equal(await page.$('[data-testid="input-2"]'), null);
    assert.deepEqual(await cellTexts(page, 'result-grid'), ['1', '2.5', '3', '0', '5', '-1']);
  });
});

test('Relu on int8 works at opset 14 and shows the library\'s DTYPE_NOT_ALLOWED error at opset 13', { timeout: TEST_TIMEOUT }, async () => {
  await withDemo('03-relu-int8', async (page) => {
    await setOp(page, 'Relu');
    await setOpset(page, 14);
    assert.equal(await page.$eval('[data-testid="dtype"] option[value="int8"]', (o) => o.disabled), false);
    await setDtype(page, 'int8');
    await setInput(page, 0, '2,3', '-128 -1 0\n1 127 -5');
    await resultOk(page);
    assert.equal((await page.textContent('[data-testid="op-version"]')).trim(), 'Relu-14');
    assert.equal(await page.textContent('[data-testid="result-dtype"]'), 'int8');
    assert.deepEqual(await cellTexts(page, 'result-grid'), ['0', '0', '0', '1', '127', '0']);
    await page.screenshot({ path: `${ARTIFACTS}03-relu-int8-opset14.png`, fullPage: true });

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
    assert.equal(await page.$eval('[data-testid="dtype"]', (s) => s.value), 'int8');
    assert.equal(await page.$eval('[data-testid="dtype"] option[value="int8"]', (o) => o.disabled), true);
    assert.match(await page.textContent('[data-testid="dtype-note"]'), /int8 is not allowed here/);

    // The checkbox lets a visitor pick disallowed dtypes on purpose.
    await page.check('[data-testid="allow-disallowed"]');
    assert.equal(await page.$eval('[data-testid="dtype"] option[value="int16"]', (o) => o.disabled), false);
    await setDtype(page, 'int16');
    assert.equal((await shownError(page)).code, 'DTYPE_NOT_ALLOWED');
    assert.match((await shownError(page)).message, /dtype int16 is not allowed by Relu-13/);
    await page.uncheck('[data-testid="allow-disallowed"]');
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

test('incompatible shapes [2,3] and [4] show the BROADCAST_MISMATCH error; Max-6 shows SHAPE_MISMATCH', { timeout: TEST_TIMEOUT }, async () => {
  await withDemo('04-broadcast-error', async (page) => {
    await setOp(page, 'Max');
    await setOpset(page, 13);
    await setDtype(page, 'float32');
    while (await page.$('[data-testid="input-2"]')) await page.click('[data-testid="input-2-remove"]');
    await setInput(page, 0, '2,3', '1 2 3 4 5 6');
    await setInput(page, 1, '4', '0 0 0 0');
    const err = await shownError(page);
    assert.equal(err.code, 'BROADCAST_MISMATCH');
    assert.equal(err.resultState, 'error');
    assert.equal(err.message, "Max: input 1: shape [4] does not broadcast with input 0's shape [2,3] (axis -1: 4 vs 3) [BROADCAST_MISMATCH]");
    const lib = await libraryError(page, "const f = (s) => ({ dtype: 'float32', shape: s, data: new Float32Array(s.reduce((a, b) => a * b, 1)) }); ops.max([f([2,3]), f([4])], { opset: 13 })");
    assert.equal(err.message, lib.message);
    assert.match(await page.getAttribute('[data-testid="input-1"]', 'class'), /lib-error/, 'the input the error names is marked');
    assert.equal(await page.$$eval('[data-testid="broadcast"] .axis-box', (b) => b.length), 0, 'no broadcast picture for a failed call');
    await page.screenshot({ path: `${ARTIFACTS}04-broadcast-mismatch.png`, fullPage: true });

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

test('float16, bfloat16 and int64 results are shown as decoded numbers and exact BigInts', { timeout: TEST_TIMEOUT }, async () => {
  await withDemo('05-dtypes', async (page) => {
    await setOp(page, 'Relu');
    await setOpset(page, 14);
    await setDtype(page, 'float16');
    await setInput(page, 0, '6', '-1.5 0.1 65504 -inf nan 70000');
    await resultOk(page);
    assert.deepEqual(await cellTexts(page, 'result-grid'), ['0', '0.1', '65504', '0', 'NaN', 'Inf']);
    assert.match(await page.getAttribute('[data-testid="result-grid"] td.cell[data-index="1"]', 'title'), /0\.0999755859375 \(bits 0x2e66\)/);

    await setDtype(page, 'bfloat16');
    await setInput(page, 0, '2', '-2 3.14159');
    await resultOk(page);
    assert.deepEqual(await cellTexts(page, 'result-grid'), ['0', '3.14']);
    assert.match(await page.getAttribute('[data-testid="result-grid"] td.cell[data-index="1"]', 'title'), /^3\.140625 /);

    await setOp(page, 'Max');
    await setOpset(page, 13);
    await setDtype(page, 'int64');
    while (await page.$('[data-testid="input-2"]')) await page.click('[data-testid="input-2-remove"]');
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

test('the benchmark panel times the library against a JS loop and draws an SVG bar chart', { timeout: TEST_TIMEOUT }, async () => {
  await withDemo('06-benchmark', async (page) => {
    assert.equal((await page.textContent('[data-testid="bench-simd"]')).trim(), 'ops.simd = true');
    assert.equal(await page.getAttribute('[data-testid="bench-ort"]', 'data-present'), 'false', 'onnxruntime-web is not bundled');
    await page.selectOption('[data-testid="bench-op"]', 'Max');
    await page.selectOption('[data-testid="bench-dtype"]', 'float32');
    await page.selectOption('[data-testid="bench-size"]', '10000');
    await page.click('[data-testid="bench-run"]');
    await page.waitForSelector('[data-testid="bench-status"][data-state="done"]', { timeout: 30_000 });
    const bars = await page.$$eval('[data-testid="bench-svg"] rect[data-testid="bench-bar"]', (rs) =>
      rs.map((r) => ({ name: r.dataset.name, width: Number(r.getAttribute('width')), rate: Number(r.dataset.rate) })));
    assert.deepEqual(bars.map((b) => b.name), ['onnx-ops-wasm', 'onnx-ops-wasm zero-copy', 'plain JS loop']);
    for (const b of bars) {
      assert.ok(b.width > 0, `${b.name} has a visible bar`);
      assert.ok(b.rate > 0, `${b.name} has a throughput`);
    }
    const checks = await page.$$eval('[data-testid="bench-check"]', (tds) => tds.map((td) => td.textContent));
    assert.deepEqual(checks, ['matches JS', 'matches JS', 'matches JS']);
    assert.match(await page.textContent('[data-testid="bench-status"]'), /onnxruntime-web is not on this page, so it was skipped/);
    assert.match(await page.textContent('[data-testid="bench-status"]'), /0 live allocations/);
  });
});

test('serve.mjs serves demo/ and dist/ with the right MIME types and nothing outside them', { timeout: TEST_TIMEOUT }, async () => {
  checkPrerequisites();
  const server = await startServer({ port: 0 });
  try {
    const type = async (path) => {
      const r = await fetch(new URL(path, server.url));
      await r.arrayBuffer();
      return [r.status, r.headers.get('content-type')];
    };
    assert.deepEqual(await type('/'), [200, 'text/html; charset=utf-8']);
    assert.deepEqual(await type('/app.js'), [200, 'text/javascript; charset=utf-8']);
    assert.deepEqual(await type('/style.css'), [200, 'text/css; charset=utf-8']);
    assert.deepEqual(await type('/dist/esm/index.js'), [200, 'text/javascript; charset=utf-8']);
    assert.deepEqual(await type('/dist/esm/wasm/onnx-ops-wasm.js'), [200, 'text/javascript; charset=utf-8']);
    assert.equal((await type('/nope.js'))[0], 404);
    // Raw paths (fetch would normalize the dots away): nothing outside demo/ and dist/.
    const raw = (path) => new Promise((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: server.port, path }, (res) => { res.resume(); resolve(res.statusCode); }).on('error', reject);
    });
    assert.equal(await raw('/../package.json'), 404);
    assert.equal(await raw('/dist/../package.json'), 404);
    assert.equal(await raw('/dist/%2e%2e/package.json'), 404);
    assert.equal(await raw('/..%2fpackage.json'), 404);
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
  } finally {
    await server.close();
  }
});
