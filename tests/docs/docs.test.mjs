// The maintainers' performance page stays a reference (method, current results,
// bounds), not a diary: at most 25,000 bytes, and every link into it from the
// repository's docs and sources names a heading it has.
//   node --test tests/docs/docs.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PERFORMANCE = path.join(ROOT, 'docs', 'PERFORMANCE.md');
const MAX_BYTES = 25_000;

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

test('every link to a section of docs/PERFORMANCE.md names one of its headings', () => {
  const anchors = new Set(readFileSync(PERFORMANCE, 'utf8').split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => slug(l.replace(/^#+ /, ''))));
  const links = [];
  for (const f of files(ROOT)) {
    for (const m of readFileSync(f, 'utf8').matchAll(/PERFORMANCE\.md#([\w-]+)/g)) links.push({ file: path.relative(ROOT, f), anchor: m[1] });
  }
  for (const m of readFileSync(PERFORMANCE, 'utf8').matchAll(/\]\(#([\w-]+)\)/g)) links.push({ file: 'docs/PERFORMANCE.md', anchor: m[1] });
  assert.ok(links.length > 0, 'the docs link into docs/PERFORMANCE.md');
  assert.deepEqual(links.filter((l) => !anchors.has(l.anchor)), [], 'links to headings docs/PERFORMANCE.md does not have');
});
