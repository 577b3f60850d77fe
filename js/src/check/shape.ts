/**
 * The rules for shapes: a shape's dims and element count, the size a
 * result may have, and numpy broadcasting.
 */
import type { DTypeInfo } from '../dtypes.js';
import { type InputRef, OnnxOpsError, describe, showShape } from '../errors.js';
import type { CheckScope } from '../call.js';

/** wasm32 memory is at most 4 GiB: no tensor may need more. */
export const MAX_WASM_BYTES = 2 ** 32;

/** Largest rank accepted (numpy's limit is 64 too). */
export const MAX_RANK = 64;


/** Checks a shape and returns a copy of it with its element count. */
export function checkShape(scope: CheckScope, shape: unknown, input?: InputRef): { shape: number[]; size: number } {
  if (!Array.isArray(shape)) {
    throw new OnnxOpsError('INVALID_SHAPE', scope.op, input, `shape must be an array of dims, got ${describe(shape)}`);
  }
  if (shape.length > MAX_RANK) {
    throw new OnnxOpsError('INVALID_SHAPE', scope.op, input, `rank ${shape.length} is above the limit of ${MAX_RANK}`);
  }
  const dims: number[] = [];
  for (let k = 0; k < shape.length; k++) {
    const d: unknown = shape[k];
    if (typeof d !== 'number' || !Number.isSafeInteger(d) || d < 0) {
      throw new OnnxOpsError('INVALID_SHAPE', scope.op, input,
        `dim ${k} of the shape must be an integer from 0 to 2^53 - 1, got ${describe(d)}`);
    }
    dims.push(d === 0 ? 0 : d); // -0 becomes 0
  }
  const size = elementCount(dims);
  if (!Number.isSafeInteger(size)) {
    throw new OnnxOpsError('TOO_LARGE', scope.op, input, `shape ${showShape(dims)} has more elements than 2^53`);
  }
  return { shape: dims, size };
}

/** The product of the dims: 0 for any empty shape, even when the others overflow (Infinity * 0 is NaN). */
export function elementCount(shape: readonly number[]): number {
  let size = 1;
  for (let k = 0; k < shape.length; k++) {
    const d = shape[k];
    if (d === 0) return 0; // empty, whatever the other dims are
    size *= d;
  }
  return size;
}

/** Fails with TOO_LARGE when `size` elements of a dtype cannot fit a wasm memory. */
export function checkFits(scope: CheckScope, info: DTypeInfo, shape: readonly number[], size: number, input?: InputRef): void {
  if (size * info.bytes >= MAX_WASM_BYTES) tooLarge(scope, info, shape, size, input);
}

function tooLarge(scope: CheckScope, info: DTypeInfo, shape: readonly number[], size: number, input?: InputRef): never {
  throw new OnnxOpsError('TOO_LARGE', scope.op, input,
    `shape ${showShape(shape)} of ${info.name} needs ${size * info.bytes} bytes, more than a 4 GiB wasm memory holds`);
}


/**
 * The numpy broadcast of shapes, or a BROADCAST_MISMATCH error naming the two
 * inputs whose dims clash.
 */
export function broadcastShapes(...shapes: (readonly number[])[]): number[] {
  return [...broadcastChecked(BROADCAST_SHAPES, shapes.map((s, i) => checkShape(BROADCAST_SHAPES, s, i)))];
}

/** broadcastShapes' scope: it takes no tensors. */
const BROADCAST_SHAPES: CheckScope = { op: 'broadcastShapes', owner: undefined };

/** The broadcast shape of checked inputs (may be one of their shapes: do not modify). */
export function broadcastChecked(scope: CheckScope, inputs: readonly { shape: readonly number[] }[]): readonly number[] {
  // Plain loops, no closures: this runs on every call of Max; the usual cases,
  // one shape, or one shape and rank-0 scalars (which broadcast to anything),
  // stay small enough to be inlined.
  let first = inputs.length > 0 ? inputs[0].shape : [];
  for (let i = 1; i < inputs.length; i++) {
    const s = inputs[i].shape;
    if (s.length === 0) continue;
    if (first.length === 0) first = s; // every input before it was rank 0
    else if (!sameShape(s, first)) return broadcastMixed(scope, inputs);
  }
  return first;
}

function broadcastMixed(scope: CheckScope, inputs: readonly { shape: readonly number[] }[]): readonly number[] {
  let rank = 0;
  for (let i = 0; i < inputs.length; i++) rank = Math.max(rank, inputs[i].shape.length);
  const out: number[] = []; // packed (new Array(rank) would be holey: slower to read)
  for (let k = 0; k < rank; k++) out.push(1);
  for (let i = 0; i < inputs.length; i++) {
    const s = inputs[i].shape;
    const offset = rank - s.length;
    for (let k = 0; k < s.length; k++) {
      const d = s[k];
      const o = out[offset + k];
      if (d === o || d === 1) continue;
      if (o !== 1) {
        // The first input with a dim other than 1 on this axis set it.
        let j = 0;
        while (dimAt(inputs[j].shape, rank, offset + k) === 1) j++;
        throw new OnnxOpsError('BROADCAST_MISMATCH', scope.op, i,
          `shape ${showShape(s)} does not broadcast with input ${j}'s shape ${showShape(inputs[j].shape)} ` +
          `(axis ${k - s.length}: ${d} vs ${o})`);
      }
      out[offset + k] = d;
    }
  }
  // An input's own shape where it is the result's: the descriptor then shares its dims.
  for (let i = 0; i < inputs.length; i++) if (sameShape(inputs[i].shape, out)) return inputs[i].shape;
  return out;
}

/** A shape's dim on axis `axis` of the broadcast rank `rank` (1 where it has none). */
function dimAt(shape: readonly number[], rank: number, axis: number): number {
  const k = axis - (rank - shape.length);
  return k >= 0 ? shape[k] : 1;
}

export function sameShape(a: readonly number[], b: readonly number[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

