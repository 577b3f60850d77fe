// The portable suite in a server-side runtime (Node, Deno, Bun), from a
// consumer project that installed the packed tarball:
//
//   <runtime> run-suite.mjs '<env json>' [cjs]
//
// The env is the suite's Env without the conformance cases, which are read
// from conformance.json beside this file. The form: `esm` imports the
// library, `cjs` require()s it (Node's CommonJS build), `js` and `js-cjs` do
// the same with onnx-ops-wasm/js (the one-file build on the js backend). Prints each failure,
// then the report as one JSON line, then `N passed, M failed`; exits 1 on any
// failure.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { runSuite } from './suite.mjs';

const [envJson, form = 'esm'] = process.argv.slice(2);
const entry = form.startsWith('js') ? 'onnx-ops-wasm/js' : 'onnx-ops-wasm';
const lib = form.endsWith('cjs') ? createRequire(import.meta.url)(entry) : await import(entry);
const conformance = JSON.parse(readFileSync(new URL('./conformance.json', import.meta.url), 'utf8'));
const report = await runSuite(lib, { ...JSON.parse(envJson), conformance });
for (const f of report.failures) console.log(`FAIL ${f.name}\n  ${f.message}`);
console.log(JSON.stringify(report));
console.log(`${report.passed} passed, ${report.failed} failed`);
process.exitCode = report.failed ? 1 : 0;
