// One entry of the unpacked package run in a bare Node vm context, an
// embedded-V8-like host: no WebAssembly (deleted), no URL, no process, no
// Worker, no require of Node's modules. Run by tests/hosts/run.mjs:
//
//   node --experimental-vm-modules tests/hosts/vm.mjs <package dir> <esm|cjs> <dist file>
//   node tests/hosts/vm.mjs <package dir> script <one script that calls done(json)>
//
// ES modules load through vm.SourceTextModule, their relative imports (and
// import()) resolved in the package; CommonJS through a require() that does
// the same; a script loads nothing. Prints one JSON line: { globals, loaded,
// result }, result being hostCheck()'s (tests/hosts/check.mjs).
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import vm from 'node:vm';
import { hostScript } from './check.mjs';

const [pkg, kind, file] = process.argv.slice(2);
const context = vm.createContext({});
vm.runInContext('delete globalThis.WebAssembly', context);
const globals = vm.runInContext(`[typeof WebAssembly, typeof URL, typeof process, typeof Worker, typeof require, typeof setTimeout].join()`, context);
const loaded = [];
/** A file of the package: what a specifier beside `from` names; nothing outside the package. */
const fileOf = (from, specifier) => {
  const path = resolve(dirname(from), specifier);
  if (!specifier.startsWith('.') || relative(pkg, path).startsWith('..')) throw new Error(`the host has no module ${JSON.stringify(specifier)}`);
  return path;
};

let done;
const result = new Promise((resolve) => { done = resolve; });
context.done = (json) => done(json);
if (kind === 'esm') {
  const modules = new Map();
  const moduleOf = (path) => {
    if (!modules.has(path)) {
      loaded.push(relative(pkg, path));
      modules.set(path, new vm.SourceTextModule(readFileSync(path, 'utf8'), { context, identifier: path, importModuleDynamically }));
    }
    return modules.get(path);
  };
  const link = (specifier, from) => moduleOf(fileOf(from.identifier, specifier));
  async function importModuleDynamically(specifier, from) {
    const m = link(specifier, from);
    if (m.status === 'unlinked') await m.link(link);
    if (m.status === 'linked') await m.evaluate();
    return m;
  }
  const main = new vm.SourceTextModule(`import * as lib from "./${file}";\n${hostScript('lib', 'done')}`,
    { context, identifier: join(pkg, 'host-check.mjs'), importModuleDynamically });
  await main.link(link);
  await main.evaluate();
} else if (kind === 'script') {
  vm.runInContext(readFileSync(file, 'utf8'), context, { filename: file });
} else {
  const cache = new Map();
  const requireFrom = (from) => (specifier) => {
    const path = fileOf(from, specifier);
    if (!cache.has(path)) {
      loaded.push(relative(pkg, path));
      const module = { exports: {} };
      cache.set(path, module);
      vm.runInContext(`(function (exports, require, module, __filename, __dirname) {${readFileSync(path, 'utf8')}\n})`, context, { filename: path })
        .call(module.exports, module.exports, requireFrom(path), module, path, dirname(path));
    }
    return cache.get(path).exports;
  };
  const lib = requireFrom(join(pkg, 'host-check.cjs'))(`./${file}`);
  vm.runInContext(`(function (lib) {\n${hostScript('lib', 'done')}})`, context)(lib);
}
console.log(JSON.stringify({ globals, loaded, result: JSON.parse(await result) }));
