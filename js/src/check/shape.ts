/**
 * The rules for shapes: a shape's dims and element count, the size a
 * result may have, and numpy broadcasting.
 */
import type { DTypeInfo } from '../dtypes.js';
import { type InputRef, OnnxOpsError, describe, showShape } from '../errors.js';
import type { CheckScope } from '../core/call.js';
import { broadcastChecked, elementCount } from '../core/shape.js';

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



