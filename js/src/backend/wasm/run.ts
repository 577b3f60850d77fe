/**
 * Running a checked call (call.ts) in wasm memory: with wasm tensors, where
 * the result is a wasm tensor, or on the plain path (plain.ts), where it is
 * a fresh array or the caller's `out`. Temporary memory is freed on every
 * path, errors included.
 */
import { type Operand, callOp } from './abi.js';
import { type TypedArray, copyInto } from '../../dtypes.js';
import type { Heap } from './memory.js';
import type { Part, PlainPath } from './plain.js';
import { WasmTensor } from '../../api/tensor.js';
import type { Result } from '../../api/types.js';
import type { Call } from '../../call.js';
import type { CheckedInput } from '../../check/input.js';
import { broadcastChecked, elementCount } from '../../check/shape.js';

/** Runs a checked call: `plain`, the instance's plain path over its memory. */
export function runCall(heap: Heap, plain: PlainPath, call: Call): Result | WasmTensor {
  if (!call.tensorResult) return runPlainCall(plain, call);
  const out = call.outTensor;
  if (!call.allTensors || !out) return runWithTensors(heap, call);
  // Wasm tensors into a wasm tensor: nothing to allocate or free.
  if (call.size > 0) callOp(heap, call, call.inputs, call.shape, out.address, call.id);
  return out;
}

/**
 * Wasm tensors are used where they are; plain inputs are copied into
 * temporary wasm memory; the result is `out` or a new wasm tensor.
 */
function runWithTensors(heap: Heap, call: Call): WasmTensor {
  const { op, info, inputs } = call;
  const out = call.outTensor;
  let placed: Operand[] | undefined; // the inputs as operands, once one is plain
  let result = out;
  try {
    for (let i = 0; i < inputs.length; i++) {
      const c = inputs[i];
      if (c.tensor && !placed) continue;
      placed ??= inputs.slice(0, i);
      if (c.tensor) {
        placed.push(c);
      } else {
        const address = heap.alloc(c.size * info.bytes, op, i);
        placed.push({ shape: c.shape, address });
        heap.write(address, info, c.data!);
      }
    }
    result ??= new WasmTensor(heap, info.name, call.shape, call.size, heap.alloc(call.size * info.bytes, op), shapeOwner(inputs, call.shape));
    if (call.size > 0) callOp(heap, call, placed ?? inputs, call.shape, result.address);
    return result;
  } catch (e) {
    if (!out) result?.dispose();
    throw e;
  } finally {
    for (let i = 0; placed && i < placed.length; i++) if (!inputs[i].tensor) heap.free(placed[i].address);
  }
}

/** An input wasm tensor whose shape array is `shape` itself, for the result to share (see WasmTensor's constructor). */
function shapeOwner(inputs: readonly CheckedInput[], shape: readonly number[]): WasmTensor | undefined {
  for (let i = 0; i < inputs.length; i++) if (inputs[i].shape === shape && inputs[i].tensor) return inputs[i].tensor;
  return undefined;
}

/**
 * How many plain inputs one Max call takes; more are folded in groups of it.
 * Each input needs at least 16 bytes of the scratch block, and, beyond it,
 * wasm memory for its part of the call descriptor (under 48 bytes per dim,
 * up to the output's rank, and two more): a group keeps that under the
 * scratch block's size too, so a plain call grows wasm memory by at most
 * twice the block.
 */
const foldGroup = (scratchLimit: number, rank: number): number =>
  Math.max(2, Math.floor(Math.min(scratchLimit / 64, scratchLimit / (48 * (rank + 2)))));

/** Plain inputs, a plain result: through the scratch block (plain.ts). */
function runPlainCall(plain: PlainPath, call: Call): Result {
  const { info, outArray, inputs } = call; // all plain: each has its data
  const target = outArray?.data;
  const group = foldGroup(plain.heap.scratchLimit, call.shape.length);
  let data: TypedArray;
  if (inputs.length <= group) {
    data = plain.run(call, inputs, call.shape, outArray?.staged ? undefined : target);
  } else {
    // Group by group, left to right (so the first NaN still wins), each
    // group's result the first input of the next.
    const fold = (parts: readonly Part[]): Part & { data: TypedArray } => {
      const shape = broadcastChecked(call, parts);
      return { data: plain.run(call, parts, shape), shape, size: elementCount(shape) };
    };
    let acc = fold(inputs.slice(0, group));
    for (let i = group; i < inputs.length; i += group - 1) acc = fold([acc, ...inputs.slice(i, i + group - 1)]);
    data = acc.data;
  }
  if (target && data !== target) copyInto(target, data); // staged or folded
  // The shape: plain inputs' shapes are this call's own copies (check/input.ts), never seen by the caller.
  return { dtype: info.name, shape: call.shape as number[], data: (outArray?.given as TypedArray | undefined) ?? plain.heap.present(info, data) };
}
