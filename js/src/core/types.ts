/**
 * The public types of the ops' arguments and results: the tensor forms an
 * op accepts, its options, and a plain result.
 */
import type { DType, TypedArray } from '../dtypes.js';
import type { WasmTensor } from './tensor.js';

/** `{ dtype, shape, data }`: the library's own tensor shape. */
export interface Tensor<D extends DType = DType> {
  dtype: D;
  shape: readonly number[];
  data: TypedArray;
}

/** onnxruntime-common's tensor shape: `{ type, dims, data }`. */
export interface OrtTensorLike {
  type: string;
  dims: readonly number[];
  data: unknown;
}

/** An input whose data lives in JavaScript memory (anything but a WasmTensor). */
export type PlainTensorLike =
  | ({ dtype: DType | string | number; shape: readonly number[]; data: ArrayBufferView } & { dispose?: never })
  | (OrtTensorLike & { dtype?: never }) // an ort.Tensor (it has dispose() too, but no dtype)
  | TypedArray
  | ArrayBufferView;

/** What every op accepts as an input. */
export type TensorLike = PlainTensorLike | WasmTensor;

/** A plain result: `{ dtype, shape, data }` with a fresh, caller-owned typed array. */
export type Result = Tensor & { shape: number[] };

export interface OpOptions {
  /** The model's ai.onnx opset (integer >= 1). Default: the newest operator version. */
  opset?: number;
  /**
   * Where to write the result: a wasm tensor, or a typed array of the result's
   * dtype and size (for plain inputs). May be one of the inputs (in place).
   */
  out?: WasmTensor | ArrayBufferView;
}

/** The worker form's own options beside the op options: moving inputs' buffers instead of copying them, and cancelling. */
export interface TransferOption {
  /**
   * Moves the plain inputs' ArrayBuffers to the worker instead of copying
   * them (default false): the caller's arrays are then detached (length 0).
   * Buffers that cannot move (SharedArrayBuffer, or the buffer of `out`) are copied.
   */
  transfer?: boolean;
  /**
   * Cancels the call while it has not started (as fetch() takes one): it then
   * rejects with the signal's reason and never runs. A call already running
   * in the worker completes. A call with a signal is sent to the worker only
   * once the calls before it are done, so that until then it can be withdrawn.
   */
  signal?: AbortSignalLike;
}

/**
 * What the worker form uses of an AbortSignal, written out: the declarations
 * then need no DOM library (a Node project's TypeScript has none).
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
