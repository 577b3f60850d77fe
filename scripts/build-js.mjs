// Compiles js/src to dist/cjs (CommonJS), dist/esm (ES modules) and
// dist/types (declarations), and puts the matching wasm glue beside each.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const project = join(root, 'js', 'tsconfig.build.json');
const run = (...args) => execFileSync(process.execPath, [tsc, '-p', project, ...args], { stdio: 'inherit' });

rmSync(dist, { recursive: true, force: true });
run('--module', 'commonjs', '--moduleResolution', 'node', '--outDir', join(dist, 'cjs'));
run('--module', 'es2020', '--moduleResolution', 'bundler', '--outDir', join(dist, 'esm'));
run('--module', 'es2020', '--moduleResolution', 'bundler', '--declaration', '--emitDeclarationOnly',
  '--outDir', join(dist, 'types'));

for (const [kind, type] of [['cjs', 'commonjs'], ['esm', 'module']]) {
  mkdirSync(join(dist, kind, 'wasm'), { recursive: true });
  copyFileSync(join(root, 'build', 'wasm', 'module', kind, 'onnx-ops-wasm.js'), join(dist, kind, 'wasm', 'onnx-ops-wasm.js'));
  writeFileSync(join(dist, kind, 'package.json'), JSON.stringify({ type }) + '\n');
}
mkdirSync(join(dist, 'types', 'wasm'), { recursive: true });
copyFileSync(join(root, 'js', 'src', 'wasm', 'onnx-ops-wasm.d.ts'), join(dist, 'types', 'wasm', 'onnx-ops-wasm.d.ts'));
console.log('build-js: dist/cjs, dist/esm, dist/types');
