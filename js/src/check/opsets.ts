/**
 * Which operator version an opset means, and which dtypes each version takes
 * (from the ONNX operator pages for Max and Relu).
 */
import { type DType, type DTypeInfo, DTYPE_INFO, FLOAT_DTYPES, INT_DTYPES, UINT_DTYPES } from '../dtypes.js';
import { OnnxOpsError, describe } from '../errors.js';

import type { OpName } from '../core/call.js';

export type { OpName };

/** The since-versions of each operator, oldest first. */
export const OP_VERSIONS: Readonly<Record<OpName, readonly number[]>> = {
  Max: [1, 6, 8, 12, 13],
  Relu: [1, 6, 13, 14],
};

/**
 * The operator version in effect at an ai.onnx opset: the newest since-version
 * not above it (opset 7 is Max-6, opset 18 is Relu-14). Without an opset, the
 * newest version.
 */
export function opVersion(op: OpName, opset?: number): number {
  const versions = OP_VERSIONS[op];
  return opset === undefined ? versions[versions.length - 1] : versionAt(op, versions, opset);
}

/** opVersion for a given opset (apart, so that the usual call's check stays small enough to inline). */
function versionAt(op: OpName, versions: readonly number[], opset: unknown): number {
  if (typeof opset !== 'number' || !Number.isSafeInteger(opset) || opset < 1) {
    throw new OnnxOpsError('INVALID_OPSET', op, undefined,
      `opset must be an integer >= 1, got ${describe(opset)}`);
  }
  let v = versions[0];
  for (const since of versions) if (since <= opset) v = since;
  return v;
}

function dtypeTable(op: OpName, version: number): readonly DType[] {
  if (op === 'Max') {
    if (version < 12) return FLOAT_DTYPES;
    if (version < 13) return [...FLOAT_DTYPES, ...INT_DTYPES, ...UINT_DTYPES];
    return [...FLOAT_DTYPES, 'bfloat16', ...INT_DTYPES, ...UINT_DTYPES];
  }
  if (version < 13) return FLOAT_DTYPES;
  if (version < 14) return [...FLOAT_DTYPES, 'bfloat16'];
  return [...FLOAT_DTYPES, 'bfloat16', ...INT_DTYPES];
}

const TABLES: Record<OpName, (readonly DType[])[]> = { Max: [], Relu: [] };
// The same tables as bit sets over the dtypes' ONNX numbers, for the check on every call.
const ALLOWED: Record<OpName, number[]> = { Max: [], Relu: [] };
for (const op of ['Max', 'Relu'] as const) {
  for (const v of OP_VERSIONS[op]) {
    TABLES[op][v] = Object.freeze(dtypeTable(op, v));
    ALLOWED[op][v] = TABLES[op][v].reduce((bits, d) => bits | (1 << DTYPE_INFO[d].onnx), 0);
  }
}

/** The dtypes an operator version accepts (a shared, frozen array). */
export function dtypesOfVersion(op: OpName, version: number): readonly DType[] {
  return TABLES[op][version] ?? dtypeTable(op, version);
}

/** The dtypes an operator accepts at an opset (default: the newest). */
export function supportedDtypes(op: OpName, opset?: number): DType[] {
  if (op !== 'Max' && op !== 'Relu') {
    throw new OnnxOpsError('INVALID_ARGUMENT', String(op), undefined, 'unknown operator (use "Max" or "Relu")');
  }
  return [...dtypesOfVersion(op, opVersion(op, opset))];
}

/** Throws DTYPE_NOT_ALLOWED unless the operator version (one of OP_VERSIONS) accepts the dtype. */
export function checkAllowed(op: OpName, version: number, info: DTypeInfo): void {
  if (!((ALLOWED[op][version] >>> info.onnx) & 1)) notAllowed(op, version, info.name);
}

function notAllowed(op: OpName, version: number, dtype: DType): never {
  const since = firstVersionWith(op, dtype);
  throw new OnnxOpsError('DTYPE_NOT_ALLOWED', op, 0,
    `dtype ${dtype} is not allowed by ${op}-${version} (allowed: ${dtypesOfVersion(op, version).join(', ')}` +
    `${since === undefined ? `; ${op} never takes ${dtype}` : `; ${dtype} needs opset >= ${since}`})`);
}

/** Since which version an operator accepts a dtype, or undefined if never. */
export function firstVersionWith(op: OpName, dtype: DType): number | undefined {
  return OP_VERSIONS[op].find((v) => dtypesOfVersion(op, v).includes(dtype));
}
