/**
 * What every backend does alike, with no state and no side effects: the
 * `js` backend's own bundle (backend/js/) carries a copy of these functions
 * rather than the core's modules.
 */
import type { WasmTensor } from '../core/tensor.js';
import type { Call } from '../core/call.js';
import type { DTypeInfo, TypedArray, TypedArrayConstructor } from '../dtypes.js';

/**
 * Largest single tensor: Emscripten 3.1.6's sbrk cannot reliably grow wasm
 * memory by 2 GiB or more at once, so one tensor there stays below it; the
 * `js` backend keeps the same limit, so that calls fail alike.
 */
export const MAX_ALLOCATION = 2 ** 31 - 2 ** 16;

/** Fresh or stored data of a dtype as the caller gets it: float16 bits as a Float16Array under createOps({ float16Array }). */
export function presentData(float16: TypedArrayConstructor | undefined, info: DTypeInfo, data: TypedArray): TypedArray {
  return float16 && info.onnx === 10 ? new float16(data.buffer, data.byteOffset, data.length) : data;
}

/** An input tensor whose shape array is the call's result shape itself, for the result to share (see WasmTensor's constructor). */
export function shapeOwner(call: Call): WasmTensor | undefined {
  const inputs = call.inputs;
  for (let i = 0; i < inputs.length; i++) if (inputs[i].shape === call.shape && inputs[i].tensor) return inputs[i].tensor;
  return undefined;
}
