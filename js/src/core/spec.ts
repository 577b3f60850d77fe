/**
 * The operators as data: one row per ONNX operator, from which the opset
 * checks (check/opsets.ts), the preparing of a call (check/prepare.ts), the
 * Ops methods' records (api/ops.ts), the js backend's dispatch and the
 * worker's requests derive. The dtypes are the ONNX operator pages'.
 */
import type { DType } from '../dtypes.js';

export interface OpSpec {
  /** Its since-versions, oldest first, each with the dtypes it takes. */
  readonly versions: readonly (readonly [since: number, dtypes: readonly DType[]])[];
  /** 'variadic': 1..N inputs of one dtype, in an array (Max); 'unary': exactly one input (Relu). */
  readonly arity: 'variadic' | 'unary';
  /** A variadic op's version from which inputs broadcast (numpy); before it they share one shape. */
  readonly broadcastSince?: number;
}

// The operator pages' type lists: the IEEE floats (bfloat16 comes with version 13 of each op), signed and unsigned integers.
const F: readonly DType[] = ['float16', 'float32', 'float64'];
const FB: readonly DType[] = [...F, 'bfloat16'];
const I: readonly DType[] = ['int8', 'int16', 'int32', 'int64'];
const N: readonly DType[] = [...I, 'uint8', 'uint16', 'uint32', 'uint64'];

export const OP_SPECS = {
  Max: { arity: 'variadic', broadcastSince: 8, versions: [[1, F], [6, F], [8, F], [12, [...F, ...N]], [13, [...FB, ...N]]] },
  Relu: { arity: 'unary', versions: [[1, F], [6, F], [13, FB], [14, [...FB, ...I]]] },
} as const satisfies Record<string, OpSpec>;

/** The operators. */
export type OpName = keyof typeof OP_SPECS;

export const OP_NAMES = Object.keys(OP_SPECS) as OpName[];

/** Whether x names an operator. */
export function isOpName(x: unknown): x is OpName {
  return (OP_NAMES as unknown[]).includes(x);
}
