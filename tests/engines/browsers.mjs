// The portable suite in a browser (tests/browsers/drivers.mjs): the consumer
// project served on 127.0.0.1, cross-origin isolated (COOP/COEP, so that
// SharedArrayBuffer exists as it does for sites that opt in; `isolated: false`
// serves it plain), and the suite
// run in the page and in a module worker that the page starts, and in the
// page through the library's worker form (whose worker it starts). The library is
// imported from the installed package's dist/esm, as a page without a
// bundler would.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CAPTURE_PATH, CAPTURE_SCRIPT, CAPTURE_TAG, launch, needsCaptureScript } from '../browsers/drivers.mjs';
import { serve } from '../support/static-server.mjs';

const LIB = '/node_modules/onnx-ops-wasm/dist/esm/index.js';

// Both run the suite on a message { env } and answer { report } or { error }.
const pageModule = `import * as lib from '${LIB}';
import { runSuite } from '/suite.mjs';
const conformance = fetch('/conformance.json').then((r) => r.json());
// From a task of the page's own: code the driver evaluates may be exempt from the page's CSP.
window.runInPage = async (env) => {
  await new Promise((resolve) => setTimeout(resolve, 0));
  return runSuite(lib, { ...env, conformance: await conformance });
};
// A worker that never answers fails its run after 5 minutes, rather than the
// driver's 10-minute script timeout.
window.runInWorker = (env) => new Promise((resolve, reject) => {
  const worker = new Worker('/worker.mjs', { type: 'module' });
  const timer = setTimeout(() => { worker.terminate(); reject(new Error('the worker sent no report within 5 minutes')); }, 300000);
  worker.onmessage = ({ data }) => {
    clearTimeout(timer);
    worker.terminate();
    data.error ? reject(new Error('worker: ' + data.error)) : resolve(data.report);
  };
  worker.onerror = (e) => { clearTimeout(timer); reject(new Error('the worker failed to start: ' + (e.message || 'no message'))); };
  worker.postMessage(env);
});
window.suiteReady = true;
`;
const workerModule = `import * as lib from '${LIB}';
import { runSuite } from '/suite.mjs';
self.onmessage = async ({ data: env }) => {
  try {
    const conformance = await (await fetch('/conformance.json')).json();
    self.postMessage({ report: await runSuite(lib, { ...env, conformance }) });
  } catch (e) {
    self.postMessage({ error: String(e && e.stack || e) });
  }
};
`;
const html = (capture) => `<!doctype html>\n<meta charset="utf-8">\n<link rel="icon" href="data:,">\n${capture ? CAPTURE_TAG : ''}
<title>onnx-ops-wasm portable suite</title>\n<script type="module" src="/page.mjs"></script>\n`;

/**
 * Runs the suite's runs of engine `name` (engines.mjs's BROWSERS: its
 * browser, features, runs and CSP); resolves to their reports (a failure to
 * start is a failed report).
 */
export async function runInBrowser(name, dir, { browser: driver, expect, runs, csp, isolated = true }) {
  writeFileSync(join(dir, 'index.html'), html(needsCaptureScript(driver)));
  writeFileSync(join(dir, 'page.mjs'), pageModule);
  writeFileSync(join(dir, 'worker.mjs'), workerModule);
  writeFileSync(join(dir, CAPTURE_PATH.slice(1)), CAPTURE_SCRIPT);
  const server = await serve([['/', dir]], () => ({
    ...(isolated ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } : {}),
    ...(csp ? { 'Content-Security-Policy': csp } : {}),
  }));
  const failed = (engine, version, message) => ({ engine, version, passed: 0, failed: 1, failures: [{ name: 'the engine ran the suite', message }] });
  let browser;
  const reports = [];
  try {
    browser = await launch(driver);
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await page.evaluate(async () => {
      for (let i = 0; i < 500 && !window.suiteReady; i++) await new Promise((r) => setTimeout(r, 20));
      if (!window.suiteReady) throw new Error('the page did not load the library and the suite');
    });
    for (const { where, backend, expectBackend, form = 'sync' } of runs) {
      const env = {
        engine: `${name}-${where}${backend ? `-${backend}` : ''}${form === 'worker' ? '-worker-form' : ''}`,
        expect, bigMemory: false, backend, expectBackend, form,
      };
      try {
        const report = await page.evaluate((e, w) => (w === 'page' ? window.runInPage(e) : window.runInWorker(e)), env, where);
        reports.push({ ...report, version: browser.version });
      } catch (e) {
        reports.push(failed(env.engine, browser.version, e.message));
      }
    }
    const problems = page.problems();
    if (problems.length) reports.push(failed(`${name}-console`, browser.version, `the page reported problems:\n${problems.join('\n')}`));
    await page.close();
  } catch (e) {
    reports.push(failed(name, browser?.version ?? name, e.message));
  } finally {
    await browser?.close();
    await server.close();
  }
  return reports;
}
