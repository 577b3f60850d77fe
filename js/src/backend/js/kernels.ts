/**
 * Max and Relu in plain JavaScript, for engines that cannot run the wasm
 * module (no WebAssembly, or a Content-Security-Policy that refuses to
 * compile it): the ops as data over the element kinds of kinds.ts, and one
 * walk (opInto) for every op. The fallback file carries these two modules
 * and the spec table's types only.
 *
 * An op is a row of OPS, data and no loop: a binary op that selects one of
 * its operands is the sense of its order (Max: the larger wins), and a unary
 * op names the kind's flat loop (Relu: keep or zero). Ops as data rather
 * than element functions, as V8 shares type feedback among closures of one
 * function literal, so a shared loop calling per-op functions would turn
 * polymorphic and slow; the sense is a closure constant, which V8 folds
 * where it inlines a loop (a parameter it keeps).
 */

import type { OpName } from '../../core/spec.js';
import { BYTES, type Kind, KINDS, type KernelDType, type Run, type Sense, type Storage } from './kinds.js';

export type { KernelDType, Storage };

/** An operand of an op: its storage and its dims. */
export interface KernelOperand extends Storage {
  readonly shape: readonly number[];
}

/**
 * An op as the walk runs it: a selection folded over its inputs in its
 * sense's order, or one of a kind's unary loops over its one input.
 */
type Op = { readonly fold: Sense } | { readonly map: 'keep' };

/** Each op of the spec table, as data: a new selecting op (Min: fold -1) is a row here and nothing else. */
const OPS = {
  Max: { fold: 0 },
  Relu: { map: 'keep' },
} as const satisfies Record<OpName, Op> & Record<string, Op>;

/** The ops the kernels run: every op of the spec table (checked above), and any row ahead of it (a string index lets one in). */
export type KernelOp = keyof typeof OPS;

/**
 * How the output is walked: its dims with size-1 dims dropped and dims that
 * every input walks alike merged, and each input's element step per dim (0
 * where it repeats along that dim).
 */
interface Walk {
  readonly dims: number[];
  readonly steps: number[][];
}

function walkOf(inputs: readonly KernelOperand[], outShape: readonly number[]): Walk {
  const rank = outShape.length;
  const full = inputs.map((x) => {
    const s = new Array<number>(rank).fill(0);
    let step = 1;
    for (let d = x.shape.length - 1; d >= 0; d--) {
      const at = rank - x.shape.length + d;
      s[at] = x.shape[d] === 1 ? 0 : step;
      step *= x.shape[d];
    }
    return s;
  });
  const dims: number[] = [];
  const steps: number[][] = inputs.map(() => []);
  for (let d = 0; d < rank; d++) {
    if (outShape[d] === 1) continue;
    const last = dims.length - 1;
    // Dim d joins the previous kept dim when every input repeats along both
    // or along neither: an input's steps along dims it does not repeat are
    // contiguous, as only its size-1 dims (step 0) lie between them.
    const joins = last >= 0 && full.every((s, j) => (steps[j][last] === 0) === (s[d] === 0));
    if (joins) {
      dims[last] *= outShape[d];
      for (let j = 0; j < inputs.length; j++) steps[j][last] = full[j][d];
    } else {
      dims.push(outShape[d]);
      for (let j = 0; j < inputs.length; j++) steps[j].push(full[j][d]);
    }
  }
  return { dims, steps };
}

/** Elements in the tile that a fold of three or more inputs goes through (an output written once). */
const TILE = 2048;

/**
 * out = op(inputs...), the walk of every op: a unary op over its one input
 * of the output's size; a selection with numpy broadcasting into `out` of
 * `outShape` (the broadcast of the inputs' shapes, checked by the caller;
 * `out.length` is its element count, as each input's `length` is its own),
 * folded left to right so that the first NaN wins. `out` may be an input of
 * the output's size (in place); it must not partly overlap any input.
 */
export function opInto(op: KernelOp, dtype: KernelDType, inputs: readonly KernelOperand[], outShape: readonly number[], out: Storage): void {
  const row: Op = OPS[op];
  if (out.length === 0 || inputs.length === 0) return;
  if ('map' in row) {
    const k = KINDS[0][dtype];
    k[row.map](out.length, k.views(inputs[0]), k.views(out));
  } else {
    fold(KINDS[row.fold][dtype], dtype, inputs, outShape, out);
  }
}

/** The walk of a selection (opInto's), apart so that a unary op's short calls stay a few lines. */
function fold(k: Kind, dtype: KernelDType, inputs: readonly KernelOperand[], outShape: readonly number[], out: Storage): void {
  const size = out.length;
  const o = k.views(out);
  // Inputs of the output's size or one value walk the output as one run.
  const flat = inputs.every((x) => x.length === size || x.length === 1);
  if (flat && inputs.length === 2) {
    // The common call, one run: no walk, no odometer.
    const [a, b] = inputs.map((x): Run => ({ v: k.views(x), at: 0, step: x.length === size ? 1 : 0 }));
    k.select(size, a, b, o, 0);
    return;
  }
  const { dims, steps } = flat ? { dims: [size], steps: inputs.map((x) => [x.length === size ? 1 : 0]) } : walkOf(inputs, outShape);
  const rank = dims.length;
  const run = rank === 0 ? 1 : dims[rank - 1];
  const runs: Run[] = inputs.map((x, j) => ({ v: k.views(x), at: 0, step: rank === 0 ? 0 : steps[j][rank - 1] }));
  const at = new Array<number>(inputs.length).fill(0); // each input's element at the run's start
  const idx = new Array<number>(Math.max(rank - 1, 0)).fill(0);
  const tileLength = Math.min(run, TILE);
  const per = BYTES[dtype] / o.w.BYTES_PER_ELEMENT; // words of the bit view per element (float64 and int64: 2)
  const tile: Run | undefined = inputs.length > 2
    ? { v: k.views({ buffer: new ArrayBuffer(BYTES[dtype] * tileLength), byteOffset: 0, length: tileLength }), at: 0, step: 1 }
    : undefined;
  for (let start = 0; start < size; start += run) {
    for (let j = 0; j < runs.length; j++) runs[j].at = at[j];
    if (!tile) {
      k.select(run, runs[0], runs[runs.length - 1], o, start);
    } else {
      // Three or more: a tile at a time, folded in the tile, then stored, so
      // that an input that is also out is read whole before out is written.
      for (let c = 0; c < run; c += TILE) {
        const n = Math.min(TILE, run - c);
        for (let j = 0; j < runs.length; j++) runs[j].at = at[j] + c * runs[j].step;
        k.select(n, runs[0], runs[1], tile.v, 0);
        for (let j = 2; j < runs.length; j++) k.select(n, tile, runs[j], tile.v, 0);
        o.w.set(tile.v.w.subarray(0, n * per), (start + c) * per);
      }
    }
    // The odometer over the outer dims.
    for (let d = rank - 2; d >= 0; d--) {
      for (let j = 0; j < at.length; j++) at[j] += steps[j][d];
      if (++idx[d] < dims[d]) break;
      for (let j = 0; j < at.length; j++) at[j] -= steps[j][d] * dims[d];
      idx[d] = 0;
    }
  }
}
