/**
 * onnxruntime interop: results as onnxruntime-common tensors.
 *
 * Every op already accepts an onnxruntime-common tensor (`{ type, dims, data }`,
 * an `ort.Tensor` as it is). `toOrt()` goes the other way: a result, a wasm
 * tensor or any tensor-like becomes `{ type, dims, data }` with onnxruntime's
 * type names, or a real `ort.Tensor` when you pass its constructor:
 *
 *   import { Tensor } from 'onnxruntime-web';
 *   const t = toOrt(ops.relu(x), { Tensor });   // an ort.Tensor
 */
import { type DType, type TypedArray, standardView } from '../dtypes.js';
import { OnnxOpsError } from '../errors.js';
import { checkInput } from '../check/input.js';
import { WasmTensor } from '../core/tensor.js';
import type { OrtTensorLike, TensorLike } from '../core/types.js';

/** onnxruntime-common's `Tensor.Type` names this library's dtypes map to (ORT has no bfloat16). */
export type OrtType =
  | 'float32' | 'float64' | 'float16'
  | 'int8' | 'int16' | 'int32' | 'int64'
  | 'uint8' | 'uint16' | 'uint32' | 'uint64';

/** The typed array onnxruntime-common holds for each type (float16: raw bits, as `Tensor.DataTypeMap`). */
export interface OrtDataTypeMap {
  float32: Float32Array;
  float64: Float64Array;
  float16: Uint16Array;
  int8: Int8Array;
  int16: Int16Array;
  int32: Int32Array;
  int64: BigInt64Array;
  uint8: Uint8Array;
  uint16: Uint16Array;
  uint32: Uint32Array;
  uint64: BigUint64Array;
}

/** An onnxruntime-common tensor's shape: `{ type, dims, data }`, what `new ort.Tensor(type, data, dims)` takes. */
export interface OrtTensorData<T extends OrtType = OrtType> {
  type: T;
  dims: number[];
  data: OrtDataTypeMap[T];
}

/** A tensor constructor such as onnxruntime-common's `Tensor` (`new Tensor(type, data, dims)`). */
export type OrtTensorConstructor<R> = new (type: OrtType, data: TypedArray, dims: readonly number[]) => R;

export interface ToOrtOptions {
  /**
   * What to do with bfloat16, which onnxruntime has no tensor type for:
   * `'error'` (default) throws DTYPE_NOT_ALLOWED; `'float32'` widens the values
   * to float32, exactly (every bfloat16 is a float32; NaN payloads are kept).
   */
  bfloat16?: 'error' | 'float32';
}

/**
 * A result, wasm tensor or any tensor-like as an onnxruntime-common tensor
 * `{ type, dims, data }`. The data of a plain input is shared, not copied
 * (a Float16Array or Uint8ClampedArray is viewed as the Uint16Array of bits or
 * Uint8Array onnxruntime expects); a wasm tensor is copied out of wasm memory,
 * so the result stays valid after `dispose()` and memory growth.
 *
 * With `{ Tensor }` (onnxruntime-common's, -web's or -node's `Tensor` class) it
 * returns `new Tensor(type, data, dims)` instead.
 */
export function toOrt(x: TensorLike | OrtTensorLike, options?: ToOrtOptions & { Tensor?: undefined }): OrtTensorData;
export function toOrt<R>(x: TensorLike | OrtTensorLike, options: ToOrtOptions & { Tensor: OrtTensorConstructor<R> }): R;
export function toOrt<R>(
  x: TensorLike | OrtTensorLike, options: ToOrtOptions & { Tensor?: OrtTensorConstructor<R> } = {},
): OrtTensorData | R {
  const op = 'toOrt';
  if (options === null || typeof options !== 'object') {
    throw new OnnxOpsError('INVALID_ARGUMENT', op, undefined, 'options must be an object');
  }
  const { bfloat16 = 'error', Tensor } = options;
  if (bfloat16 !== 'error' && bfloat16 !== 'float32') {
    throw new OnnxOpsError('INVALID_ARGUMENT', op, undefined,
      `options.bfloat16 must be 'error' or 'float32', got ${typeof bfloat16 === 'string' ? JSON.stringify(bfloat16) : String(bfloat16)}`);
  }
  if (Tensor !== undefined && typeof Tensor !== 'function') {
    throw new OnnxOpsError('INVALID_ARGUMENT', op, undefined, 'options.Tensor must be a tensor constructor');
  }
  const c = checkInput({ op, owner: WasmTensor.is(x) ? x.backend : undefined }, x, undefined); // its own backend: any instance's tensor
  let dtype: DType = c.info.name;
  // This realm's own storage class (also for a Float16Array from toPlain() under createOps({ float16Array: true })).
  let data: TypedArray = standardView(c.tensor ? c.tensor.toPlain().data : c.data!, c.info.array);
  if (dtype === 'bfloat16') {
    if (bfloat16 === 'error') {
      throw new OnnxOpsError('DTYPE_NOT_ALLOWED', op, undefined,
        'onnxruntime has no bfloat16 tensor type; toOrt(x, { bfloat16: \'float32\' }) widens the values exactly');
    }
    const bits = data as Uint16Array;
    const wide = new Uint32Array(bits.length);
    for (let i = 0; i < bits.length; i++) wide[i] = bits[i] << 16;
    data = new Float32Array(wide.buffer);
    dtype = 'float32';
  }
  const type = dtype as OrtType;
  const dims = [...c.shape];
  return Tensor ? new Tensor(type, data, dims) : { type, dims, data } as OrtTensorData;
}
