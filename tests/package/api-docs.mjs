// docs/API.md is hand-kept; this keeps it complete and current. It reads the
// package's declarations (dist/types/index.d.mts) with the TypeScript compiler
// and checks that
//   - every export (value or type) has a `### `name`` heading in docs/API.md;
//   - every public member of an exported class or interface (Ops.max,
//     WasmTensor.dispose, OpOptions.opset, ...) is named in the code (`spans`
//     or fenced blocks) of its export's section;
//   - every `### ` heading names an export (nothing documented that is gone);
//   - the runtime module exports exactly the value exports the types declare;
//   - the CommonJS declarations (index.d.ts) declare the same, and __esModule;
//   - onnx-ops-wasm/js (js.d.mts, js.d.ts, dist/{esm,cjs}/js.js) exports the same.
//
//   npm run build && node --test tests/package/api-docs.mjs   (tests/package/run.mjs runs it too)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TYPES = join(ROOT, 'dist', 'types', 'index.d.mts');
const CJS_TYPES = join(ROOT, 'dist', 'types', 'index.d.ts');
const DOC = join(ROOT, 'docs', 'API.md');

/** The package's exports: name -> { value, members } from the declarations `file`. */
function declaredExports(file = TYPES) {
  const program = ts.createProgram([file], {
    strict: true, noEmit: true, skipLibCheck: true, types: [],
    module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
  });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(file));
  const out = new Map();
  for (const sym of checker.getExportsOfModule(moduleSymbol)) {
    const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
    // `export type { WorkerOps }`: a class whose type alone is exported (the module has no such value).
    const spec = sym.declarations?.[0];
    const typeOnly = spec !== undefined && ts.isExportSpecifier(spec) && (spec.isTypeOnly || spec.parent.parent.isTypeOnly);
    const value = (target.flags & ts.SymbolFlags.Value) !== 0 && !typeOnly;
    const members = [];
    if (target.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface)) {
      for (const m of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(target))) {
        const decl = m.declarations?.[0];
        if (!decl || !decl.getSourceFile().fileName.startsWith(join(ROOT, 'dist', 'types'))) continue; // inherited (Error)
        if (ts.getCombinedModifierFlags(decl) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
        if (m.name.startsWith('#')) continue; // `#private`: declarations' stand-in for private fields
        // A symbol-keyed member (TypeScript's __@dispose@29) as its source names it: Symbol.dispose.
        members.push(m.name.startsWith('__@') ? `Symbol.${m.name.slice(3).replace(/@\d+$/, '')}` : m.name);
      }
    }
    out.set(sym.name, { value, members });
  }
  return out;
}

/** docs/API.md's `### ` sections: first backticked identifier of the heading -> section text. */
function docSections(text) {
  const sections = new Map();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^### .*?`([A-Za-z_$][\w$]*)/.exec(lines[i]);
    if (!m) continue;
    let end = i + 1;
    while (end < lines.length && !/^#{1,3} /.test(lines[end])) end++;
    sections.set(m[1], (sections.get(m[1]) ?? '') + lines.slice(i, end).join('\n'));
  }
  return sections;
}

test('docs/API.md documents every export of the package and every public member', async () => {
  assert.ok(existsSync(TYPES), 'dist/types/index.d.mts is missing: run `npm run build` first');
  const declared = declaredExports();
  const sections = docSections(readFileSync(DOC, 'utf8'));
  assert.ok(declared.size > 20, `only ${declared.size} exports found`);
  const missing = [...declared.keys()].filter((name) => !sections.has(name));
  assert.deepEqual(missing, [], 'exports without a "### `name`" section in docs/API.md');
  const stale = [...sections.keys()].filter((name) => !declared.has(name));
  assert.deepEqual(stale, [], 'docs/API.md sections for names the package does not export');
  const undocumented = [];
  for (const [name, { members }] of declared) {
    // The code in the section: `spans` and fenced blocks.
    const code = [...(sections.get(name) ?? '').matchAll(/```[^]*?```|`[^`\n]+`/g)].map((m) => m[0]).join('\n');
    for (const m of members) {
      if (!new RegExp(`(?<![\\w$])${m.replace(/[$.]/g, '\\$&')}(?![\\w$])`).test(code)) undocumented.push(`${name}.${m}`);
    }
  }
  assert.deepEqual(undocumented, [], 'members not named in their section of docs/API.md');

  const runtime = Object.keys(await import(join(ROOT, 'dist', 'esm', 'index.js'))).sort();
  const values = [...declared].filter(([, d]) => d.value).map(([n]) => n).sort();
  assert.deepEqual(runtime, values, 'the module\'s exports and the declared value exports differ');

  const cjs = declaredExports(CJS_TYPES);
  assert.deepEqual([...cjs.keys()].sort(), [...declared.keys(), '__esModule'].sort(), 'index.d.ts and index.d.mts');
  assert.equal(createRequire(import.meta.url)(join(ROOT, 'dist', 'cjs', 'index.js')).__esModule, true);

  // onnx-ops-wasm/js: the same API (its createOps() on the js backend alone), documented by the same sections.
  assert.deepEqual([...declaredExports(join(ROOT, 'dist', 'types', 'js.d.mts')).keys()].sort(), [...declared.keys()].sort(), 'js.d.mts and index.d.mts');
  assert.deepEqual([...declaredExports(join(ROOT, 'dist', 'types', 'js.d.ts')).keys()].sort(), [...cjs.keys()].sort(), 'js.d.ts and index.d.ts');
  assert.deepEqual(Object.keys(await import(join(ROOT, 'dist', 'esm', 'js.js'))).sort(), values, 'js.js (ES module) exports');
  const jsCjs = createRequire(import.meta.url)(join(ROOT, 'dist', 'cjs', 'js.js'));
  assert.deepEqual(Object.keys(jsCjs).filter((k) => k !== '__esModule').sort(), values, 'js.js (CommonJS) exports');
});
