/**
 * The op methods of Ops and WorkerOps, derived from the spec table
 * (core/spec.ts): each row is a method named by methodName(), typed by its
 * arity and documented by its line in OpMethodNames. A new op of an arity
 * that exists needs nothing here.
 */
import { OP_NAMES, OP_SPECS, type OpMethodNames, type OpName, type OpSpec, methodName } from '../core/spec.js';
import type { WasmTensor } from '../core/tensor.js';
import type { OpOptions, PlainTensorLike, Result, TensorLike, TransferOption } from '../core/types.js';

/** A variadic op's method (Max): its inputs in an array. */
export interface VariadicMethod {
  /** The op over plain arrays (or tensors): a fresh result, or written into `out`. See the op's doc on the method name. */
  (inputs: readonly PlainTensorLike[], options?: OpOptions & { out?: ArrayBufferView }): Result;
  /** The op written into a WasmTensor `out`, which it returns. */
  (inputs: readonly TensorLike[], options: OpOptions & { out: WasmTensor }): WasmTensor;
  /** The op over tensors of either kind. */
  (inputs: readonly TensorLike[], options?: OpOptions): Result | WasmTensor;
}

/** A unary op's method (Relu): its one input. */
export interface UnaryMethod {
  /** The op over plain arrays (or tensors): a fresh result, or written into `out`. See the op's doc on the method name. */
  (input: PlainTensorLike, options?: OpOptions & { out?: ArrayBufferView }): Result;
  /** The op on a WasmTensor: a fresh WasmTensor. */
  (input: WasmTensor, options?: OpOptions): WasmTensor;
  /** The op written into a WasmTensor `out`, which it returns. */
  (input: TensorLike, options: OpOptions & { out: WasmTensor }): WasmTensor;
  /** The op over tensors of either kind. */
  (input: TensorLike, options?: OpOptions): Result | WasmTensor;
}

/** A variadic op's method in the worker form: the sync method's, a Promise of its result. */
export interface WorkerVariadicMethod {
  /** The op over plain arrays (or tensors): a fresh result, or written into `out`. See the op's doc on the method name. */
  (inputs: readonly PlainTensorLike[], options?: OpOptions & TransferOption & { out?: ArrayBufferView }): Promise<Result>;
  /** The op written into a WasmTensor `out`, which it returns. */
  (inputs: readonly TensorLike[], options: OpOptions & TransferOption & { out: WasmTensor }): Promise<WasmTensor>;
  /** The op over tensors of either kind. */
  (inputs: readonly TensorLike[], options?: OpOptions & TransferOption): Promise<Result | WasmTensor>;
}

/** A unary op's method in the worker form: the sync method's, a Promise of its result. */
export interface WorkerUnaryMethod {
  /** The op over plain arrays (or tensors): a fresh result, or written into `out`. See the op's doc on the method name. */
  (input: PlainTensorLike, options?: OpOptions & TransferOption & { out?: ArrayBufferView }): Promise<Result>;
  /** The op on a WasmTensor: a fresh WasmTensor. */
  (input: WasmTensor, options?: OpOptions & TransferOption): Promise<WasmTensor>;
  /** The op written into a WasmTensor `out`, which it returns. */
  (input: TensorLike, options: OpOptions & TransferOption & { out: WasmTensor }): Promise<WasmTensor>;
  /** The op over tensors of either kind. */
  (input: TensorLike, options?: OpOptions & TransferOption): Promise<Result | WasmTensor>;
}

type Specs = typeof OP_SPECS;

/** Ops's op methods: one per spec row (`ops.max`, `ops.relu`), of its arity's form. */
export type OpMethods = {
  readonly [M in keyof OpMethodNames]: Specs[OpMethodNames[M]]['arity'] extends 'variadic' ? VariadicMethod : UnaryMethod;
};

/** WorkerOps's op methods: Ops's, each a Promise of its result. */
export type WorkerOpMethods = {
  readonly [M in keyof OpMethodNames]: Specs[OpMethodNames[M]]['arity'] extends 'variadic' ? WorkerVariadicMethod : WorkerUnaryMethod;
};

/** A class whose op methods call its run of their arity (Ops, WorkerOps). */
interface OpRunner {
  /** One call of a variadic op: its list of inputs and options. */
  runVariadic(op: OpName, inputs: unknown, options: unknown): unknown;
  /** One call of a unary op: its input and options; `count` how many arguments the call had. */
  runUnary(op: OpName, input: unknown, options: unknown, count: number): unknown;
}

// One function literal per arity, so that each arity's methods have call
// sites of their own: with one for all, calls of two ops in turn were
// polymorphic (docs/PERFORMANCE.md).
const FORMS: { readonly [A in OpSpec['arity']]: (op: OpName) => (this: OpRunner, a: unknown, options?: unknown) => unknown } = {
  variadic: (op) => function (this: OpRunner, inputs: unknown, options?: unknown) {
    return this.runVariadic(op, inputs, options);
  },
  unary: (op) => function (this: OpRunner, input: unknown, options?: unknown) {
    return this.runUnary(op, input, options, arguments.length);
  },
};

/**
 * Puts each op's method on a class's prototype: a call of the run of its
 * arity that names the op. The function carries the method's name (for
 * stack traces).
 */
export function defineOpMethods(proto: OpRunner): void {
  for (const op of OP_NAMES) {
    const name = methodName(op);
    const method = FORMS[OP_SPECS[op].arity](op);
    Object.defineProperty(method, 'name', { value: name });
    Object.defineProperty(proto, name, { value: method, writable: true, configurable: true });
  }
}
