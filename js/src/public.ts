/**
 * What both entries of the package export besides createOps() (index.ts for
 * every backend, js.ts for the js backend alone): one list, so the two
 * entries offer the same API.
 */
export { Ops } from './api/ops.js';
export type { WorkerOps } from './worker/client.js';
export { WasmTensor } from './core/tensor.js';
export type { BackendName } from './backend/backend.js';
export type { CreateOpsOptions, WasmModule } from './options.js';
export { OnnxOpsError, ERROR_CODES, type ErrorCode } from './errors.js';
export {
  type DType, type TypedArray, DTYPES, DTYPE_INFO, toDType,
  float16ToNumber, numberToFloat16, bfloat16ToNumber, numberToBfloat16,
  encodeFloat16, decodeFloat16, encodeBfloat16, decodeBfloat16,
} from './dtypes.js';
export { type OpName, OP_VERSIONS, opVersion, supportedDtypes, firstVersionWith } from './check/opsets.js';
export { type Tensor, type OrtTensorLike, type TensorLike, type PlainTensorLike, type OpOptions, type Result, type TransferOption } from './core/types.js';
export { broadcastShapes, MAX_RANK } from './check/shape.js';
export {
  toOrt, type OrtType, type OrtDataTypeMap, type OrtTensorData, type OrtTensorConstructor, type ToOrtOptions,
} from './api/interop.js';
