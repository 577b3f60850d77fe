/**
 * The rule for a typed array given as `out` with plain inputs.
 */
import { byteOffsetOf, bufferOf, lengthOf, typedArrayKind, type TypedArray } from '../dtypes.js';
import { OnnxOpsError, showShape } from '../errors.js';
import type { Call, OutArray } from '../core/call.js';
import { checkStorage, detached, storageView } from './input.js';

/**
 * Checks a typed array given as `out` for plain inputs: the dtype's array
 * class, the result's length, and no partial overlap with an input (being
 * exactly an input of the output's shape, in place, is fine). `staged`: the
 * result must be computed aside and copied in (see below). The call holds
 * the result's dtype, shape and size and the checked inputs.
 */
export function checkPlainOut(call: Call, out: ArrayBufferView): OutArray {
  const { op, info, shape, size, inputs } = call;
  const same = checkStorage(call, out, typedArrayKind(out), info, 'out');
  const buffer = bufferOf(out as TypedArray);
  const length = lengthOf(out as TypedArray);
  const data = storageView(out, buffer, length, info, same, undefined) ?? detached(call, 'out');
  if (buffer === call.owner.memoryBuffer) {
    throw new OnnxOpsError('INVALID_ARGUMENT', op, 'out',
      'out is a view of wasm memory (a tensor\'s .data?): pass the tensor itself as out');
  }
  if (length !== size) {
    throw new OnnxOpsError('OUT_MISMATCH', op, 'out',
      `out has ${length} elements but the result ${showShape(shape)} has ${size}`);
  }
  const start = byteOffsetOf(data);
  const end = start + length * info.bytes;
  for (let i = 0; i < inputs.length; i++) {
    const d = inputs[i].data;
    if (!d || inputs[i].buffer !== buffer || inputs[i].size === 0 || length === 0) continue;
    const from = byteOffsetOf(d);
    if (from >= end || from + inputs[i].size * info.bytes <= start) continue;
    if (from === start && inputs[i].size === length) continue;
    throw new OnnxOpsError('OVERLAP', op, i,
      'out overlaps this input\'s memory without being exactly it (results would overwrite values still to be read)');
  }
  // Two SharedArrayBuffer objects may share memory (structuredClone, workers)
  // without JavaScript being able to tell: then the result is computed aside
  // and copied into out at the end.
  const staged = isShared(buffer) && inputs.some((c) => c.buffer !== undefined && c.buffer !== buffer && isShared(c.buffer));
  return { given: out, data, staged };
}

/** Whether a buffer is a SharedArrayBuffer of any realm (this realm's ArrayBuffers skip the tag test). */
function isShared(b: ArrayBufferLike): boolean {
  return !(b instanceof ArrayBuffer) && Object.prototype.toString.call(b) === '[object SharedArrayBuffer]';
}
