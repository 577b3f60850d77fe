// The maintainers' performance page stays a reference (method, current results,
// bounds), not a diary: at most 25,000 bytes; the design page stays what a
// maintainer reads in one sitting (layers, data flow, the seam, the worker,
// the decisions, the recipes; each file's concerns are its opening comment's):
// under 30,000 bytes. Every link into either from the repository's docs and
// sources names a heading it has. And the patch that proves DESIGN.md's recipe
// for adding an op still applies. About 1 s here.
//   node --test tests/docs/docs.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PERFORMANCE = path.join(ROOT, 'docs', 'PERFORMANCE.md');
const MAX_BYTES = 25_000;
const DESIGN = path.join(ROOT, 'docs', 'DESIGN.md');
const DESIGN_MAX_BYTES = 30_000;

/** GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');

function* files(dir) {
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.') || ['node_modules', 'build', 'dist', 'test-artifacts'].includes(name)) continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.(md|mjs|cjs|js|ts|h|cpp|c|txt|html)$/.test(name)) yield p;
  }
}

test(`docs/PERFORMANCE.md is at most ${MAX_BYTES.toLocaleString('en-US')} bytes`, () => {
  const bytes = statSync(PERFORMANCE).size;
  assert.ok(bytes <= MAX_BYTES, `docs/PERFORMANCE.md is ${bytes} bytes: keep the method, the current results and the bounds; history goes to git`);
});

test(`docs/DESIGN.md is under ${DESIGN_MAX_BYTES.toLocaleString('en-US')} bytes`, () => {
  const bytes = statSync(DESIGN).size;
  assert.ok(bytes < DESIGN_MAX_BYTES, `docs/DESIGN.md is ${bytes} bytes: keep the layers, the data flow, the seam, the worker, the decisions (figures: PERFORMANCE.md) and the recipes; what a file does goes in its opening comment`);
});

for (const page of [PERFORMANCE, DESIGN]) {
  const name = path.basename(page);
  test(`every link to a section of docs/${name} names one of its headings`, () => {
    const text = readFileSync(page, 'utf8').replace(/^```[^]*?^```/gm, '');
    const anchors = new Set(text.split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => slug(l.replace(/^#+ /, ''))));
    const links = [];
    for (const f of files(ROOT)) {
      for (const m of readFileSync(f, 'utf8').matchAll(new RegExp(`${name.replace('.', '\\.')}#([\\w-]+)`, 'g'))) links.push({ file: path.relative(ROOT, f), anchor: m[1] });
    }
    for (const m of text.matchAll(/\]\(#([\w-]+)\)/g)) links.push({ file: `docs/${name}`, anchor: m[1] });
    assert.ok(links.length > 0, `the docs link into docs/${name}`);
    assert.deepEqual(links.filter((l) => !anchors.has(l.anchor)), [], `links to headings docs/${name} does not have`);
  });
}

// DESIGN.md's "Adding an op" is proved by docs/recipes/add-min.patch, ONNX Min
// through the recipe: it must still apply to this tree, and touch at most 5
// product files (the rest are tests).
test('docs/recipes/add-min.patch applies to the tree and touches at most 5 product files', () => {
  const patch = path.join(ROOT, 'docs', 'recipes', 'add-min.patch');
  const files = [...readFileSync(patch, 'utf8').matchAll(/^diff --git a\/(\S+) b\//gm)].map((m) => m[1]);
  const product = files.filter((f) => !f.startsWith('tests/'));
  assert.deepEqual(product.sort(), ['js/src/backend/js/kernels.ts', 'js/src/core/spec.ts', 'src/config/binary_config.cpp', 'src/dtypes/traits.h', 'src/ops.h']);
  assert.ok(files.length > product.length, 'the patch carries its tests');
  const r = spawnSync('git', ['apply', '--check', patch], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, `git apply --check: ${r.stderr}`);
});
