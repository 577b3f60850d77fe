// No function in js/src takes more than 6 parameters: a call's context
// travels as one record (js/src/call.ts), not as long parameter lists. Read
// from the sources with the TypeScript compiler: every function, method,
// constructor, accessor and arrow function.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const SRC = join(ROOT, 'js', 'src');
const MAX_PARAMETERS = 6;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every function-like declaration of a source text with more than `max` parameters: "name (line): count". */
function overLimit(fileName: string, text: string, max: number): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && node.parameters.length > max) {
      const name = ts.isConstructorDeclaration(node) ? 'constructor' : 'name' in node && node.name ? node.name.getText(file) : '(anonymous)';
      const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
      found.push(`${fileName}:${line} ${name}: ${node.parameters.length} parameters`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('parameter lists in js/src', () => {
  test(`no function takes more than ${MAX_PARAMETERS} parameters`, () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(10);
    const found = files.flatMap((f) => overLimit(relative(ROOT, f), readFileSync(f, 'utf8'), MAX_PARAMETERS));
    expect(found).toEqual([]);
  });

  test('the check finds long lists in every function form', () => {
    const text = `
      function f(a, b, c, d, e, f, g) {}
      const g = (a, b, c, d, e, f, g) => 0;
      class C { constructor(a, b, c, d, e, f, g) {} m(a, b, c, d, e, f, g) {} }
      const h = function (a, b, c, d, e, f, g) {};
      function ok(a, b, c, d, e, f) {}`;
    expect(overLimit('x.ts', text, MAX_PARAMETERS)).toEqual([
      'x.ts:2 f: 7 parameters', 'x.ts:3 (anonymous): 7 parameters', 'x.ts:4 constructor: 7 parameters',
      'x.ts:4 m: 7 parameters', 'x.ts:5 (anonymous): 7 parameters',
    ]);
  });
});
