/**
 * Shape records every layer shares: a shape's element count, equal shapes,
 * and the numpy broadcast of inputs' shapes (the result's shape).
 */
import { OnnxOpsError, showShape } from '../errors.js';

/** What names the op in a broadcast error. */
interface Scope {
  readonly op: string;
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

/** The broadcast shape of checked inputs (may be one of their shapes: do not modify). */
export function broadcastChecked(scope: Scope, inputs: readonly { shape: readonly number[] }[]): readonly number[] {
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

function broadcastMixed(scope: Scope, inputs: readonly { shape: readonly number[] }[]): readonly number[] {
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

/** Whether two shapes have the same dims. */
export function sameShape(a: readonly number[], b: readonly number[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}
