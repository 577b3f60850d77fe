// The portable suite (tests/portable/), each case a Jest test, against the
// package's CommonJS build (dist/cjs), through the sync API and the worker
// form. The same cases run in every other engine through tests/engines/run.mjs;
// there each engine's features are pinned, here they are those of the Node
// that runs Jest.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as lib from 'onnx-ops-wasm';
import { detectFeatures, suiteCases } from '../portable/suite';

const FILE = join(__dirname, '..', '..', '..', 'shared', 'conformance', 'onnx-backend-node.json');
const conformance = JSON.parse(readFileSync(FILE, 'utf8')) as { cases: unknown[] };
const engine = `jest-node${process.versions.node}`;

// The sync API, then the worker form (createOps({ worker: true }), its worker
// on node:worker_threads); the 4 GiB case once, in the sync form.
describe.each([
  ['portable suite', suiteCases(lib, { engine, conformance, expect: detectFeatures(), bigMemory: true })],
  ['portable suite, worker form', suiteCases(lib, { engine: `${engine}-worker-form`, conformance, expect: detectFeatures(), bigMemory: false, form: 'worker' })],
])('%s', (_name, cases) => {
  test('has the cases it announces', () => {
    expect(cases.length).toBeGreaterThan(2400);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });
  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await c.run();
  });
});
