// Self-test of tests/browsers/drivers.mjs in each of its browsers:
//
//   node --test tests/browsers/drivers.test.mjs
//
// Needs Chromium (/usr/bin/chromium) with playwright-core (root devDependency), firefox-esr
// with puppeteer-core (tests/engines/node_modules), and WebKitWebDriver, MiniBrowser and
// Xvfb (Debian: webkit2gtk-driver, xvfb). Nothing is skipped: a browser that cannot start
// fails its test. Serves a tiny page on 127.0.0.1 (port 0); screenshots go to
// test-artifacts/browsers/<browser>/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import {
  BROWSERS, launch, needsCaptureScript, injectCaptureTag, CAPTURE_PATH, CAPTURE_SCRIPT,
  click, fill, selectOption, check, uncheck, waitFor, exists, textContent, getAttribute, isHidden, evalAll,
} from './drivers.mjs';

const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/browsers/', import.meta.url));

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>driver self-test</title>
<link rel="icon" href="data:,">
<style>body { font: 16px sans-serif; } #later { display: none; } .covered { position: relative; } #cover { position: absolute; inset: 0; background: #fff8; }</style>
</head><body>
<h1 id="title" data-kind="heading">Driver self-test</h1>
<button id="btn" type="button">Press</button> <span id="clicks">0</span>
<p><input id="name" placeholder="name"> <textarea id="notes"></textarea></p>
<p><select id="color"><option value="red">Red</option><option value="green">Green</option><option value="blue" disabled>Blue</option></select></p>
<p><label><input type="checkbox" id="agree"> agree</label> <label><input type="radio" name="r" id="r1" checked> one</label> <label><input type="radio" name="r" id="r2"> two</label></p>
<p class="covered"><button id="under" type="button">under</button><span id="cover"></span></p>
<p id="log"></p>
<div id="later">shown later</div>
<ul><li class="item">a</li><li class="item">b</li><li class="item">c</li></ul>
<div style="height: 1500px; background: linear-gradient(#fff, #8ac)">a tall block, so that a full-page screenshot is taller than the viewport</div>
<button id="bottom" type="button">bottom</button>
<script>
  const log = (s) => { document.getElementById('log').textContent += s + ';'; };
  let n = 0;
  document.getElementById('btn').addEventListener('click', (e) => {
    n++;
    document.getElementById('clicks').textContent = String(n);
    log('click:' + e.isTrusted);
  });
  for (const id of ['name', 'notes']) {
    const el = document.getElementById(id);
    el.addEventListener('input', () => log('input:' + id + '=' + el.value));
    el.addEventListener('change', () => log('change:' + id + '=' + el.value));
  }
  const color = document.getElementById('color');
  color.addEventListener('change', () => log('change:color=' + color.value));
  const agree = document.getElementById('agree');
  agree.addEventListener('change', () => log('change:agree=' + agree.checked));
  document.getElementById('r2').addEventListener('change', () => log('change:r2'));
  document.getElementById('bottom').addEventListener('click', () => log('click:bottom'));
  setTimeout(() => { document.getElementById('later').style.display = 'block'; }, 300);
</script>
</body></html>
`;

const PROBLEMS_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>problems</title><link rel="icon" href="data:,"></head><body>
<p>problems</p>
<img id="img404" src="/missing.png" alt="">
<script>
  console.error('self-test console error', 42);
  console.warn('self-test console warning');
  console.log('not a problem');
  setTimeout(() => { throw new Error('self-test uncaught'); }, 0);
  Promise.reject(new Error('self-test rejection'));
  fetch('/missing.json').then((r) => r.status);
  fetch(window.CLOSED_URL).catch(() => {});
</script>
</body></html>
`;

/** A server for both pages; the capture script is injected for browsers that need it. */
async function startServer(browserName, closedUrl) {
  const inject = needsCaptureScript(browserName);
  const server = http.createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    const html = (body) => {
      const text = inject ? injectCaptureTag(body) : body;
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(text);
    };
    if (path === '/') return html(PAGE);
    if (path === '/problems.html') return html(PROBLEMS_PAGE.replace('window.CLOSED_URL', JSON.stringify(closedUrl)));
    if (path === CAPTURE_PATH) {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' });
      return res.end(CAPTURE_SCRIPT);
    }
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('not found\n');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const sockets = new Set();
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((r) => { server.close(r); for (const s of sockets) s.destroy(); }),
  };
}

/** A URL on 127.0.0.1 where nothing listens (a refused connection). */
async function closedUrl() {
  const s = http.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return `http://127.0.0.1:${port}/gone.json`;
}

const VERSION = {
  chromium: /^Chromium \d+\.\d+\.\d+\.\d+$/,
  firefox: /^Firefox \d+\.\d+/,
  webkit: /^WebKitGTK \d+\.\d+\.\d+$/,
};

for (const name of BROWSERS) {
  test(`[${name}] the driver launches, evaluates, clicks, fills, selects, reports problems and takes screenshots`, { timeout: 180_000 }, async (t) => {
    const refused = await closedUrl();
    const server = await startServer(name, refused);
    const browser = await launch(name); // throws (fails the test) when the browser cannot start
    try {
      await t.test('name and version', () => {
        assert.equal(browser.name, name);
        assert.match(browser.version, VERSION[name]);
        t.diagnostic(`${name}: ${browser.version}`);
      });

      const page = await browser.newPage();
      try {
        await page.goto(server.url);

        await t.test('evaluate: sync, async, args, results, errors', async () => {
          assert.equal(await page.evaluate(() => document.title), 'driver self-test');
          assert.equal(await page.evaluate((a, b) => a + b, 2, 3), 5);
          assert.deepEqual(await page.evaluate((o) => ({ ...o, n: o.list.length }), { list: [1, 'x', null], s: 'é"\n' }),
            { list: [1, 'x', null], s: 'é"\n', n: 3 });
          assert.equal(await page.evaluate(() => undefined), undefined);
          assert.equal(await page.evaluate(async (ms) => {
            await new Promise((r) => setTimeout(r, ms));
            return 'waited';
          }, 200), 'waited');
          assert.deepEqual(await page.evaluate(() => [innerWidth, innerHeight]), [1280, 900], 'the default viewport');
          await assert.rejects(page.evaluate(() => { throw new Error('sync boom'); }), (e) => e instanceof Error && e.message === 'sync boom');
          await assert.rejects(page.evaluate(async () => {
            await new Promise((r) => setTimeout(r, 10));
            throw new TypeError('async boom');
          }), (e) => e.message === 'async boom' && e.pageErrorName === 'TypeError');
          await assert.rejects(page.evaluate(() => Promise.reject(new Error('rejected'))), { message: 'rejected' });
          await assert.rejects(page.evaluate(() => { throw 'a string'; }), { message: 'a string' });
          // The page still works after errors.
          assert.equal(await page.evaluate(() => 1 + 1), 2);
        });

        await t.test('DOM helpers: click, fill, selectOption, check, uncheck, waitFor and readers', async () => {
          assert.equal(await exists(page, '#btn'), true);
          assert.equal(await exists(page, '#nope'), false);
          assert.equal(await textContent(page, '#title'), 'Driver self-test');
          assert.equal(await getAttribute(page, '#title', 'data-kind'), 'heading');
          assert.equal(await getAttribute(page, '#title', 'data-none'), null);
          assert.deepEqual(await evalAll(page, 'li.item', (els, suffix) => els.map((e) => e.textContent + suffix), '!'), ['a!', 'b!', 'c!']);
          assert.deepEqual(await evalAll(page, '.nothing', (els) => els.length), 0);

          await click(page, '#btn');
          await click(page, '#btn');
          assert.equal(await textContent(page, '#clicks'), '2');
          await assert.rejects(click(page, '#under', { timeout: 500 }), /covered/);

          await fill(page, '#name', 'Ada');
          await fill(page, '#notes', 'line 1\nline 2');
          assert.equal(await page.evaluate(() => document.getElementById('name').value), 'Ada');
          await selectOption(page, '#color', 'green');
          assert.equal(await page.evaluate(() => document.getElementById('color').value), 'green');
          await assert.rejects(selectOption(page, '#color', 'blue'), /disabled/);
          await assert.rejects(selectOption(page, '#color', 'pink'), /no option/);

          await check(page, '#agree');
          assert.equal(await page.evaluate(() => document.getElementById('agree').checked), true);
          await check(page, '#agree'); // already checked: no click
          await uncheck(page, '#agree');
          assert.equal(await page.evaluate(() => document.getElementById('agree').checked), false);
          await check(page, '#r2');
          assert.equal(await page.evaluate(() => document.getElementById('r1').checked), false);
          await click(page, '#bottom'); // below the viewport: scrolled into view first

          assert.equal(await textContent(page, '#log'), [
            'click:true', 'click:true',
            'input:name=Ada', 'change:name=Ada',
            'input:notes=line 1\nline 2', 'change:notes=line 1\nline 2',
            'change:color=green',
            'change:agree=true', 'change:agree=false',
            'change:r2', 'click:bottom', '',
          ].join(';'), 'the page saw trusted clicks and the events a user causes');

          assert.equal(await isHidden(page, '#nope'), true);
          assert.equal(await isHidden(page, '#btn'), false);
          await waitFor(page, '#later', { timeout: 5000 });
          assert.equal(await isHidden(page, '#later'), false);
          await assert.rejects(waitFor(page, '#never', { timeout: 300 }), /#never did not become visible within 300 ms/);
        });

        await t.test('screenshot: a PNG file', async () => {
          const file = `${ARTIFACTS}${name}/self-test.png`;
          rmSync(file, { force: true });
          await page.screenshot(file);
          const png = readFileSync(file);
          assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
          assert.equal(png.readUInt32BE(16), 1280, 'as wide as the viewport');
          assert.ok(png.readUInt32BE(20) > 1500, `the full page, taller than the viewport (${png.readUInt32BE(20)} px)`);
          assert.deepEqual(await page.evaluate(() => [innerWidth, innerHeight]), [1280, 900], 'the viewport is back');
        });

        await t.test('a clean page has no problems', async () => {
          assert.deepEqual(await page.flushProblems(), []);
        });
      } finally {
        await page.close();
      }

      await t.test('problems(): console errors and warnings, page errors, rejections, failed and foreign requests, HTTP >= 400', async () => {
        const p2 = await browser.newPage();
        try {
          await p2.goto(`${server.url}problems.html`);
          // Give the async ones (timer, fetches, the image) time to happen.
          await p2.evaluate(() => new Promise((r) => setTimeout(r, 500)));
          const problems = await p2.flushProblems();
          t.diagnostic(`${name}: ${JSON.stringify(problems)}`);
          const has = (re, what) => assert.ok(problems.some((p) => re.test(p)), `${what} is reported: ${JSON.stringify(problems)}`);
          has(/^console error: self-test console error 42$/, 'console.error');
          has(/^console warning: self-test console warning$/, 'console.warn');
          has(/self-test uncaught/, 'an uncaught error');
          has(/self-test rejection/, 'an unhandled rejection');
          has(new RegExp(`^HTTP 404 for ${server.url}missing\\.json$`), 'a fetch answered 404');
          has(new RegExp(`^(HTTP 404 for|request failed:) ${server.url}missing\\.png`), 'an <img> answered 404');
          has(new RegExp(`^request failed: ${refused.replace(/[.?]/g, '\\$&')}`), 'a refused connection');
          has(new RegExp(`^request to another origin: ${refused.replace(/[.?]/g, '\\$&')}`), 'a request to another origin');
          assert.ok(!problems.some((p) => p.includes('not a problem')), 'console.log is not a problem');
        } finally {
          await p2.close();
        }
      });
    } finally {
      await browser.close();
      await server.close();
    }
  });
}

// WPE WebKit (cog, headless) serves the tests of engines without SIMD128: what they use.
test('[wpe] the driver launches, evaluates and reports problems', { timeout: 180_000 }, async (t) => {
  const refused = await closedUrl();
  const server = await startServer('wpe', refused);
  const browser = await launch('wpe'); // throws (fails the test) when cog cannot start
  try {
    assert.equal(browser.name, 'wpe');
    assert.match(browser.version, /^WPE WebKit \d+\.\d+/);
    t.diagnostic(`wpe: ${browser.version}`);
    const page = await browser.newPage();
    try {
      await page.goto(server.url);
      assert.equal(await page.evaluate(() => document.title), 'driver self-test');
      assert.equal(await page.evaluate(async (ms) => {
        await new Promise((r) => setTimeout(r, ms));
        return 'waited';
      }, 100), 'waited');
      await assert.rejects(page.evaluate(() => { throw new Error('sync boom'); }), { message: 'sync boom' });
      await page.goto(`${server.url}problems.html`);
      await page.evaluate(() => new Promise((r) => setTimeout(r, 500)));
      const problems = await page.flushProblems();
      assert.ok(problems.some((p) => /^console error: self-test console error 42$/.test(p)), JSON.stringify(problems));
      assert.ok(problems.some((p) => /self-test uncaught/.test(p)), JSON.stringify(problems));
    } finally {
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
});

test('launch names the browser when it cannot start', async () => {
  const saved = process.env.FIREFOX_PATH;
  process.env.FIREFOX_PATH = '/nonexistent/firefox';
  try {
    await assert.rejects(launch('firefox'), /^Error: firefox: no Firefox at \/nonexistent\/firefox/);
  } finally {
    if (saved === undefined) delete process.env.FIREFOX_PATH;
    else process.env.FIREFOX_PATH = saved;
  }
  await assert.rejects(launch('netscape'), /unknown browser "netscape"/);
});
