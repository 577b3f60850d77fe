/**
 * The operators as data: one row per ONNX operator, from which the opset
 * checks (check/opsets.ts), the preparing of a call (check/prepare.ts), the
 * methods of Ops and WorkerOps and their records (api/methods.ts), the wasm
 * entries, the js backend's dispatch and the worker's requests derive. The
 * dtypes are the ONNX operator pages'. Each row also has a line in
 * OpMethodNames below, which carries its method's doc comment.
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

/**
 * The op methods of Ops and WorkerOps: each op's method name (the op's,
 * first letter lower-case) to its op. The comments are the methods' docs:
 * editors show them on `ops.max`, which a method name derived from a row
 * by a type would lose.
 */
export interface OpMethodNames {
  /**
   * ONNX Max: the element-wise maximum of 1..N inputs of one dtype, with
   * numpy broadcasting from Max-8 on (before it, all shapes must be equal).
   */
  readonly max: 'Max';
  /** ONNX Relu: max(0, x) element-wise, for one input. */
  readonly relu: 'Relu';
}

/** An op's method: its name with a lower-case first letter (Max: max; LeakyRelu would be leakyRelu). */
export type MethodName<Op extends OpName> = Uncapitalize<Op>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
/** Fails to compile when OpMethodNames misses a row of OP_SPECS or names a method otherwise than MethodName does. */
export type MethodNamesMatchRows = Holds<
  Same<{ readonly [M in keyof OpMethodNames]: MethodName<OpMethodNames[M]> }, { readonly [M in keyof OpMethodNames]: M }> &
    Same<OpMethodNames[keyof OpMethodNames], OpName>
>;

/** An op's method name (see MethodName). */
export const methodName = <Op extends OpName>(op: Op): MethodName<Op> => (op[0].toLowerCase() + op.slice(1)) as MethodName<Op>;

/** Whether x names an operator. */
export function isOpName(x: unknown): x is OpName {
  return (OP_NAMES as unknown[]).includes(x);
}
