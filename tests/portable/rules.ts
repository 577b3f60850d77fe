/**
 * The ONNX rules the suite checks the library against, written out from the
 * operator pages (../shared/spec/) independently of js/src: each operator
 * version, the dtypes it takes, and whether it broadcasts.
 */
import type { DType } from './reference';

const FLOATS: DType[] = ['float16', 'float32', 'float64'];
const INTS: DType[] = ['int8', 'int16', 'int32', 'int64'];
const UINTS: DType[] = ['uint8', 'uint16', 'uint32', 'uint64'];

export type OpName = 'Max' | 'Relu';

/** Since-versions and the dtypes each takes. */
export const VERSIONS: Record<OpName, [number, DType[]][]> = {
  Max: [[1, FLOATS], [6, FLOATS], [8, FLOATS], [12, [...FLOATS, ...INTS, ...UINTS]], [13, [...FLOATS, 'bfloat16', ...INTS, ...UINTS]]],
  Relu: [[1, FLOATS], [6, FLOATS], [13, [...FLOATS, 'bfloat16']], [14, [...FLOATS, 'bfloat16', ...INTS]]],
};

/** The operator version an opset resolves to: the newest since-version <= opset (undefined: the latest). */
export function versionAt(op: OpName, opset: number | undefined): number {
  const list = VERSIONS[op];
  if (opset === undefined) return list[list.length - 1][0];
  let v = list[0][0];
  for (const [since] of list) if (since <= opset) v = since;
  return v;
}

export function allowed(op: OpName, opset: number | undefined, dtype: DType): boolean {
  const v = versionAt(op, opset);
  return VERSIONS[op].find(([since]) => since === v)![1].includes(dtype);
}

/** Max broadcasts from version 8; before it, every input has one shape. */
export const broadcasts = (opset: number | undefined): boolean => versionAt('Max', opset) >= 8;
