// A seeded sample of random calls over every dtype, opsets 1-21, ranks 0-6,
// broadcasts and empty dims, with NaN, ±0 and extremes in the data, through
// every input and call form, compared bit for bit with the reference; and
// random invalid calls, which must throw what the rules say. Each call is a
// case: its name says how to rebuild it (the seed and its index).
import { type Case, type Lib, type Ops, type Tensor, check, dataOf, eq, failsOnnx, sameBits } from '../harness';
import { type DType, DTYPES, DTYPE_INFO, type PlainTensor, type TypedArray, count, randomData, refMax, refRelu, rng } from '../reference';
import { VERSIONS, allowed, broadcasts, versionAt } from '../rules';

export const PROPERTY_SEED = 20261201;
export const VALID_CALLS = 2000;
export const INVALID_CALLS = 300;

type Form = 'plain' | 'ort' | 'bare' | 'wasm';
type CallForm = 'result' | 'array-out' | 'wasm-out' | 'in-place';

interface Plan {
  op: 'Max' | 'Relu';
  opset: number | undefined;
  dtype: DType;
  shapes: number[][];
  forms: Form[];
  call: CallForm;
  seed: number;
}

const pick = <T>(rand: () => number, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];

/** An output shape of rank 0-6 with at most `limit` elements (dims of 0 now and then). */
function outShape(rand: () => number, limit: number): number[] {
  const rank = Math.floor(rand() * 7);
  const shape: number[] = [];
  for (let k = 0; k < rank; k++) {
    const r = rand();
    shape.push(r < 0.04 ? 0 : r < 0.35 ? 1 : 2 + Math.floor(rand() * (r < 0.9 ? 6 : 60)));
  }
  while (count(shape) > limit) {
    const k = shape.indexOf(Math.max(...shape));
    shape[k] = Math.max(1, Math.floor(shape[k] / 2));
  }
  return shape;
}

/** Input shapes that broadcast to `out`: leading dims dropped, some dims set to 1. */
function broadcastShapes(rand: () => number, out: number[], n: number): number[][] {
  const shapes: number[][] = [];
  for (let i = 0; i < n; i++) {
    const drop = rand() < 0.4 ? Math.floor(rand() * (out.length + 1)) : 0;
    shapes.push(out.slice(drop).map((d) => (rand() < 0.3 ? 1 : d)));
  }
  if (!shapes.some((s) => s.length === out.length)) shapes[0] = out.slice(); // the result keeps out's rank
  return shapes;
}

function plan(index: number, valid: boolean): Plan {
  const seed = (PROPERTY_SEED + index * 7919 + (valid ? 0 : 1e6)) >>> 0;
  const rand = rng(seed);
  const op = rand() < 0.7 ? 'Max' : 'Relu';
  let opset = rand() < 0.1 ? undefined : 1 + Math.floor(rand() * 21);
  // Max-13 takes every dtype and broadcasts: an invalid Max call needs an older version.
  if (!valid && op === 'Max' && versionAt(op, opset) === 13) opset = 1 + Math.floor(rand() * 12);
  const ok = DTYPES.filter((d) => allowed(op, opset, d));
  const notOk = DTYPES.filter((d) => !allowed(op, opset, d));
  // An invalid call: a dtype its version refuses, or (Max before 8) shapes that differ.
  const badShape = !valid && op === 'Max' && !broadcasts(opset) && (notOk.length === 0 || rand() < 0.5);
  const dtype = valid || badShape ? pick(rand, ok) : pick(rand, notOk);
  const out = outShape(rand, 3000);
  let shapes: number[][];
  if (op === 'Relu') shapes = [out];
  else {
    const n = 1 + Math.floor(rand() * 4);
    shapes = broadcasts(opset) ? broadcastShapes(rand, out, n) : Array.from({ length: n }, () => out.slice());
    if (badShape) {
      if (shapes.length === 1) shapes.push(out.slice());
      shapes[1] = out.length && out[out.length - 1] !== 1 && rand() < 0.5 ? out.slice(0, -1).concat(1) : out.concat(2);
    }
  }
  const forms = shapes.map((s): Form => {
    const r = rand();
    if (r < 0.3) return 'plain';
    if (r < 0.5 && dtype !== 'bfloat16') return 'ort';
    if (r < 0.65 && s.length === 1 && dtype !== 'float16' && dtype !== 'bfloat16') return 'bare';
    if (r < 0.85) return 'wasm';
    return 'plain';
  });
  const anyWasm = forms.includes('wasm');
  const r = rand();
  const call: CallForm = r < 0.45 ? 'result' : r < 0.65 && !anyWasm ? 'array-out' : r < 0.85 ? 'wasm-out' : anyWasm ? 'in-place' : 'result';
  return { op, opset, dtype, shapes, forms, call, seed };
}

const describePlan = (p: Plan): string =>
  `${p.op}-${versionAt(p.op, p.opset)} (opset ${p.opset ?? 'default'}) ${p.dtype} ` +
  `${p.shapes.map((s) => `[${s.join(',')}]`).join(' ')} as ${p.forms.join('/')}, ${p.call}`;

async function execute(lib: Lib, ops: Ops, p: Plan): Promise<void> {
  const rand = rng(p.seed ^ 0x5bd1e995);
  const inputs: PlainTensor[] = p.shapes.map((shape) => ({ dtype: p.dtype, shape, data: randomData(p.dtype, count(shape), rand) }));
  const copies = inputs.map((t) => t.data.slice());
  const live: { dispose(): void }[] = [];
  const before = await ops.memoryStats();
  try {
    const args: unknown[] = [];
    for (const [i, t] of inputs.entries()) {
      switch (p.forms[i]) {
        case 'ort': args.push({ type: t.dtype, dims: t.shape, data: t.data }); break; // onnxruntime's type names are ours
        case 'bare': args.push(t.data); break;
        case 'wasm': {
          const w = await ops.tensor(t.dtype, t.shape, t.data);
          live.push(w);
          args.push(w);
          break;
        }
        default: args.push({ dtype: t.dtype, shape: t.shape, data: t.data });
      }
    }
    const valid = allowed(p.op, p.opset, p.dtype) &&
      (p.op === 'Relu' || broadcasts(p.opset) || p.shapes.every((s) => s.join() === p.shapes[0].join()));
    // Not an async function: the sync form's errors must throw from it.
    const run = (options: object): Promise<unknown> => (p.op === 'Max' ? ops.max(args as never, options) : ops.relu(args[0] as never, options));
    if (!valid) {
      await failsOnnx(lib, p.op, () => run({ opset: p.opset }), { code: allowed(p.op, p.opset, p.dtype) ? 'SHAPE_MISMATCH' : 'DTYPE_NOT_ALLOWED' });
      return;
    }
    const want = p.op === 'Max' ? refMax(inputs) : { shape: p.shapes[0], bytes: refRelu(inputs[0]) };
    const size = DTYPE_INFO[p.dtype].bytes;
    type Plain = { dtype: string; shape: readonly number[]; data: TypedArray };
    let result: Plain | Tensor;
    if (p.call === 'array-out') {
      const out = new DTYPE_INFO[p.dtype].array(count(want.shape));
      const r = (await run({ opset: p.opset, out })) as Plain;
      result = r;
      eq(r.data === out, true, 'a typed-array out is the result\'s data');
    } else if (p.call === 'wasm-out' || p.call === 'in-place') {
      // In place: the first wasm input of the result's shape, else a fresh out.
      const at = p.call === 'in-place' ? p.forms.findIndex((f, i) => f === 'wasm' && p.shapes[i].join() === want.shape.join()) : -1;
      const out = at >= 0 ? (args[at] as Tensor) : await ops.tensor(p.dtype, want.shape);
      if (at < 0) live.push(out);
      eq((await run({ opset: p.opset, out })) === out, true, 'out is the result');
      result = out;
    } else {
      result = (await run({ opset: p.opset })) as Plain | Tensor;
      if (p.forms.includes('wasm')) {
        check(result instanceof lib.WasmTensor, 'with a wasm input, the result is a WasmTensor');
        live.push(result);
      } else check(!(result instanceof lib.WasmTensor), 'with plain inputs, a plain result');
    }
    eq(result.dtype, p.dtype, 'dtype');
    eq(Array.from(result.shape), want.shape, 'shape');
    sameBits(await dataOf(ops, result), want.bytes, size, 'data');
    inputs.forEach((t, i) => {
      if (p.forms[i] !== 'wasm') sameBits(t.data, new Uint8Array(copies[i].buffer), size, `input ${i} left as it was`);
    });
  } finally {
    live.forEach((t) => t.dispose());
  }
  const after = await ops.memoryStats();
  eq(after.liveAllocations, before.liveAllocations, 'live allocations after the call');
}

export function propertyCases(lib: Lib, ops: () => Promise<Ops>): Case[] {
  const cases: Case[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < VALID_CALLS + INVALID_CALLS; i++) {
    const valid = i < VALID_CALLS;
    const p = plan(valid ? i : i - VALID_CALLS, valid);
    seen.add(`${p.op} ${p.dtype}`);
    cases.push({ name: `property ${valid ? 'valid' : 'invalid'} #${valid ? i : i - VALID_CALLS}: ${describePlan(p)}`, run: async () => execute(lib, await ops(), p) });
  }
  cases.push({ name: 'property: the sample covers every dtype each op takes', run: () => {
    for (const op of ['Max', 'Relu'] as const) {
      for (const d of VERSIONS[op][VERSIONS[op].length - 1][1]) check(seen.has(`${op} ${d}`), `no ${op} call of ${d}`);
    }
  } });
  return cases;
}
