/**
 * onnx-ops-wasm: ONNX Max and Relu on WebAssembly SIMD.
 *
 *   const ops = await createOps();
 *   ops.relu({ dtype: 'float32', shape: [2, 3], data: new Float32Array([-3, -1, 0, 1, 2, 3]) });
 *   ops.max([a, b, c], { opset: 13 });
 */
import createOnnxOpsModule from './wasm/onnx-ops-wasm.js';
import { Ops } from './ops.js';
import { OnnxOpsError, describe } from './errors.js';
import { SCRATCH_BYTES } from './plain.js';

export interface CreateOpsOptions {
  /** The module's wasm bytes, if you load them yourself (they are built into the package otherwise). */
  wasmBinary?: ArrayBuffer | ArrayBufferView;
  /**
   * Wasm memory the plain path (typed arrays in and out) may use for one call,
   * in bytes (default 2 MiB, at least 4 KiB). Larger plain calls stream
   * through it in chunks, so they never grow wasm memory by more.
   */
  scratchBytes?: number;
}

/**
 * Loads a fresh instance of the wasm module (in Node and in browsers) and
 * returns its operators. Instances are independent: tensors of one cannot be
 * used with another.
 */
export async function createOps(options: CreateOpsOptions = {}): Promise<Ops> {
  const op = 'createOps';
  if (options === null || typeof options !== 'object') {
    throw new OnnxOpsError('INVALID_ARGUMENT', op, undefined,
      `options must be an object, got ${describe(options)}`);
  }
  const scratch = options.scratchBytes ?? SCRATCH_BYTES;
  if (typeof scratch !== 'number' || !Number.isSafeInteger(scratch) || scratch < 4096 || scratch > 2 ** 30) {
    throw new OnnxOpsError('INVALID_ARGUMENT', op, undefined,
      `scratchBytes must be an integer from 4096 to 2^30, got ${describe(scratch)}`);
  }
  const wasmBinary = options.wasmBinary;
  if (wasmBinary !== undefined && !ArrayBuffer.isView(wasmBinary) &&
    Object.prototype.toString.call(wasmBinary) !== '[object ArrayBuffer]') {
    throw new OnnxOpsError('INVALID_ARGUMENT', op, undefined,
      `wasmBinary must be an ArrayBuffer or a typed array, got ${describe(wasmBinary)}`);
  }
  // Load errors come back as the rejection; Emscripten's own messages about
  // them (printErr) would only repeat it on the console.
  const quiet = { printErr: () => {} };
  let module;
  try {
    module = await createOnnxOpsModule(wasmBinary === undefined ? quiet : { ...quiet, wasmBinary });
  } catch (e) {
    if (wasmBinary === undefined) throw e; // the runtime lacks something (the message says what)
    throw new OnnxOpsError('INVALID_ARGUMENT', op, undefined,
      `wasmBinary did not load: ${(e as Error)?.message ?? String(e)}`);
  }
  if (typeof module._onnx_ops_max !== 'function' || typeof module._onnx_ops_simd !== 'function') {
    throw new OnnxOpsError('INVALID_ARGUMENT', op, undefined,
      'wasmBinary is not this package\'s wasm (onnx-ops-wasm/wasm)');
  }
  return new Ops(module, scratch);
}

export { Ops, type OpOptions, type Result } from './ops.js';
export { WasmTensor } from './memory.js';
export { OnnxOpsError, ERROR_CODES, type ErrorCode } from './errors.js';
export {
  type DType, type TypedArray, DTYPES, DTYPE_INFO, toDType,
  float16ToNumber, numberToFloat16, bfloat16ToNumber, numberToBfloat16,
  encodeFloat16, decodeFloat16, encodeBfloat16, decodeBfloat16,
} from './dtypes.js';
export { type OpName, OP_VERSIONS, opVersion, supportedDtypes, firstVersionWith } from './opsets.js';
export {
  type Tensor, type OrtTensorLike, type TensorLike, type PlainTensorLike, broadcastShapes, MAX_RANK,
} from './validate.js';
export {
  toOrt, type OrtType, type OrtDataTypeMap, type OrtTensorData, type OrtTensorConstructor, type ToOrtOptions,
} from './interop.js';
