// The layering of js/src, from its import statements (type imports and
// import() included): no import circle, core/ imports only dtypes.ts,
// errors.ts and core/, and check/ and backend/ never import each other.
// The checks first prove on made-up graphs that they find what they look for,
// as scripts/check-includes.mjs does for the C++ headers.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';

const SRC = join(__dirname, '..', '..', 'js', 'src');

type Graph = Map<string, string[]>;

// The cycle finder the C++ include check uses too.
const { findCycle } = require('../../scripts/find-cycle.cjs') as { findCycle: (g: Graph) => string[] | undefined };

/** Every .ts file under dir, as a path relative to js/src with '/' separators. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [relative(SRC, p).split('\\').join('/')] : [];
  });
}

/** The relative specifiers a module imports or re-exports, statically or by import(), type-only ones too. */
export function specifiers(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const found: string[] = [];
  const patterns = [/\b(?:import|export)\b[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const re of patterns) for (const m of code.matchAll(re)) found.push(m[1]);
  return found.filter((s) => s.startsWith('.'));
}

/** js/src's import graph: file -> the files it imports (a '.js' specifier names its '.ts' source). */
function graph(): Graph {
  const files = new Set(sources(SRC));
  const g: Graph = new Map();
  for (const f of files) {
    const deps = specifiers(readFileSync(join(SRC, f), 'utf8')).map((s) => posix.normalize(posix.join(posix.dirname(f), s)).replace(/\.js$/, '.ts'));
    g.set(f, deps.filter((d) => files.has(d))); // the generated wasm/*.js modules are leaves
  }
  return g;
}

/** The imports that break the layering, as 'from -> to'. */
export function layerBreaks(g: Graph): string[] {
  const top = (f: string) => (f.includes('/') ? f.slice(0, f.indexOf('/')) : f);
  const breaks: string[] = [];
  for (const [f, deps] of g) {
    for (const d of deps) {
      const [a, b] = [top(f), top(d)];
      const coreOk = b === 'core' || d === 'dtypes.ts' || d === 'errors.ts';
      if ((a === 'core' && !coreOk) || (a === 'check' && b === 'backend') || (a === 'backend' && b === 'check')) breaks.push(`${f} -> ${d}`);
    }
  }
  return breaks.sort();
}

describe('the checks find what they look for (made-up sources)', () => {
  test('every form of import is read, comments are not', () => {
    const text = [
      "import { a } from './a.js';", "import type { B } from '../b.js';", "export { c } from './c.js';", "export * from './d.js';",
      "import './e.js';", "const f = await import('./f.js');", "import {\n  g,\n  type G,\n} from './g.js';",
      "// import { no } from './comment.js';", "/* import('./block.js') */", "import fs from 'node:fs';",
    ].join('\n');
    expect(specifiers(text)).toEqual(expect.arrayContaining(['./a.js', '../b.js', './c.js', './d.js', './e.js', './f.js', './g.js']));
    expect(specifiers(text)).toHaveLength(7);
  });

  test('a circle is found, through type imports too; a tree is not one', () => {
    const circle: Graph = new Map([['a.ts', ['b.ts']], ['b.ts', ['c/x.ts']], ['c/x.ts', ['a.ts']], ['d.ts', ['a.ts']]]);
    expect(findCycle(circle)).toEqual(['a.ts', 'b.ts', 'c/x.ts', 'a.ts']);
    expect(findCycle(new Map([['a.ts', ['b.ts', 'c.ts']], ['b.ts', ['c.ts']], ['c.ts', []]]))).toBeUndefined();
  });

  test('check/ <-> backend/ and core/ importing upward are found', () => {
    const g: Graph = new Map([['check/a.ts', ['backend/b.ts', 'core/c.ts']], ['backend/b.ts', ['check/a.ts']],
      ['core/c.ts', ['dtypes.ts', 'errors.ts', 'api/ops.ts']], ['api/ops.ts', ['check/a.ts', 'backend/b.ts']]]);
    expect(layerBreaks(g)).toEqual(['backend/b.ts -> check/a.ts', 'check/a.ts -> backend/b.ts', 'core/c.ts -> api/ops.ts']);
  });
});

describe('js/src', () => {
  const g = graph();

  test('its graph is the whole source tree', () => {
    expect(g.size).toBeGreaterThan(25);
    expect(g.get('api/ops.ts')).toEqual(expect.arrayContaining(['api/core.ts', 'check/prepare.ts']));
    expect(g.get('api/core.ts')).toEqual(expect.arrayContaining(['core/call.ts', 'backend/backend.ts']));
    expect(dirname(SRC)).toMatch(/js$/);
  });

  test('has no import circle (type imports included)', () => {
    expect(findCycle(g)).toBeUndefined();
  });

  test('core/ imports only dtypes.ts, errors.ts and core/; check/ and backend/ never import each other', () => {
    expect(layerBreaks(g)).toEqual([]);
  });
});
