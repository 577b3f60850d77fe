/**
 * Which operator version an opset means, and which dtypes each version takes
 * (the spec table's, core/spec.ts).
 */
import { type DType, type DTypeInfo, DTYPE_INFO } from '../dtypes.js';
import { OnnxOpsError, describe } from '../errors.js';
import { OP_NAMES, OP_SPECS, type OpName, isOpName } from '../core/spec.js';

export type { OpName };

/** The since-versions of each operator, oldest first. */
export const OP_VERSIONS = {} as Readonly<Record<OpName, readonly number[]>>;
// The dtypes of each since-version (frozen), and the same as bit sets over the dtypes' ONNX numbers, for the check on every call.
const TABLES = {} as Record<OpName, (readonly DType[])[]>;
const ALLOWED = {} as Record<OpName, number[]>;
for (const op of OP_NAMES) {
  (OP_VERSIONS as Record<OpName, number[]>)[op] = OP_SPECS[op].versions.map(([since]) => since);
  TABLES[op] = [];
  ALLOWED[op] = [];
  for (const [v, dtypes] of OP_SPECS[op].versions) {
    TABLES[op][v] = Object.freeze([...dtypes]);
    ALLOWED[op][v] = dtypes.reduce((bits, d) => bits | (1 << DTYPE_INFO[d].onnx), 0);
  }
}

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

/** The dtypes an operator version accepts (a shared, frozen array). */
export function dtypesOfVersion(op: OpName, version: number): readonly DType[] {
  return TABLES[op][versionAt(op, OP_VERSIONS[op], version)];
}

/** The dtypes an operator accepts at an opset (default: the newest). */
export function supportedDtypes(op: OpName, opset?: number): DType[] {
  if (!isOpName(op)) {
    throw new OnnxOpsError('INVALID_ARGUMENT', String(op), undefined, `unknown operator (use "${OP_NAMES.join('" or "')}")`);
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
