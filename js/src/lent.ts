/**
 * What the core lends the files loaded only where they are needed (the js
 * backend's, backend/js/, and the worker form's page side, worker/): one
 * object, which index.ts and js.ts hand in. They take the classes whose
 * identity the library checks (a WasmTensor, an OnnxOpsError) from it rather
 * than carrying copies of their own.
 */
import { bufferOf, byteOffsetOf, copyInto } from './dtypes.js';
import { OnnxOpsError } from './errors.js';
import { WasmTensor } from './core/tensor.js';
import { checkOwnTensor } from './check/input.js';
import { supportedDtypes } from './check/opsets.js';
import { prepareCall } from './check/prepare.js';
import { OpsCore } from './api/core.js';

/** @internal */
export const LENT = {
  WasmTensor,
  OnnxOpsError,
  /** The engine's own getters of a typed array's buffer and byte offset, and its own set() (dtypes.ts). */
  bufferOf,
  byteOffsetOf,
  copyInto,
  /** An instance's call records over a backend (api/core.ts), and the checks of a call. */
  OpsCore,
  prepareCall,
  checkOwnTensor,
  supportedDtypes,
} as const;

/** @internal */
export type Lent = typeof LENT;
