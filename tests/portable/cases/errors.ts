// Every error code the API can give in a working engine, each with the op,
// the input and what the message names; after each, nothing is leaked, the
// memory did not grow, the caller's data is as it was, and the library works.
import { type Case, type Env, type ErrorShape, type Lib, type Ops, type Tensor, check, closeOps, dataOf, eq, failsOnnx, stillUsable, throwsOnnx } from '../harness';

const f32 = (shape: number[]) => ({ dtype: 'float32', shape, data: new Float32Array(shape.reduce((a, b) => a * b, 1)) });

interface ErrorCase extends ErrorShape {
  name: string;
  op: string;
  call: (ops: Ops) => unknown;
}

const CASES: ErrorCase[] = [
  { name: 'shapes that do not broadcast', op: 'Max', code: 'BROADCAST_MISMATCH', input: 1, call: (o) => o.max([f32([2, 3]), f32([4])]), mentions: ['[2,3]', '[4]'] },
  { name: 'Max-6 inputs of two shapes', op: 'Max', code: 'SHAPE_MISMATCH', input: 1, call: (o) => o.max([f32([3]), f32([1])], { opset: 7 }), mentions: ['Max-6'] },
  { name: 'mixed dtypes', op: 'Max', code: 'DTYPE_MISMATCH', input: 1, call: (o) => o.max([f32([2]), new Float64Array(2)]), mentions: ['float64', 'float32'] },
  { name: 'int8 Relu at opset 13', op: 'Relu', code: 'DTYPE_NOT_ALLOWED', input: 0, call: (o) => o.relu(new Int8Array([1]), { opset: 13 }), mentions: ['int8', 'Relu-13', 'opset >= 14'] },
  { name: 'uint8 Relu, never allowed', op: 'Relu', code: 'DTYPE_NOT_ALLOWED', input: 0, call: (o) => o.relu(new Uint8Array([1])), mentions: ['uint8', 'never'] },
  { name: 'int32 Max at opset 11', op: 'Max', code: 'DTYPE_NOT_ALLOWED', input: 0, call: (o) => o.max([new Int32Array(1)], { opset: 11 }), mentions: ['Max-8', 'opset >= 12'] },
  { name: 'no input to Max', op: 'Max', code: 'ARITY', input: undefined, call: (o) => o.max([]), mentions: ['at least one'] },
  { name: 'two inputs to Relu', op: 'Relu', code: 'ARITY', input: undefined, call: (o) => o.relu([f32([1]), f32([1])] as never), mentions: ['exactly one'] },
  { name: 'data shorter than the shape', op: 'Max', code: 'DATA_LENGTH', input: 1, call: (o) => o.max([f32([1]), { dtype: 'float32', shape: [2, 2], data: new Float32Array(3) }]), mentions: ['[2,2]'] },
  { name: 'a negative dim', op: 'Relu', code: 'INVALID_SHAPE', input: 0, call: (o) => o.relu({ dtype: 'float32', shape: [-1], data: new Float32Array(0) }), mentions: ['-1'] },
  { name: 'a fractional dim', op: 'Max', code: 'INVALID_SHAPE', input: 0, call: (o) => o.max([{ dtype: 'float32', shape: [1.5], data: new Float32Array(1) }]), mentions: ['1.5'] },
  { name: 'an unknown dtype', op: 'Relu', code: 'UNKNOWN_DTYPE', input: 0, call: (o) => o.relu({ dtype: 'complex64', shape: [1], data: new Float32Array(1) }), mentions: ['"complex64"'] },
  { name: 'opset 0', op: 'Max', code: 'INVALID_OPSET', input: undefined, call: (o) => o.max([f32([1])], { opset: 0 }), mentions: ['opset'] },
  { name: 'a typed array of the wrong class', op: 'Relu', code: 'INVALID_ARGUMENT', input: 0, call: (o) => o.relu({ dtype: 'float32', shape: [2], data: new Float64Array(2) }), mentions: ['Float32Array', 'Float64Array'] },
  { name: 'an unknown op option', op: 'Max', code: 'INVALID_ARGUMENT', input: undefined, call: (o) => o.max([f32([1])], { foo: 1 } as never), mentions: ['unknown option', '"foo"'] },
  { name: 'null in place of a tensor', op: 'Max', code: 'INVALID_ARGUMENT', input: 1, call: (o) => o.max([f32([1]), null as never]), mentions: ['null'] },
  { name: 'more elements than 2^53', op: 'Relu', code: 'TOO_LARGE', input: 0, call: (o) => o.relu({ dtype: 'float32', shape: [2 ** 31, 2 ** 31, 2 ** 31], data: new Float32Array(1) }), mentions: ['2^53'] },
  { name: 'a tensor larger than wasm memory', op: 'tensor', code: 'TOO_LARGE', call: (o) => o.tensor('float32', [2 ** 20, 2 ** 12]), mentions: ['4 GiB'] },
  { name: 'a broadcast result larger than wasm memory', op: 'Max', code: 'TOO_LARGE', input: undefined, call: (o) => o.max([{ dtype: 'float64', shape: [2 ** 16, 1], data: new Float64Array(2 ** 16) }, { dtype: 'float64', shape: [2 ** 16], data: new Float64Array(2 ** 16) }]), mentions: ['[65536,65536]'] },
  { name: 'out of the wrong shape', op: 'Max', code: 'OUT_MISMATCH', input: 'out', call: (o) => o.max([f32([2, 2]), f32([2])], { out: new Float32Array(2) }), mentions: ['elements'] },
  { name: 'a typed-array out overlapping an input', op: 'Relu', code: 'OVERLAP', input: 0, call: (o) => {
    const buf = new Float32Array(8);
    return o.relu(buf.subarray(0, 4), { out: buf.subarray(2, 6) });
  } },
];

/** The worker form's `transfer` option, which the sync form does not take. */
const SYNC_TRANSFER: ErrorCase = { name: 'transfer on the sync form', op: 'Relu', code: 'INVALID_ARGUMENT', input: undefined,
  call: (o) => o.relu(f32([1]), { transfer: true } as never), mentions: ['unknown option', '"transfer"'] };

export function errorCases(lib: Lib, ops: () => Promise<Ops>, env: Env): Case[] {
  const form = env.form ?? 'sync';
  const all = form === 'sync' ? [...CASES, SYNC_TRANSFER] : CASES;
  const cases: Case[] = all.map((c): Case => ({ name: `error ${c.code}: ${c.name}`, run: async () => {
    const o = await ops();
    const before = await o.memoryStats();
    await failsOnnx(lib, c.op, () => c.call(o), c);
    eq((await o.memoryStats()).memoryBytes, before.memoryBytes, 'checked before any allocation: no memory growth');
    await stillUsable(o, before, 'after the error');
  } }));

  cases.push({ name: 'error DISPOSED and FOREIGN_TENSOR: a disposed tensor, another instance\'s tensor', run: async () => {
    const o = await ops();
    const before = await o.memoryStats();
    const t = await o.tensor('float32', [3], new Float32Array([-1, 0, 1]));
    t.dispose();
    t.dispose(); // idempotent
    await failsOnnx(lib, 'Relu', () => o.relu(t), { code: 'DISPOSED', input: 0 });
    throwsOnnx(lib, 'tensor', () => t.data, { code: 'DISPOSED' }); // a getter: a throw in both forms
    const x = await o.tensor('float32', [3]);
    await failsOnnx(lib, 'Max', () => o.max([x, x], { out: t }), { code: 'DISPOSED', input: 'out' });
    x.dispose();
    const other = (await lib.createOps()) as unknown as Ops;
    const foreign = await other.tensor('float32', [3], new Float32Array([1, 2, 3]));
    await failsOnnx(lib, 'Max', () => o.max([new Float32Array(3), foreign]), { code: 'FOREIGN_TENSOR', input: 1, mentions: ['another createOps() instance'] });
    eq(Array.from(await dataOf(other, foreign) as Float32Array), [1, 2, 3], 'the foreign tensor is untouched');
    foreign.dispose();
    eq((await other.memoryStats()).liveAllocations, 0, 'the other instance holds nothing');
    await closeOps(other);
    await stillUsable(o, before, 'after the errors');
  } });

  if (env.bigMemory) cases.push({ name: 'error OUT_OF_MEMORY: tensors that fill the 4 GiB memory, and the library goes on', run: async () => {
    const o = (await lib.createOps()) as unknown as Ops; // its own instance: its memory stays grown
    await o.relu(new Float32Array(4));
    const before = await o.memoryStats();
    const big: Tensor[] = [];
    let error: unknown;
    for (let i = 0; i < 4 && error === undefined; i++) { // 1.4 GB each: the third cannot fit
      try {
        big.push(await o.tensor('uint8', [1_400_000_000]));
      } catch (e) {
        error = e;
      }
    }
    check(big.length >= 1, 'the first tensor fits');
    throwsOnnx(lib, 'tensor', () => { throw error; }, { code: 'OUT_OF_MEMORY', mentions: ['tensor'] });
    eq((await o.memoryStats()).liveAllocations, before.liveAllocations + big.length, 'only the tensors made are live');
    big.forEach((t) => t.dispose());
    await stillUsable(o, before, 'after OUT_OF_MEMORY');
    await closeOps(o);
  } });

  cases.push({ name: 'errors: every code of ERROR_CODES that an engine can produce is exercised here', run: () => {
    const used = new Set<string>([...CASES.map((c) => c.code), 'DISPOSED', 'FOREIGN_TENSOR']);
    if (env.bigMemory) used.add('OUT_OF_MEMORY');
    // UNSUPPORTED_ENGINE needs an engine without SIMD128 or DecompressionStream, which the Jest
    // tests make in Node; OUT_OF_MEMORY fills 4 GiB, which the browser runners do not allow.
    // WORKER_DIED: the worker form's cases (cases/worker.ts), which kill its worker.
    const missing = lib.ERROR_CODES.filter((c) => !used.has(c) && c !== 'UNSUPPORTED_ENGINE' && c !== 'WORKER_DIED' && (env.bigMemory || c !== 'OUT_OF_MEMORY'));
    eq(missing, [], 'codes with no case');
  } });
  return cases;
}
