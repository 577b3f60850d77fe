// One small API over three real browsers, for tests that drive pages:
//
//   chromium  Debian's Chromium through playwright-core (root devDependency), headless.
//             Another binary: CHROMIUM_PATH.
//   firefox   firefox-esr through puppeteer-core (tests/engines/node_modules, its own lock
//             file; loaded from there, not from the root package) over WebDriver BiDi,
//             headless. Another binary: FIREFOX_PATH.
//   webkit    WebKitGTK's MiniBrowser through WebKitWebDriver (Debian: webkit2gtk-driver),
//             spoken to over plain W3C WebDriver HTTP (node:http, no npm client). MiniBrowser
//             has no headless mode, so launch() starts its own Xvfb (Debian: xvfb) and
//             kills it on close(): callers need no xvfb-run. Another binary: MINIBROWSER_PATH.
//   wpe       WPE WebKit 2.38 (Debian 12's) through its cog browser and WPEWebDriver (Debian:
//             cog, wpewebkit-driver), over the same WebDriver HTTP, headless (cog's headless
//             platform: no Xvfb, no window size, no screenshots). Not in BROWSERS: an old
//             engine for the tests of engines without SIMD128 (it also lacks
//             DecompressionStream). Another binary: COG_PATH.
//
//   import { BROWSERS, launch, click, fill, waitFor } from '../browsers/drivers.mjs';
//   const browser = await launch('webkit');            // throws if it cannot start, never skips
//   browser.version                                    // 'Chromium 156.0.8078.114', 'Firefox 153.8.0', 'WebKitGTK 2.50.6'
//   const page = await browser.newPage();              // a fresh page with its own cookies and
//                                                      // storage (chromium: a new context; firefox:
//                                                      // a new user context; webkit: a new
//                                                      // WebDriver session, i.e. a new MiniBrowser)
//   await page.goto(url);                              // resolves after the load event
//   await page.evaluate((a, b) => a + b, 1, 2);        // 3
//   await click(page, '#run');
//   await page.screenshot('out.png');
//   assert.deepEqual(page.problems(), []);
//   await page.close(); await browser.close();
//
// Page API
//   goto(url)               navigates and resolves after the load event.
//   evaluate(fn, ...args)   fn (an arrow or function expression; it is sent as fn.toString(),
//                           so it cannot use variables of the caller) runs in the page with
//                           the args (JSON: undefined becomes null, no BigInt); a returned
//                           promise is awaited; resolves to JSON.parse(JSON.stringify(result))
//                           (undefined stays undefined). A throw or rejection in the page
//                           rejects with an Error whose message is the page error's message
//                           (pageErrorName / pageStack carry the rest). Scripts may run for
//                           up to EVALUATE_TIMEOUT_MS (10 minutes).
//   screenshot(path)        a PNG of the full page, at least the viewport tall (creates the
//                           folder). WebDriver classic only shoots the viewport, so in webkit
//                           the window grows to the page's height for the shot (up to 16384
//                           px; the page sees two resize events).
//   problems()              string[] so far: "console error: ...", "console warning: ...",
//                           "page error: ...", "unhandled rejection: ..." (chromium and
//                           firefox report these as page errors), "request failed: <url> (...)",
//                           "HTTP <status> for <url>", "request to another origin: <url>"
//                           (origin = the origin of the last goto() URL; data: and blob: are
//                           allowed).
//   flushProblems()         (extra) one round trip to the page, then problems(): use it when
//                           nothing else talked to the page since the thing you want checked.
//   close()
//
// What problems() cannot see
//   chromium  everything above is reported by the browser itself (CDP events).
//   firefox   BiDi events: console API calls, uncaught errors and unhandled rejections
//             (page errors, with their "Error: " prefix), network events. Of the messages
//             Firefox's engine writes to its own web console, only those it files as script
//             errors come through (a CORS failure does, as a page error); its warnings (CSS
//             parse errors, deprecations, "Loading failed for the <script>") do not, though
//             the failed or >= 400 request behind them is reported from the network events.
//             Requests Firefox refuses before they reach the network (blocked ports such as
//             1, mixed content) have no network event and are not reported.
//   webkit    WebDriver classic has no events at all (the WebKit Browser also has `display`,
//             the Xvfb display its MiniBrowsers run on). The page must load CAPTURE_SCRIPT
//             first: a server serving test pages should answer CAPTURE_PATH with it and put
//             CAPTURE_TAG at the top of its HTML (injectCaptureTag(html); only WebKit needs
//             it: needsCaptureScript(name)). It wraps console.error/console.warn, listens
//             for window 'error' (uncaught errors, and in the capture phase the failed loads
//             of <script>/<img>/<link>/... elements), 'unhandledrejection', wraps fetch and
//             XMLHttpRequest (status >= 400, network errors, origin), and watches resource
//             timing entries (the origin of every request the page made, even loaded ones).
//             What is collected is read back with every driver call (evaluate, the helpers,
//             goto, screenshot, flushProblems, close). If a page did not load the script,
//             goto() installs it after the load event: only later problems are seen then.
//             WebKit cannot report: messages the engine itself logs (CSP, CORS, CSS, "Failed
//             to load resource"); the HTTP status of the main document, of elements and of
//             anything not loaded by fetch/XHR (resource timing has no responseStatus in
//             WebKit, so a 404 <script> or <img> shows as "request failed: <url> (... did not
//             load)", and a 404 CSS background or font, or a failed static import nested
//             inside a module graph, shows as nothing, or as a failed load of the top
//             module); failed requests of workers, WebSockets and EventSource; and anything
//             that happened before the capture script ran.
//
// DOM helpers (exported below) take (page, selector, ...), use document.querySelector (the
// first match), and wait up to `timeout` ms (default DEFAULT_TIMEOUT_MS) for the element:
//   click       native mouse click of each driver (playwright page.mouse, puppeteer page.mouse
//               over BiDi input actions, WebDriver pointer actions) at the element's centre,
//               after scrolling it into view and checking that it is visible, enabled and not
//               covered by another element (what a user could click).
//   fill        sets the value (the native setter), dispatches input and change events (as
//               typing and leaving the field would). JS, not key presses.
//   selectOption  picks the <option> with that value (fails if it is missing or disabled),
//               dispatches input and change. JS.
//   check / uncheck  clicks (natively, as above) a checkbox or radio when its state differs,
//               then checks the state.
//   waitFor     polls until a matching element exists and is visible.
//   exists, textContent, getAttribute, isHidden, evalAll(page, selector, fn, ...args) (fn gets
//               the array of all matches, like playwright's $$eval) do not wait (except
//               textContent and getAttribute, which wait for the element to exist, as
//               playwright's do).

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';

export const BROWSERS = ['chromium', 'firefox', 'webkit'];

export const DEFAULT_TIMEOUT_MS = 15_000;
export const EVALUATE_TIMEOUT_MS = 10 * 60_000;

const PATHS = {
  chromium: () => process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  firefox: () => process.env.FIREFOX_PATH || '/usr/bin/firefox-esr',
  webkit: () => process.env.MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
  wpe: () => process.env.COG_PATH || '/usr/bin/cog',
};
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
];
const LAUNCH_TIMEOUT_MS = 60_000;
const WEBKIT_SESSION_TIMEOUT_MS = 30_000; // a session normally starts in about a second

// ------------------------------------------------------------------ the capture script (WebKit)

export const CAPTURE_PATH = '/__capture.js';
export const CAPTURE_TAG = `<script src="${CAPTURE_PATH}"></script>`;

/** Whether pages need CAPTURE_SCRIPT for problems() to work in this browser. */
export function needsCaptureScript(name) {
  return name === 'webkit' || name === 'wpe';
}

/** `html` with CAPTURE_TAG as the first thing in <head> (or at the very top). */
export function injectCaptureTag(html) {
  const m = /<head(\s[^>]*)?>/i.exec(html);
  if (m) return html.slice(0, m.index + m[0].length) + CAPTURE_TAG + html.slice(m.index + m[0].length);
  const d = /^\s*<!doctype[^>]*>/i.exec(html);
  if (d) return d[0] + CAPTURE_TAG + html.slice(d[0].length);
  return CAPTURE_TAG + html;
}

/** Collects what problems() reports, inside the page (see the header). Sent as its source text. */
function captureMain() {
  if (window.__driverCapture) return;
  var items = [];
  var foreign = Object.create(null);
  var push = function (s) { items.push(String(s)); };
  var text = function (a) {
    if (typeof a === 'string') return a;
    if (a instanceof Error) return String(a);
    try {
      var j = JSON.stringify(a);
      return j === undefined ? String(a) : j;
    } catch (e) {
      return String(a);
    }
  };
  var message = function (r) { return r instanceof Error ? r.message : text(r); };
  var noteUrl = function (url) {
    try {
      var u = new URL(url, location.href);
      if (u.protocol === 'data:' || u.protocol === 'blob:' || u.protocol === 'about:' || u.protocol === 'javascript:') return;
      if (u.origin !== location.origin && !foreign[u.href]) {
        foreign[u.href] = true;
        push('request to another origin: ' + u.href);
      }
    } catch (e) { /* not a URL */ }
  };
  ['error', 'warn'].forEach(function (level) {
    var orig = console[level];
    console[level] = function () {
      push('console ' + (level === 'warn' ? 'warning' : 'error') + ': ' + Array.prototype.map.call(arguments, text).join(' '));
      return orig.apply(this, arguments);
    };
  });
  window.addEventListener('error', function (e) {
    var t = e.target;
    if (e instanceof ErrorEvent || t === window) {
      push('page error: ' + (e.error instanceof Error ? e.error.message : e.message));
      return;
    }
    if (!t || !t.tagName) return;
    var url = t.currentSrc || (typeof t.src === 'string' && t.src) || (typeof t.href === 'string' && t.href)
      || (typeof t.data === 'string' && t.data) || (t.getAttribute && (t.getAttribute('src') || t.getAttribute('href'))) || '';
    if (!url) return;
    noteUrl(url);
    push('request failed: ' + new URL(url, location.href).href + ' (the <' + t.tagName.toLowerCase()
      + '> did not load: a network error or an HTTP error status)');
  }, true);
  window.addEventListener('unhandledrejection', function (e) {
    push('unhandled rejection: ' + message(e.reason));
  });
  if (window.fetch) {
    var origFetch = window.fetch;
    window.fetch = function (input, init) {
      var url;
      try {
        url = new URL(typeof input === 'string' || input instanceof URL ? String(input) : input.url, location.href).href;
      } catch (e) {
        url = String(input);
      }
      noteUrl(url);
      return origFetch.apply(this, arguments).then(function (r) {
        if (r.status >= 400) push('HTTP ' + r.status + ' for ' + url);
        return r;
      }, function (err) {
        if (!(err && err.name === 'AbortError')) push('request failed: ' + url + ' (' + message(err) + ')');
        throw err;
      });
    };
  }
  if (window.XMLHttpRequest) {
    var origOpen = XMLHttpRequest.prototype.open;
    XMLHttpRequest.prototype.open = function (method, url) {
      var xhr = this;
      var abs = String(url);
      try { abs = new URL(abs, location.href).href; } catch (e) { /* open() throws for it */ }
      noteUrl(abs);
      var aborted = false;
      xhr.addEventListener('abort', function () { aborted = true; });
      xhr.addEventListener('loadend', function () {
        if (aborted) return;
        if (xhr.status === 0) push('request failed: ' + abs + ' (XMLHttpRequest network error)');
        else if (xhr.status >= 400) push('HTTP ' + xhr.status + ' for ' + abs);
      });
      return origOpen.apply(this, arguments);
    };
  }
  try {
    new PerformanceObserver(function (list) {
      list.getEntries().forEach(function (e) {
        noteUrl(e.name);
        if (e.responseStatus >= 400) push('HTTP ' + e.responseStatus + ' for ' + e.name); // not in WebKit 2.50
      });
    }).observe({ type: 'resource', buffered: true });
  } catch (e) { /* no PerformanceObserver */ }
  window.__driverCapture = {
    drain: function () {
      var out = items;
      items = [];
      return out;
    },
  };
}

export const CAPTURE_SCRIPT = `(${captureMain.toString()})();\n`;

// ------------------------------------------------------------------ page scripts

/** An expression that runs fn(...args) and resolves to { ok, json } or { ok: false, message }. */
function pageExpression(fn, args) {
  if (typeof fn !== 'function') throw new TypeError('evaluate(fn, ...args): fn must be a function');
  let argsJson;
  try {
    argsJson = JSON.stringify(args);
  } catch (e) {
    throw new TypeError(`evaluate: the arguments are not JSON: ${e.message}`);
  }
  return `(async () => {
  try {
    const __fn = (${fn.toString()});
    const __v = await __fn(...${argsJson});
    return { ok: true, json: __v === undefined ? undefined : JSON.stringify(__v) };
  } catch (e) {
    const isErr = e instanceof Error;
    return { ok: false, message: isErr ? String(e.message) : String(e), name: isErr ? e.name : typeof e, stack: isErr && e.stack ? String(e.stack) : '' };
  }
})()`;
}

function unwrap(r, name) {
  if (!r || typeof r !== 'object') throw new Error(`${name}: evaluate returned nothing (did the page navigate away?)`);
  if (!r.ok) {
    const err = new Error(r.message);
    err.pageErrorName = r.name;
    err.pageStack = r.stack;
    throw err;
  }
  return r.json === undefined || r.json === null ? undefined : JSON.parse(r.json);
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function launchError(name, what, cause) {
  const err = new Error(`${name}: ${what}${cause ? `: ${cause.message ?? cause}` : ''}`);
  if (cause) err.cause = cause;
  return err;
}

function originOf(url) {
  try {
    const u = new URL(url);
    return ['http:', 'https:', 'file:'].includes(u.protocol) ? u.origin : null;
  } catch {
    return null;
  }
}
function isForeign(url, origin) {
  if (!origin) return false;
  try {
    const u = new URL(url);
    if (['data:', 'blob:', 'about:'].includes(u.protocol)) return false;
    return u.origin !== origin;
  } catch {
    return false;
  }
}

/** Where the element is, after scrolling it into view; throws when a user could not click it. */
function clickTarget(selector) {
  const el = document.querySelector(selector);
  if (!el) throw new Error(`click: no element matches ${selector}`);
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const r = el.getBoundingClientRect();
  const style = getComputedStyle(el);
  if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') throw new Error(`click: ${selector} is not visible`);
  if (el.disabled) throw new Error(`click: ${selector} is disabled`);
  const x = r.left + r.width / 2;
  const y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  const ok = hit && (hit === el || el.contains(hit) || (hit.control && hit.control === el) || (el.labels && [...el.labels].includes(hit)));
  if (!ok) {
    const d = hit ? `<${hit.tagName.toLowerCase()}${hit.id ? `#${hit.id}` : ''}${hit.className && typeof hit.className === 'string' ? `.${hit.className.split(/\s+/).join('.')}` : ''}>` : 'nothing';
    throw new Error(`click: ${selector} is covered by ${d} at (${Math.round(x)}, ${Math.round(y)})`);
  }
  return { x, y };
}

// ------------------------------------------------------------------ common page

class BasePage {
  constructor(browserName) {
    this.browserName = browserName;
    this._problems = [];
    this._origin = null;
    this._closed = false;
  }
  problems() {
    return [...this._problems];
  }
  async flushProblems() {
    await this.evaluate(() => null);
    return this.problems();
  }
  _note(p) {
    this._problems.push(p);
  }
  _noteRequest(url) {
    if (isForeign(url, this._origin)) this._note(`request to another origin: ${url}`);
  }
  /** Clicks like a user: retries (until `timeout`) while the element is covered, disabled or hidden. */
  async _nativeClick(selector, timeout = DEFAULT_TIMEOUT_MS) {
    const deadline = Date.now() + timeout;
    for (;;) {
      let at;
      try {
        at = await this.evaluate(clickTarget, selector);
      } catch (e) {
        if (Date.now() >= deadline) throw e;
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      await this._mouseClick(at.x, at.y);
      return;
    }
  }
}

// ------------------------------------------------------------------ chromium (playwright-core)

/**
 * A page of a driver with events, Playwright's (chromium) or Puppeteer's
 * (firefox): their page objects share the calls used here. `close` closes
 * what browser.newPage() made for the page.
 */
class EventPage extends BasePage {
  constructor(name, page, close) {
    super(name);
    this._page = page;
    this._closePage = close;
    page.on('console', (m) => {
      const t = m.type(); // Puppeteer says 'warn' where Playwright says 'warning'
      if (t === 'error' || t === 'warn' || t === 'warning') this._note(`console ${t === 'error' ? 'error' : 'warning'}: ${m.text()}`);
    });
    page.on('pageerror', (e) => this._note(`page error: ${e?.message ?? e}`));
    page.on('request', (r) => this._noteRequest(r.url()));
    page.on('requestfailed', (r) => this._note(`request failed: ${r.url()} (${r.failure()?.errorText ?? 'failed'})`));
    page.on('response', (r) => {
      if (r.status() >= 400) this._note(`HTTP ${r.status()} for ${r.url()}`);
    });
  }
  async goto(url) {
    this._origin = originOf(url);
    await this._page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  }
  async evaluate(fn, ...args) {
    return unwrap(await this._page.evaluate(pageExpression(fn, args)), this.browserName);
  }
  async screenshot(path) {
    mkdirSync(dirname(path), { recursive: true });
    // Firefox's full-page shot of a short page is only as tall as the document; Chromium's
    // and ours in WebKit are at least the viewport: take the viewport then.
    const tall = await this.evaluate(() => Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0) > innerHeight);
    await this._page.screenshot({ path, fullPage: tall, type: 'png' });
  }
  async _mouseClick(x, y) {
    await this._page.mouse.click(x, y);
  }
  async close() {
    if (this._closed) return;
    this._closed = true;
    await this._closePage();
  }
}

async function launchChromium(viewport) {
  const exe = PATHS.chromium();
  if (!existsSync(exe)) throw launchError('chromium', `no Chromium at ${exe} (Debian: apt-get install -y chromium; or set CHROMIUM_PATH)`);
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (e) {
    throw launchError('chromium', 'cannot load playwright-core (a root devDependency: npm ci)', e);
  }
  let browser;
  try {
    browser = await chromium.launch({ executablePath: exe, args: CHROMIUM_ARGS, timeout: LAUNCH_TIMEOUT_MS });
  } catch (e) {
    throw launchError('chromium', `${exe} did not start`, e);
  }
  return {
    name: 'chromium',
    version: `Chromium ${browser.version()}`,
    async newPage() {
      const page = await browser.newPage({ viewport }); // in a context of its own, which page.close() closes
      return new EventPage('chromium', page, () => page.close());
    },
    async close() {
      await browser.close();
    },
  };
}

// ------------------------------------------------------------------ firefox (puppeteer-core, BiDi)

async function loadPuppeteer() {
  // tests/engines has its own package.json and lock file: resolve from there.
  const req = createRequire(new URL('../engines/package.json', import.meta.url));
  const entry = req.resolve('puppeteer-core');
  const mod = await import(pathToFileURL(entry).href);
  return mod.default ?? mod;
}

async function launchFirefox(viewport) {
  const exe = PATHS.firefox();
  if (!existsSync(exe)) throw launchError('firefox', `no Firefox at ${exe} (Debian: apt-get install -y firefox-esr; or set FIREFOX_PATH)`);
  let puppeteer;
  try {
    puppeteer = await loadPuppeteer();
  } catch (e) {
    throw launchError('firefox', 'cannot load puppeteer-core from tests/engines/node_modules (npm --prefix tests/engines ci)', e);
  }
  let browser;
  try {
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: exe,
      headless: true,
      defaultViewport: viewport,
      // Overlay scrollbars, as in headless Chromium and in WebKitGTK: the page is as wide
      // as the viewport, and so are full-page screenshots. No async stacks: under the remote
      // agent a page is a debuggee, where Firefox records a stack at every promise, which a
      // user's Firefox does only with its devtools open (timings would not be users').
      extraPrefsFirefox: { 'ui.useOverlayScrollbars': 1, 'javascript.options.asyncstack': false },
      timeout: LAUNCH_TIMEOUT_MS,
      protocolTimeout: EVALUATE_TIMEOUT_MS + 60_000,
    });
  } catch (e) {
    throw launchError('firefox', `${exe} did not start`, e);
  }
  const raw = await browser.version(); // "firefox/153.8.0"
  const version = `Firefox ${raw.replace(/^firefox\//i, '')}`;
  return {
    name: 'firefox',
    version,
    async newPage() {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport(viewport);
      return new EventPage('firefox', page, () => context.close());
    },
    async close() {
      await browser.close();
    },
  };
}

// ------------------------------------------------------------------ webkit (WebKitWebDriver, W3C WebDriver)

const children = new Set();
process.on('exit', () => {
  for (const c of children) {
    try { c.kill('SIGKILL'); } catch { /* gone */ }
  }
});
function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}
function stop(child, ms = 3000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(() => { try { child.kill('SIGKILL'); } catch { /* gone */ } }, ms);
    child.once('exit', () => { clearTimeout(t); resolve(); });
    try { child.kill('SIGTERM'); } catch { clearTimeout(t); resolve(); }
  });
}
const tail = (s) => (s.length > 2000 ? `…${s.slice(-2000)}` : s).trim();

async function startXvfb(viewport) {
  const w = Math.max(1280, viewport.width + 100);
  const h = Math.max(1024, viewport.height + 200);
  let child;
  try {
    child = track(spawn('Xvfb', ['-displayfd', '3', '-screen', '0', `${w}x${h}x24`, '-nolisten', 'tcp'], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    }));
  } catch (e) {
    throw launchError('webkit', 'cannot start Xvfb (Debian: apt-get install -y xvfb)', e);
  }
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const display = await withTimeout(new Promise((resolve, reject) => {
    let out = '';
    child.once('error', (e) => reject(launchError('webkit', 'cannot start Xvfb (Debian: apt-get install -y xvfb)', e)));
    child.once('exit', (code) => reject(launchError('webkit', `Xvfb exited (${code}) before it had a display: ${tail(stderr)}`)));
    child.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.trim());
    });
  }), 15_000, 'webkit: Xvfb').catch(async (e) => {
    await stop(child);
    throw e;
  });
  return { child, display: `:${display}` };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** One JSON request to a WebDriver server, with no timeout of its own (async scripts run long). */
function wdRequest(agent, port, method, path, body) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request({
      host: '127.0.0.1', port, method, path, agent,
      headers: { 'Content-Type': 'application/json; charset=utf-8', ...(data ? { 'Content-Length': data.length } : {}) },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try {
          json = JSON.parse(text);
        } catch {
          return reject(new Error(`WebDriver: ${method} ${path}: HTTP ${res.statusCode}, not JSON: ${text.slice(0, 300)}`));
        }
        const v = json?.value;
        if (res.statusCode >= 400 || (v && typeof v === 'object' && typeof v.error === 'string')) {
          const err = new Error(`WebDriver: ${method} ${path}: ${v?.error ?? `HTTP ${res.statusCode}`}: ${v?.message ?? text.slice(0, 300)}`);
          err.webdriverError = v?.error;
          return reject(err);
        }
        resolve(v);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

/**
 * The two WebKit ports' WebDriver servers: the program, its Debian packages,
 * the capabilities that start the browser, and whether its window can be sized.
 */
const WEBDRIVERS = {
  webkit: {
    driver: 'WebKitWebDriver', packages: 'webkit2gtk-driver libwebkit2gtk-4.1-0', pathVariable: 'MINIBROWSER_PATH', sized: true,
    capabilities: (exe) => ({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: exe, args: ['--automation'] } }),
  },
  wpe: {
    driver: 'WPEWebDriver', packages: 'cog wpewebkit-driver', pathVariable: 'COG_PATH', sized: false,
    capabilities: (exe) => ({ 'wpe:browserOptions': { binary: exe, args: ['--automation', '--platform=headless'] } }),
  },
};

/** A WebDriver server of one WebKit port (`name`: webkit or wpe) with one session: one browser window. */
async function startWebKitSession(name, display, viewport) {
  const kind = WEBDRIVERS[name];
  const exe = PATHS[name]();
  const port = await freePort();
  const install = `cannot start ${kind.driver} (Debian: apt-get install -y ${kind.packages})`;
  let driver;
  try {
    driver = track(spawn(kind.driver, [`--port=${port}`], {
      env: { ...process.env, ...(display ? { DISPLAY: display, GDK_BACKEND: 'x11' } : {}), NO_AT_BRIDGE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }));
  } catch (e) {
    throw launchError(name, install, e);
  }
  let log = '';
  driver.stdout.on('data', (d) => { log = (log + d).slice(-8000); });
  driver.stderr.on('data', (d) => { log = (log + d).slice(-8000); });
  const spawnError = new Promise((_, reject) => {
    driver.once('error', (e) => reject(launchError(name, install, e)));
    driver.once('exit', (code, sig) => reject(launchError(name, `${kind.driver} exited (${code ?? sig}): ${tail(log)}`)));
  });
  spawnError.catch(() => {});
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const call = (method, path, body) => wdRequest(agent, port, method, path, body);
  const fail = async (what, e) => {
    agent.destroy();
    await stop(driver);
    throw launchError(name, what, e ?? (log ? new Error(tail(log)) : undefined));
  };
  // Wait until the driver listens.
  const ready = (async () => {
    for (;;) {
      try {
        await call('GET', '/status');
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  })();
  try {
    await withTimeout(Promise.race([ready, spawnError]), 15_000, `${kind.driver} /status`);
  } catch (e) {
    await fail(`${kind.driver} did not come up`, e);
  }
  if (!existsSync(exe)) await fail(`no browser at ${exe} (Debian: apt-get install -y ${kind.packages}; or set ${kind.pathVariable})`);
  let session;
  try {
    session = await withTimeout(Promise.race([call('POST', '/session', { capabilities: { alwaysMatch: kind.capabilities(exe) } }),
      spawnError]), WEBKIT_SESSION_TIMEOUT_MS, `session creation${display ? ` on DISPLAY ${display}` : ''}`);
  } catch (e) {
    await fail(`the browser did not start (${exe}; ${kind.driver} waited for it to connect)${log ? `; driver log: ${tail(log)}` : ''}`, e);
  }
  const id = session.sessionId;
  const s = (method, path, body) => call(method, `/session/${id}${path}`, body);
  let chrome = { width: 0, height: 0 };
  const setViewport = (height) => s('POST', '/window/rect', { x: 0, y: 0, width: viewport.width + chrome.width, height: height + chrome.height });
  try {
    await s('POST', '/timeouts', { script: EVALUATE_TIMEOUT_MS + 30_000, pageLoad: 120_000, implicit: 0 });
    if (kind.sized) {
      // The window has a toolbar: size the window so that the page's viewport is `viewport`.
      await s('POST', '/window/rect', { x: 0, y: 0, width: viewport.width, height: viewport.height });
      const [iw, ih, ow, oh] = await s('POST', '/execute/sync', { script: 'return [innerWidth, innerHeight, outerWidth, outerHeight];', args: [] });
      chrome = { width: ow - iw, height: oh - ih };
      if (iw !== viewport.width || ih !== viewport.height) await setViewport(viewport.height);
    }
  } catch (e) {
    await s('DELETE', '').catch(() => {});
    await fail('setting up the browser session failed', e);
  }
  return {
    id,
    version: session.capabilities?.browserVersion,
    viewport,
    s,
    setViewport,
    async close() {
      await withTimeout(s('DELETE', ''), 10_000, `${name}: DELETE session`).catch(() => {});
      agent.destroy();
      await stop(driver);
    },
  };
}

/** freePort() can race with another process taking the port: one more try then. */
async function startWebKitSessionRetrying(name, display, viewport) {
  try {
    return await startWebKitSession(name, display, viewport);
  } catch (e) {
    if (!/WebDriver did not come up/.test(e.message)) throw e;
    return startWebKitSession(name, display, viewport);
  }
}

const WEBKIT_MAX_SHOT_HEIGHT = 16_384;
/** Resolves after the next frame was painted (or 250 ms, if frames do not come). */
function nextPaint() {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, 250);
    requestAnimationFrame(() => requestAnimationFrame(() => { clearTimeout(t); resolve(); }));
  });
}

class WebKitPage extends BasePage {
  constructor(name, session, onClose) {
    super(name);
    this._session = session;
    this._onClose = onClose;
  }
  /** Runs an expression resolving to { ok, ... } and takes what the capture script collected. */
  async _run(expression) {
    const script = `const __done = arguments[arguments.length - 1];
const __drain = () => { try { return window.__driverCapture ? window.__driverCapture.drain() : []; } catch (e) { return []; } };
Promise.resolve().then(() => ${expression}).then(
  (r) => __done({ r, problems: __drain() }),
  (e) => __done({ r: { ok: false, message: String(e && e.message || e), name: 'Error', stack: '' }, problems: __drain() }));`;
    const out = await this._session.s('POST', '/execute/async', { script, args: [] });
    for (const p of out?.problems ?? []) this._note(p);
    return out?.r;
  }
  async _harvest() {
    await this._run('({ ok: true })').catch(() => {});
  }
  async goto(url) {
    await this._harvest();
    this._origin = originOf(url);
    await this._session.s('POST', '/url', { url });
    // Pages served without the capture script get it now (later problems only).
    await this._run(`(() => { if (!window.__driverCapture) { ${CAPTURE_SCRIPT} } return { ok: true }; })()`);
  }
  async evaluate(fn, ...args) {
    return unwrap(await this._run(pageExpression(fn, args)), this.browserName);
  }
  async screenshot(path) {
    // WebDriver screenshots stop at the viewport: for a full page, the window grows to the
    // page's height for the shot (the page sees a resize), then goes back.
    const { viewport } = this._session;
    const height = await this.evaluate(() => Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0));
    const grow = Math.min(height, WEBKIT_MAX_SHOT_HEIGHT) > viewport.height;
    let b64;
    try {
      if (grow) {
        await this._session.setViewport(Math.min(height, WEBKIT_MAX_SHOT_HEIGHT));
        await this.evaluate(nextPaint);
      }
      b64 = await this._session.s('GET', '/screenshot');
    } finally {
      if (grow) {
        await this._session.setViewport(viewport.height);
        await this.evaluate(nextPaint);
      }
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, Buffer.from(b64, 'base64'));
  }
  async _mouseClick(x, y) {
    const px = Math.round(x);
    const py = Math.round(y);
    await this._session.s('POST', '/actions', {
      actions: [{
        type: 'pointer',
        id: 'mouse',
        parameters: { pointerType: 'mouse' },
        actions: [
          { type: 'pointerMove', duration: 0, origin: 'viewport', x: px, y: py },
          { type: 'pointerDown', button: 0 },
          { type: 'pointerUp', button: 0 },
        ],
      }],
    });
    await this._session.s('DELETE', '/actions').catch(() => {});
  }
  async close() {
    if (this._closed) return;
    this._closed = true;
    await this._harvest();
    await this._session.close();
    this._onClose(this);
  }
}

/**
 * A browser of one WebKit port (`name`: webkit or wpe), one WebDriver session
 * (its own driver and browser process) per page: sessions are isolated like
 * playwright's pages and do not queue behind each other's long scripts. The
 * first one also proves the browser starts and gives the version; newPage()
 * uses it. `display`: the X display (webkit), or none (wpe, headless).
 */
async function launchWebKitPort(name, label, viewport, display, onClose = async () => {}) {
  let spare = await startWebKitSessionRetrying(name, display, viewport);
  const pages = new Set();
  let closed = false;
  return {
    name,
    version: `${label} ${spare.version ?? 'unknown'}`,
    ...(display ? { display } : {}),
    async newPage() {
      if (closed) throw new Error(`${name}: the browser is closed`);
      const session = spare ?? await startWebKitSessionRetrying(name, display, viewport);
      spare = undefined;
      const page = new WebKitPage(name, session, (p) => pages.delete(p));
      pages.add(page);
      return page;
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...pages].map((p) => p.close().catch(() => {})));
      await spare?.close();
      spare = undefined;
      await onClose();
    },
  };
}

async function launchWebKit(viewport) {
  const exe = PATHS.webkit();
  if (!existsSync(exe)) throw launchError('webkit', `no MiniBrowser at ${exe} (Debian: apt-get install -y webkit2gtk-driver libwebkit2gtk-4.1-0; or set MINIBROWSER_PATH)`);
  const xvfb = await startXvfb(viewport);
  try {
    return await launchWebKitPort('webkit', 'WebKitGTK', viewport, xvfb.display, () => stop(xvfb.child));
  } catch (e) {
    await stop(xvfb.child);
    throw e;
  }
}

/** WPE WebKit through cog's headless platform: no display. */
async function launchWpe(viewport) {
  const exe = PATHS.wpe();
  if (!existsSync(exe)) throw launchError('wpe', `no cog at ${exe} (Debian: apt-get install -y ${WEBDRIVERS.wpe.packages}; or set COG_PATH)`);
  return launchWebKitPort('wpe', 'WPE WebKit', viewport, undefined);
}

// ------------------------------------------------------------------ launch

/**
 * Starts `name` (one of BROWSERS). Resolves to { name, version, newPage(), close() };
 * throws an Error naming the browser and what failed when it cannot start.
 */
export async function launch(name, { viewport = { width: 1280, height: 900 } } = {}) {
  switch (name) {
    case 'chromium':
      return launchChromium(viewport);
    case 'firefox':
      return launchFirefox(viewport);
    case 'webkit':
      return launchWebKit(viewport);
    case 'wpe':
      return launchWpe(viewport);
    default:
      throw new Error(`launch: unknown browser ${JSON.stringify(name)} (one of ${BROWSERS.join(', ')}, wpe)`);
  }
}

// ------------------------------------------------------------------ DOM helpers

/** Polls in the page until `selector` matches an element that is visible (or, with attached, exists). */
async function waitInPage(page, selector, { timeout = DEFAULT_TIMEOUT_MS, visible = true } = {}) {
  const found = await page.evaluate(async (sel, ms, vis) => {
    const isVisible = (el) => {
      if (!el.isConnected) return false;
      const st = getComputedStyle(el);
      if (st.visibility === 'hidden' || st.visibility === 'collapse') return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    };
    const deadline = Date.now() + ms;
    for (;;) {
      const el = document.querySelector(sel);
      if (el && (!vis || isVisible(el))) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, 25));
    }
  }, selector, timeout, visible);
  if (!found) throw new Error(`waitFor: ${selector} did not ${visible ? 'become visible' : 'appear'} within ${timeout} ms`);
}

export async function waitFor(page, selector, { timeout = DEFAULT_TIMEOUT_MS } = {}) {
  await waitInPage(page, selector, { timeout, visible: true });
}

export async function click(page, selector, { timeout = DEFAULT_TIMEOUT_MS } = {}) {
  await waitInPage(page, selector, { timeout, visible: true });
  await page._nativeClick(selector, timeout);
}

export async function fill(page, selector, value, { timeout = DEFAULT_TIMEOUT_MS } = {}) {
  await waitInPage(page, selector, { timeout, visible: true });
  await page.evaluate((sel, v) => {
    const el = document.querySelector(sel);
    const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype
      : el instanceof HTMLInputElement ? HTMLInputElement.prototype : null;
    if (!proto && !el.isContentEditable) throw new Error(`fill: ${sel} is not an <input>, <textarea> or contenteditable`);
    if (el.disabled || el.readOnly) throw new Error(`fill: ${sel} is disabled or read-only`);
    el.focus();
    if (proto) Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, v);
    else el.textContent = v;
    el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: v }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }, selector, String(value));
}

export async function selectOption(page, selector, value, { timeout = DEFAULT_TIMEOUT_MS } = {}) {
  await waitInPage(page, selector, { timeout, visible: true });
  await page.evaluate((sel, v) => {
    const el = document.querySelector(sel);
    if (!(el instanceof HTMLSelectElement)) throw new Error(`selectOption: ${sel} is not a <select>`);
    if (el.disabled) throw new Error(`selectOption: ${sel} is disabled`);
    const opt = [...el.options].find((o) => o.value === v);
    if (!opt) throw new Error(`selectOption: ${sel} has no option with value ${JSON.stringify(v)}`);
    if (opt.disabled) throw new Error(`selectOption: the option ${JSON.stringify(v)} of ${sel} is disabled`);
    el.focus();
    el.value = v;
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }, selector, String(value));
}

async function setChecked(page, selector, want, timeout) {
  await waitInPage(page, selector, { timeout, visible: true });
  const state = () => page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!(el instanceof HTMLInputElement) || !['checkbox', 'radio'].includes(el.type)) throw new Error(`check: ${sel} is not a checkbox or radio`);
    return el.checked;
  }, selector);
  if ((await state()) === want) return;
  if (!want && (await page.evaluate((sel) => document.querySelector(sel).type, selector)) === 'radio') {
    throw new Error(`uncheck: ${selector} is a radio button (check another one instead)`);
  }
  await page._nativeClick(selector, timeout);
  if ((await state()) !== want) throw new Error(`${want ? 'check' : 'uncheck'}: ${selector} is still ${want ? 'unchecked' : 'checked'} after a click`);
}
export function check(page, selector, { timeout = DEFAULT_TIMEOUT_MS } = {}) {
  return setChecked(page, selector, true, timeout);
}
export function uncheck(page, selector, { timeout = DEFAULT_TIMEOUT_MS } = {}) {
  return setChecked(page, selector, false, timeout);
}

export function exists(page, selector) {
  return page.evaluate((sel) => document.querySelector(sel) !== null, selector);
}

export async function textContent(page, selector, { timeout = DEFAULT_TIMEOUT_MS } = {}) {
  await waitInPage(page, selector, { timeout, visible: false });
  return page.evaluate((sel) => document.querySelector(sel).textContent, selector);
}

export async function getAttribute(page, selector, name, { timeout = DEFAULT_TIMEOUT_MS } = {}) {
  await waitInPage(page, selector, { timeout, visible: false });
  return page.evaluate((sel, n) => document.querySelector(sel).getAttribute(n), selector, name);
}

/** True when nothing matches or the first match is not visible (playwright's isHidden). */
export function isHidden(page, selector) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return true;
    const st = getComputedStyle(el);
    if (st.visibility === 'hidden' || st.visibility === 'collapse') return true;
    const r = el.getBoundingClientRect();
    return !(r.width > 0 && r.height > 0);
  }, selector);
}

/** fn(elements, ...args) in the page, with every match of selector (like playwright's $$eval). */
export function evalAll(page, selector, fn, ...args) {
  if (typeof fn !== 'function') throw new TypeError('evalAll(page, selector, fn): fn must be a function');
  // evaluate() sends fn.toString(): this one calls fn with the matches.
  const withElements = () => {};
  withElements.toString = () => `(sel, ...rest) => (${fn.toString()})([...document.querySelectorAll(sel)], ...rest)`;
  return page.evaluate(withElements, selector, ...args);
}
