// The engines the portable suite runs in, and what each is expected to offer
// (the suite fails where an engine has more or less than this, so that no
// case is left out unnoticed). The runtimes come from tests/engines/package.json
// (npm), the browsers from Debian (scripts/setup.sh).
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const modules = fileURLToPath(new URL('./node_modules/', import.meta.url));
/** The packages' postinstall moves their platform binary into place; before it, the binary is in the platform package. */
const binary = (...paths) => {
  const found = paths.map((p) => modules + p).find((p) => existsSync(p) && statSync(p).size > 1 << 20);
  return found ?? modules + paths[0];
};
const all = { float16Array: true, using: true, sharedArrayBuffer: true, resizableArrayBuffer: true };
const noF16 = { ...all, float16Array: false, using: false };

/** Server-side runtimes: the command that runs an ES module file, and the forms of the library they load. */
export const RUNTIMES = [
  { name: 'node20', command: ['/usr/bin/node'], forms: ['esm', 'cjs'], expect: noF16 },
  { name: 'node22', command: [`${modules}node22/bin/node`], forms: ['esm', 'cjs'], expect: noF16 },
  { name: 'node24', command: [`${modules}node24/bin/node`], forms: ['esm', 'cjs'], expect: all },
  { name: 'node26', command: [`${modules}node26/bin/node`], forms: ['esm', 'cjs'], expect: all },
  { name: 'deno', command: [binary('deno/deno', '@deno/linux-x64-glibc/deno'), 'run', '-A', '--node-modules-dir=manual'], forms: ['esm'], expect: all },
  { name: 'bun', command: [binary('bun/bin/bun.exe', '@oven/bun-linux-x64/bin/bun')], forms: ['esm', 'cjs'], expect: all },
];

/** Browsers (tests/browsers/drivers.mjs): a page, and a module worker started by it. */
export const BROWSER_EXPECT = {
  chromium: all,
  firefox: all,
  // WebKitGTK 2.50's MiniBrowser: no `using` yet, and no SharedArrayBuffer even on a
  // cross-origin isolated page (crossOriginIsolated is true there).
  webkit: { ...all, using: false, sharedArrayBuffer: false },
};
