// What the library does with what a runtime has or lacks: native
// Float16Array (in and out, and createOps({ float16Array: true })),
// Symbol.dispose (`using`), and UNSUPPORTED_ENGINE where SIMD128 or a way to
// inflate the built-in wasm is missing. Jest runs on Node 20, which has no
// Float16Array and no `using` syntax, so those cases run the built package
// (dist/, `npm run build`) in a Node 24 child process; the engine cases run it
// in Node 20 children with a global taken away or replaced.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';
import ts from 'typescript';
import { ERROR_CODES, OnnxOpsError, WasmTensor, createOps } from 'onnx-ops-wasm';
import { getOps, plain } from './helpers';

const ROOT = join(__dirname, '..', '..');
const ESM = pathToFileURL(join(ROOT, 'dist', 'esm', 'index.js')).href;
const CJS = join(ROOT, 'dist', 'cjs', 'index.js');
const WASM = join(ROOT, 'dist', 'onnx-ops-wasm.wasm');
/** A Node with Float16Array and `using` (tests/engines installs it; NODE24 overrides). */
const NODE24 = process.env.NODE24 ?? join(ROOT, 'tests', 'engines', 'node_modules', 'node24', 'bin', 'node');

/** Runs an ES module in a child Node and returns the JSON its last line of output holds. */
function child(node: string, source: string): any {
  expect(existsSync(join(ROOT, 'dist', 'esm', 'index.js'))).toBe(true); // dist/ is missing: npm run build
  const dir = mkdtempSync(join(tmpdir(), 'onnx-ops-runtime-'));
  try {
    const file = join(dir, 'child.mjs');
    writeFileSync(file, source);
    const r = spawnSync(node, [file], { encoding: 'utf8', timeout: 60_000 });
    if (r.error) throw new Error(`${node} did not run (${r.error.message}): npm --prefix tests/engines ci installs it`);
    if (r.status !== 0) throw new Error(`the child exited with ${r.status}:\n${r.stderr.slice(-3000)}`);
    return JSON.parse(r.stdout.trim().split('\n').pop()!);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The child's helpers: typed arrays as their class and 16-bit patterns, errors as their fields.
const PRELUDE = `
const kind = (a) => Object.prototype.toString.call(a).slice(8, -1);
const bits = (a) => Array.from(new Uint16Array(a.buffer, a.byteOffset, a.length));
const show = (a) => ({ kind: kind(a), bits: bits(a) });
const fields = (e) => ({ onnx: e?.name === 'OnnxOpsError', code: e?.code, op: e?.op, input: e?.input ?? null, message: String(e?.message ?? e) });
const rejection = (p) => p.then(() => 'resolved', fields);
const error = (f) => { try { f(); return 'no error'; } catch (e) { return fields(e); } };
`;

// float16 operands with NaN payloads (quiet, negative, signalling), both
// zeros, subnormals, infinities and the largest finite value.
const A = [0x7e01, 0xfe02, 0x7c01, 0x8000, 0x0000, 0x3c00, 0xbc00, 0x0001, 0x8001, 0x7c00, 0xfc00, 0x7bff];
const B = [0x3c00, 0x7e00, 0x7e03, 0x0000, 0x8000, 0x7d23, 0x3c01, 0x8001, 0x0001, 0xfc00, 0x7c00, 0xfbff];
// By the README's semantics: the first NaN in input order, bit for bit; +0 above -0.
const MAX_AB = [0x7e01, 0xfe02, 0x7c01, 0x0000, 0x0000, 0x7d23, 0x3c01, 0x0001, 0x0001, 0x7c00, 0x7c00, 0x7bff];
const RELU_A = [0x7e01, 0xfe02, 0x7c01, 0x0000, 0x0000, 0x3c00, 0x0000, 0x0001, 0x0000, 0x7c00, 0x0000, 0x7bff];
// Thirty inputs: more than one Max call takes with scratchBytes 4096, so they fold group by group.
const MANY = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? A : i % 3 === 1 ? B : A.map((x, k) => (x * 7 + k * 131 + i) & 0xffff)));
const u16 = (b: readonly number[]) => ({ kind: 'Uint16Array', bits: [...b] });
const f16 = (b: readonly number[]) => ({ kind: 'Float16Array', bits: [...b] });

describe('native Float16Array (Node 24)', () => {
  let out: Record<string, unknown>;
  let manyMax: number[];
  beforeAll(async () => {
    // The same Max as Uint16Arrays of bits, in this process: what the folds must give.
    const ops = await createOps({ scratchBytes: 4096 });
    manyMax = Array.from(plain(ops.max(MANY.map((b) => ({ dtype: 'float16', shape: [12], data: Uint16Array.from(b) })))).data as Uint16Array);
    out = child(NODE24, `${PRELUDE}
const lib = await import(${JSON.stringify(ESM)});
const A = ${JSON.stringify(A)}, B = ${JSON.stringify(B)}, MANY = ${JSON.stringify(MANY)};
const f16 = (b) => new Float16Array(Uint16Array.from(b).buffer);
const out = { native: typeof Float16Array };
const ops = await lib.createOps({ scratchBytes: 4096 });
const a = f16(A), b = f16(B);
out.bareRelu = show(ops.relu(a).data);
out.bareDtype = ops.relu(a).dtype;
out.bareMax = show(ops.max([a, b]).data);
out.own = show(ops.max([{ dtype: 'float16', shape: [3, 4], data: a }, { dtype: 10, shape: [3, 4], data: b }]).data);
out.ort = show(ops.relu({ type: 'float16', dims: [3, 4], data: a }).data);
{
  const t = ops.tensor('float16', [3, 4], a);
  out.tensor = show(t.data);
  const r = ops.relu(t);
  out.tensorRelu = show(r.toPlain().data);
  out.tensorOrt = show(lib.toOrt(t).data);
  r.dispose();
  t.dispose();
}
{
  const o = new Float16Array(12);
  const r = ops.max([a, b], { out: o });
  out.out = { same: r.data === o, ...show(o) };
}
{
  const x = f16(A);
  const r = ops.relu(x, { out: x });
  out.inPlace = { same: r.data === x, ...show(x) };
}
{
  const big = new Uint16Array(16);
  big.set(A, 2);
  out.offset = show(ops.relu(new Float16Array(big.buffer, 4, 12)).data);
}
out.realm = show(ops.relu((await import('node:vm')).runInNewContext('new Float16Array(Uint16Array.from(A).buffer)', { A })).data);
{
  class Sub extends Float16Array {}
  const s = new Sub(Uint16Array.from(A).buffer);
  Object.defineProperty(s, 'length', { value: 1 });
  out.subclass = show(ops.relu(s).data);
}
{
  const o = new Float16Array(12);
  ops.max(MANY.map(f16), { out: o });
  out.foldOut = show(o);
  out.fold = show(ops.max(MANY.map(f16)).data);
}
out.errors = [
  error(() => ops.relu({ dtype: 'bfloat16', shape: [12], data: a })),
  error(() => ops.relu(new Float32Array(12), { out: new Float16Array(12) })),
  error(() => ops.relu(a, { out: new Float16Array(3) })),
  error(() => { const m = new Float16Array(8); ops.relu(m.subarray(0, 6), { out: m.subarray(2, 8) }); }),
  error(() => { const d = new Float16Array(4); structuredClone(d.buffer, { transfer: [d.buffer] }); ops.relu(d); }),
];
out.untouched = [bits(a), bits(b)];
out.afterErrors = show(ops.relu(a).data);
out.live = ops.memoryStats().liveAllocations;

// createOps({ float16Array: true }): float16 data handed out is a Float16Array of the same bits.
const o16 = await lib.createOps({ float16Array: true, scratchBytes: 4096 });
out.opt = {
  relu: show(o16.relu(a).data),
  bitsIn: show(o16.max([{ dtype: 'float16', shape: [12], data: Uint16Array.from(A) }, { dtype: 'float16', shape: [12], data: Uint16Array.from(B) }]).data),
  uint16: show(o16.max([Uint16Array.from(A)]).data),
  bfloat16: show(o16.relu({ dtype: 'bfloat16', shape: [12], data: Uint16Array.from(A) }).data),
  callersOut: (() => { const o = new Uint16Array(12); return { same: o16.relu(a, { out: o }).data === o, ...show(o) }; })(),
  fold: show(o16.max(MANY.map(f16)).data),
  foldOut: (() => { const o = new Float16Array(12); o16.max(MANY.map(f16), { out: o }); return show(o); })(),
  foldUint16Out: (() => { const o = new Uint16Array(12); o16.max(MANY.map(f16), { out: o }); return show(o); })(),
  ort: show(lib.toOrt(o16.relu(a)).data),
  float32: kind(o16.relu(new Float32Array(2)).data),
};
{
  const t = o16.tensor('float16', [12], a);
  const view = t.data;
  out.opt.tensor = show(view);
  out.opt.viewOfWasm = view.buffer !== a.buffer && view.buffer.byteLength >= 65536;
  t.data[5] = 2; // 0x4000: a write through the view changes the tensor
  out.opt.toPlain = show(t.toPlain().data);
  out.opt.tensorOrt = show(lib.toOrt(t).data);
  const r = o16.max([t, t]);
  out.opt.result = show(r.data);
  out.opt.input = show(o16.relu(t.data).data); // a Float16Array view of wasm memory as an input (copied out first)
  r.dispose();
  t.dispose();
  const f = o16.tensor('float32', [2]);
  out.opt.float32Tensor = kind(f.data);
  f.dispose();
}
out.opt.live = o16.memoryStats().liveAllocations;
out.off = show((await lib.createOps({ float16Array: false })).relu(a).data);
console.log(JSON.stringify(out));
`);
  });

  test('the child really has Float16Array', () => {
    expect(out.native).toBe('function');
  });

  test('a bare Float16Array is float16, read as its bits: NaN payloads and -0 kept', () => {
    expect(out.bareDtype).toBe('float16');
    expect(out.bareRelu).toEqual(u16(RELU_A));
    expect(out.bareMax).toEqual(u16(MAX_AB));
    expect(out.offset).toEqual(u16(RELU_A));
    expect(out.realm).toEqual(u16(RELU_A)); // another realm's
    expect(out.subclass).toEqual(u16(RELU_A)); // a subclass lying about its length
  });

  test('{ dtype, shape, data } and { type, dims, data } with a Float16Array', () => {
    expect(out.own).toEqual(u16(MAX_AB));
    expect(out.ort).toEqual(u16(RELU_A));
  });

  test('ops.tensor(\'float16\', shape, float16Array) copies the bits into wasm memory', () => {
    expect(out.tensor).toEqual(u16(A));
    expect(out.tensorRelu).toEqual(u16(RELU_A));
    expect(out.tensorOrt).toEqual(u16(A));
  });

  test('a Float16Array as out: the caller\'s array, written bit for bit, also in place and through the folds', () => {
    expect(out.out).toEqual({ same: true, ...f16(MAX_AB) });
    expect(out.inPlace).toEqual({ same: true, ...f16(RELU_A) });
    expect(out.foldOut).toEqual(f16(manyMax));
    expect(out.fold).toEqual(u16(manyMax));
  });

  test('bad Float16Array inputs and outs are OnnxOpsErrors; inputs untouched, the instance works on, nothing leaked', () => {
    const errors = out.errors as { onnx: boolean; code: string; input: unknown; message: string }[];
    expect(errors.map((e) => [e.onnx, e.code, e.input])).toEqual([
      [true, 'INVALID_ARGUMENT', 0], [true, 'INVALID_ARGUMENT', 'out'], [true, 'OUT_MISMATCH', 'out'], [true, 'OVERLAP', 0],
      [true, 'INVALID_ARGUMENT', 0],
    ]);
    expect(errors[4].message).toContain('detached');
    expect(errors[0].message).toContain('got Float16Array');
    expect(errors[1].message).toContain('Float32Array');
    expect(out.untouched).toEqual([A, B]);
    expect(out.afterErrors).toEqual(u16(RELU_A));
    expect(out.live).toBe(0);
  });

  test('createOps({ float16Array: true }): float16 results, .data and toPlain() are Float16Arrays of the same bits', () => {
    const opt = out.opt as Record<string, unknown>;
    expect(opt.relu).toEqual(f16(RELU_A));
    expect(opt.bitsIn).toEqual(f16(MAX_AB));
    expect(opt.fold).toEqual(f16(manyMax));
    expect(opt.foldOut).toEqual(f16(manyMax));
    expect(opt.foldUint16Out).toEqual(u16(manyMax));
    expect(opt.tensor).toEqual(f16(A));
    expect(opt.viewOfWasm).toBe(true);
    const written = [...A];
    written[5] = 0x4000;
    expect(opt.toPlain).toEqual(f16(written));
    expect(opt.result).toEqual(f16(written));
    expect(opt.input).toEqual(f16(written.map((x, i) => (i === 5 ? x : RELU_A[i]))));
    expect(opt.live).toBe(0);
  });

  test('createOps({ float16Array: true }) leaves other dtypes, a caller\'s out and toOrt() as they were', () => {
    const opt = out.opt as Record<string, unknown>;
    expect(opt.uint16).toEqual(u16(A)); // a bare Uint16Array is uint16
    expect(opt.bfloat16).toEqual(u16(A.map((x) => (x & 0x8000 && (x & 0x7fff) <= 0x7f80 ? 0 : x))));
    expect(opt.callersOut).toEqual({ same: true, ...u16(RELU_A) });
    expect(opt.ort).toEqual(u16(RELU_A)); // onnxruntime's float16 data is a Uint16Array
    expect(opt.tensorOrt).toEqual(u16([...A.slice(0, 5), 0x4000, ...A.slice(6)]));
    expect(opt.float32).toBe('Float32Array');
    expect(opt.float32Tensor).toBe('Float32Array');
    expect(out.off).toEqual(u16(RELU_A));
  });
});

describe('createOps({ float16Array }) in this process', () => {
  test('rejects with UNSUPPORTED_ENGINE where the runtime has no Float16Array', async () => {
    const g = globalThis as { Float16Array?: unknown };
    const had = Object.getOwnPropertyDescriptor(g, 'Float16Array');
    delete g.Float16Array; // Node 20 has none already; so that this holds on any Node
    try {
      const e = await createOps({ float16Array: true }).then(() => undefined, (x: unknown) => x);
      expect(e).toBeInstanceOf(OnnxOpsError);
      expect(e).toMatchObject({ code: 'UNSUPPORTED_ENGINE', op: 'createOps', input: undefined });
      expect((e as Error).message).toBe('createOps: this runtime has no Float16Array (float16Array: true needs it) [UNSUPPORTED_ENGINE]');
      // The default needs none.
      const ops = await createOps({ float16Array: false });
      expect(plain(ops.relu({ dtype: 'float16', shape: [2], data: new Uint16Array([0xbc00, 0x7e01]) })).data).toEqual(new Uint16Array([0, 0x7e01]));
    } finally {
      if (had) Object.defineProperty(g, 'Float16Array', had);
    }
  });

  test('a float16Array that is not a boolean is INVALID_ARGUMENT', async () => {
    for (const bad of ['yes', 1, {}]) {
      const e = await createOps({ float16Array: bad as never }).then(() => undefined, (x: unknown) => x);
      expect(e).toMatchObject({ name: 'OnnxOpsError', code: 'INVALID_ARGUMENT', op: 'createOps' });
      expect((e as Error).message).toContain('float16Array must be a boolean');
    }
  });
});

describe('Symbol.dispose', () => {
  test('[Symbol.dispose]() is dispose(): frees the tensor, twice is harmless, a look-alike holds nothing', async () => {
    const ops = await getOps();
    const before = ops.memoryStats().liveAllocations;
    const t = ops.tensor('float32', [4]);
    expect(ops.memoryStats().liveAllocations).toBe(before + 1);
    t[Symbol.dispose]();
    expect(t.disposed).toBe(true);
    expect(ops.memoryStats().liveAllocations).toBe(before);
    t[Symbol.dispose]();
    t.dispose();
    expect(ops.memoryStats().liveAllocations).toBe(before);
    expect(() => (Object.create(WasmTensor.prototype) as WasmTensor)[Symbol.dispose]()).not.toThrow();
  });

  test('`using` frees tensors at the end of the block, also when it throws (Node 24)', () => {
    const out = child(NODE24, `
const lib = await import(${JSON.stringify(ESM)});
const ops = await lib.createOps();
const out = { inside: [], after: [] };
let kept;
{
  using t = ops.tensor('float32', [4], new Float32Array([1, -2, 3, -4]));
  using r = ops.relu(t);
  kept = [t, r];
  out.inside.push(ops.memoryStats().liveAllocations, Array.from(r.data));
}
out.after.push(ops.memoryStats().liveAllocations, kept.map((t) => t.disposed));
try {
  using t = ops.tensor('int64', [2]);
  kept = t;
  throw new Error('boom');
} catch (e) {
  out.after.push(e.message, kept.disposed, ops.memoryStats().liveAllocations);
}
out.native = lib.WasmTensor.prototype[Symbol.dispose] !== undefined && Symbol.dispose.description;
console.log(JSON.stringify(out));
`);
    expect(out).toEqual({
      inside: [2, [1, 0, 3, 0]],
      after: [0, [true, true], 'boom', true, 0],
      native: 'Symbol.dispose',
    });
  });

  test('without Symbol.dispose, the method is under Symbol.for(\'Symbol.dispose\'), where esbuild\'s `using` finds it', () => {
    // esbuild's lowering of `using` (Babel's too) looks up Symbol.for('Symbol.dispose') where Symbol.dispose is missing.
    const block = transformSync(`export async function run(ops) {
  const before = ops.memoryStats().liveAllocations;
  let t;
  {
    using x = ops.tensor('float32', [8]);
    t = x;
  }
  return [before, ops.memoryStats().liveAllocations, t.disposed];
}`, { format: 'esm', target: 'es2022', loader: 'js' }).code;
    expect(block).not.toContain('using x'); // lowered: runs on Node 20
    const out = child(process.execPath, `
// A runtime without Symbol.dispose (Node 20's own is not configurable: a Symbol without it takes the global's place).
const Real = Symbol;
const NoDispose = function Symbol(description) { return Real(description); };
for (const key of Reflect.ownKeys(Real)) {
  if (key !== 'dispose' && key !== 'length' && key !== 'name') Object.defineProperty(NoDispose, key, Object.getOwnPropertyDescriptor(Real, key));
}
globalThis.Symbol = NoDispose;
const lib = await import(${JSON.stringify(ESM)});
const { run } = await import('data:text/javascript,' + encodeURIComponent(${JSON.stringify(block)}));
const ops = await lib.createOps();
const proto = lib.WasmTensor.prototype;
console.log(JSON.stringify({
  hidden: Symbol.dispose === undefined,
  registered: typeof proto[Symbol.for('Symbol.dispose')],
  run: await run(ops),
}));
`);
    expect(out).toEqual({ hidden: true, registered: 'function', run: [0, 0, true] });
  });
});

describe('the declarations (dist/types) and Symbol.dispose', () => {
  /** The type errors of a consumer's files against the built package (strict, no skipLibCheck). */
  function typeErrors(source: string, lib: string[]): string[] {
    expect(existsSync(join(ROOT, 'dist', 'types', 'index.d.ts'))).toBe(true); // dist/ is missing: npm run build
    const dir = mkdtempSync(join(tmpdir(), 'onnx-ops-types-'));
    try {
      mkdirSync(join(dir, 'node_modules'));
      symlinkSync(ROOT, join(dir, 'node_modules', 'onnx-ops-wasm'));
      writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
      writeFileSync(join(dir, 'main.ts'), source);
      const program = ts.createProgram([join(dir, 'main.ts')], {
        strict: true, noEmit: true, skipLibCheck: false, types: [], target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, lib,
      });
      return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const usingBlock = `import { createOps } from 'onnx-ops-wasm';
const ops = await createOps({ float16Array: true });
{
  using t = ops.tensor('float32', [2]);
  void t;
}
const d: Disposable = ops.tensor('float32', [1]);
d[Symbol.dispose]();
`;

  test('compile without TypeScript\'s disposable library (lib es2022): they declare Symbol.dispose themselves', () => {
    expect(typeErrors(`import { createOps, type WasmTensor } from 'onnx-ops-wasm';
const t: WasmTensor = (await createOps()).tensor('float32', [2]);
t[Symbol.dispose]();
`, ['lib.es2022.d.ts'])).toEqual([]);
    expect(typeErrors(usingBlock, ['lib.es2022.d.ts']).join('\n')).toMatch(/Disposable/); // `using` itself needs the library
  });

  test('`using` and Disposable type-check with esnext.disposable (their Symbol.dispose merges with the library\'s)', () => {
    expect(typeErrors(usingBlock, ['lib.es2022.d.ts', 'lib.esnext.disposable.d.ts'])).toEqual([]);
    expect(typeErrors(usingBlock, ['lib.esnext.d.ts'])).toEqual([]);
  });
});

describe('what the engine lacks: the backend createOps() chooses, or UNSUPPORTED_ENGINE', () => {
  test('is a documented error code', () => {
    expect(ERROR_CODES).toContain('UNSUPPORTED_ENGINE');
  });

  // A child that changes the runtime, then loads the built package (ES module
  // and CommonJS builds, from `dist`) and reports, for createOps() with no
  // option, with each backend, and with the SIMD128 wasmBinary, the backend it
  // chose and a Relu's result, or the error; and the fallbackReason of
  // createOps() with no option in each build.
  const engine = (setup: string, after = '', dist = join(ROOT, 'dist')) => child(process.execPath, `${PRELUDE}
const calls = { instantiate: 0, inflate: 0 };
${setup}
const esm = await import(${JSON.stringify(pathToFileURL(join(dist, 'esm', 'index.js')).href)});
const cjs = (await import('node:module')).createRequire(import.meta.url)(${JSON.stringify(join(dist, 'cjs', 'index.js'))});
const wasmBinary = (await import('node:fs')).readFileSync(${JSON.stringify(WASM)});
const result = (p) => p.then((ops) => [ops.backend, ...Array.from(ops.relu(new Float32Array([-1, 2, -0])).data, (x) => Object.is(x, -0) ? '-0' : x)], fields);
const out = {};
for (const [name, lib] of [['esm', esm], ['cjs', cjs]]) {
  out[name] = {
    builtIn: await result(lib.createOps()),
    simd: await result(lib.createOps({ backend: 'wasm-simd' })),
    wasm: await result(lib.createOps({ backend: 'wasm' })),
    js: await result(lib.createOps({ backend: 'js' })),
    withBinary: await result(lib.createOps({ wasmBinary })),
  };
}
out.calls = { ...calls };
out.reasons = [(await esm.createOps()).fallbackReason ?? null, (await cjs.createOps()).fallbackReason ?? null];
${after}
console.log(JSON.stringify(out));
`);
  const loadWasm = 'pass the bytes of onnx-ops-wasm/wasm as wasmBinary';
  const unsupported = (message: string) =>
    ({ onnx: true, code: 'UNSUPPORTED_ENGINE', op: 'createOps', input: null, message: `createOps: ${message} [UNSUPPORTED_ENGINE]` });
  const ran = (backend: string) => [backend, 0, 2, 0];

  test('no DecompressionStream: wasm-simd all the same, the built-in wasm inflated by the library\'s inflate.js', () => {
    const out = engine('delete globalThis.DecompressionStream;');
    for (const build of [out.esm, out.cjs]) {
      expect(build).toEqual({ builtIn: ran('wasm-simd'), simd: ran('wasm-simd'), wasm: ran('wasm'), js: ran('js'), withBinary: ran('wasm-simd') });
    }
    expect(out.reasons).toEqual([null, null]);
  });

  test('a DecompressionStream that throws when made (as Next.js\'s edge runtime\'s): wasm-simd by inflate.js, inflated once per build', () => {
    const out = engine(`
globalThis.DecompressionStream = class {
  constructor(format) { calls.inflate++; throw new TypeError('The argument format is invalid. Received ' + format); }
};`);
    for (const build of [out.esm, out.cjs]) {
      expect(build).toEqual({ builtIn: ran('wasm-simd'), simd: ran('wasm-simd'), wasm: ran('wasm'), js: ran('js'), withBinary: ran('wasm-simd') });
    }
    expect(out.calls.inflate).toBe(2); // the first createOps() of each build; the bytes are kept for the realm
  });

  test('no DecompressionStream and no inflate.js beside the main file: the wasm backend, its fallbackReason naming both; wasm-simd says what is missing', () => {
    // A copy of dist/ without inflate.js, as a tool that copied the main file alone would leave it.
    const dir = mkdtempSync(join(tmpdir(), 'onnx-ops-no-inflate-'));
    try {
      cpSync(join(ROOT, 'dist'), dir, { recursive: true });
      for (const kind of ['esm', 'cjs']) rmSync(join(dir, kind, 'inflate.js'));
      const out = engine('delete globalThis.DecompressionStream;', '', dir);
      const lacks = /^this runtime lacks DecompressionStream\('deflate'\) and the library's inflate\.js \(it did not load: .*inflate\.js.*\) to inflate the built-in wasm/s;
      for (const build of [out.esm, out.cjs]) {
        expect(build).toMatchObject({ builtIn: ran('wasm'), wasm: ran('wasm'), js: ran('js'), withBinary: ran('wasm-simd') });
        expect(build.simd).toMatchObject({ onnx: true, code: 'UNSUPPORTED_ENGINE', op: 'createOps' });
        expect(build.simd.message.replace(/^createOps: /, '')).toMatch(lacks);
        expect(build.simd.message).toMatch(/: pass the bytes of onnx-ops-wasm\/wasm as wasmBinary \[UNSUPPORTED_ENGINE\]$/);
      }
      for (const reason of out.reasons) expect(reason).toMatch(lacks);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the built-in wasm is zlib data (\'deflate\'): a DecompressionStream without \'deflate-raw\' (Node 18\'s) loads it', () => {
    const out = engine(`
const Real = DecompressionStream;
globalThis.DecompressionStream = class extends Real {
  constructor(format) {
    if (format === 'deflate-raw') throw new TypeError('The argument format is invalid. Received deflate-raw');
    super(format);
    calls.inflate++;
  }
};`);
    for (const build of [out.esm, out.cjs]) {
      expect(build.builtIn).toEqual(ran('wasm-simd'));
      expect(build.withBinary).toEqual(ran('wasm-simd'));
    }
    expect(out.calls.inflate).toBe(2); // once per build: each inflates once per realm
  });

  const noSimd = 'this engine has no WebAssembly SIMD128 (Chrome and Edge 91+, Firefox 89+, Safari 16.4+ and Node 16.4+ have it)';
  test('no SIMD128: the wasm backend, chosen before anything is inflated; wasm-simd and a SIMD128 wasmBinary are refused', () => {
    // An engine without SIMD: validate and instantiate refuse modules with the SIMD opcode prefix (0xfd).
    const out = engine(`
const simd = (b) => new Uint8Array(b.buffer ?? b, b.byteOffset ?? 0, b.byteLength).includes(0xfd);
const { validate, instantiate } = WebAssembly;
WebAssembly.validate = (b) => !simd(b) && validate(b);
WebAssembly.instantiate = (b, imports) => {
  calls.instantiate++;
  return simd(b) ? Promise.reject(new WebAssembly.CompileError('invalid value type 0x7b')) : instantiate(b, imports);
};
const Real = DecompressionStream;
globalThis.DecompressionStream = class extends Real { constructor(f) { super(f); calls.inflate++; } };`);
    for (const build of [out.esm, out.cjs]) {
      expect(build).toEqual({ builtIn: ran('wasm'), wasm: ran('wasm'), js: ran('js'), simd: unsupported(noSimd), withBinary: unsupported(noSimd) });
    }
    expect(out.calls.inflate).toBe(0);
  });

  const noWasm = 'this engine cannot compile WebAssembly: it has none (interpreters, JIT-less modes)';
  test('no WebAssembly at all: the js backend, its fallbackReason saying so; the wasm backends and wasmBinary are refused', () => {
    const out = engine('delete globalThis.WebAssembly;');
    for (const build of [out.esm, out.cjs]) {
      expect(build).toEqual({ builtIn: ran('js'), js: ran('js'), wasm: unsupported(noWasm), simd: unsupported(noWasm), withBinary: unsupported(noWasm) });
    }
    expect(out.reasons).toEqual([noWasm, noWasm]);
  });

  test('the worker form\'s WorkerOps carries its worker\'s fallbackReason (Node --jitless: no WebAssembly there either)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'onnx-ops-jitless-'));
    try {
      const file = join(dir, 'child.mjs');
      writeFileSync(file, `const lib = await import(${JSON.stringify(ESM)});
const ops = await lib.createOps({ worker: true });
const relu = Array.from((await ops.relu(new Float32Array([-1, 2]))).data);
await ops.close();
const sync = await lib.createOps();
console.log(JSON.stringify([ops.backend, ops.fallbackReason, relu, (await lib.createOps({ backend: 'js', worker: true }).then((o) => o.close().then(() => o))).fallbackReason ?? null, sync.fallbackReason]));
`);
      const r = spawnSync(process.execPath, ['--jitless', file], { encoding: 'utf8', timeout: 60_000 });
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout.trim().split('\n').pop()!)).toEqual(['js', noWasm, [0, 2], null, noWasm]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // What the probe's compile throws, as each engine words it (Chromium 1xx under a CSP; workerd 2026-11-17, whose
  // rule Vercel's edge shares): the error and fallbackReason tell the real cause and its remedy.
  const refusing = (message: string) => `
const { Module, instantiate } = WebAssembly;
WebAssembly.Module = function () { throw new WebAssembly.CompileError(${JSON.stringify(message)}); };
WebAssembly.Module.imports = Module.imports;
WebAssembly.instantiate = (b, imports) => Object.prototype.toString.call(b) === '[object WebAssembly.Module]'
  ? instantiate(b, imports) : Promise.reject(new WebAssembly.CompileError(${JSON.stringify(message)}));`;
  test('WebAssembly that may not compile under a Content-Security-Policy: the js backend; the error and fallbackReason name the CSP', () => {
    // Chromium 156's and Firefox 153's words (WebKitGTK 2.50 compiles under script-src 'self').
    const chromium = 'WebAssembly.Module(): Compiling or instantiating WebAssembly module violates the following Content Security policy directive because \'unsafe-eval\' is not an allowed source of script in the following Content Security Policy directive: "script-src \'self\'".';
    for (const message of [chromium, 'call to WebAssembly.Module() blocked by CSP']) {
      const out = engine(refusing(message));
      const csp = `a Content-Security-Policy without 'wasm-unsafe-eval' in script-src forbids compiling WebAssembly (${message})`;
      for (const build of [out.esm, out.cjs]) {
        expect(build).toEqual({ builtIn: ran('js'), js: ran('js'), wasm: unsupported(csp), simd: unsupported(csp), withBinary: unsupported(csp) });
      }
      expect(out.reasons).toEqual([csp, csp]);
    }
  });

  test('a host that forbids compiling from bytes (Cloudflare Workers, Vercel\'s edge): the js backend by default, the error and fallbackReason say so and name the remedy; a WebAssembly.Module as wasmBinary runs wasm-simd', () => {
    const workerd = 'WebAssembly.Module(): Wasm code generation disallowed by embedder';
    // The host's modules come compiled (here from before the rule), as a bundler's .wasm import gives them.
    const out = engine(`const compiled = new WebAssembly.Module((await import('node:fs')).readFileSync(${JSON.stringify(WASM)}));
${refusing(workerd)}`, `
out.module = { esm: await result(esm.createOps({ wasmBinary: compiled })), cjs: await result(cjs.createOps({ wasmBinary: compiled, backend: 'wasm-simd' })) };`);
    const host = `this host forbids compiling WebAssembly from bytes, as Cloudflare Workers and Vercel's edge runtime do (${workerd}): ` +
      'import onnx-ops-wasm with the \'workerd\' or \'edge-light\' condition (wrangler and Next.js set them), or pass a WebAssembly.Module of onnx-ops-wasm/onnx-ops-wasm.wasm as wasmBinary';
    for (const build of [out.esm, out.cjs]) {
      expect(build).toEqual({ builtIn: ran('js'), js: ran('js'), wasm: unsupported(host), simd: unsupported(host), withBinary: unsupported(host) });
    }
    expect(out.reasons).toEqual([host, host]);
    expect(out.module).toEqual({ esm: ran('wasm-simd'), cjs: ran('wasm-simd') });
  });

  test('the raw wasm the message points to is the package\'s onnx-ops-wasm/wasm', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.exports['./wasm'].default).toBe('./dist/onnx-ops-wasm.wasm');
  });
});
