/**
 * WasmTensor: a tensor whose data lives in wasm memory, and the marks that
 * recognise one.
 */
import { type DType, type DTypeInfo, DTYPE_INFO, type TypedArray } from '../dtypes.js';
import { OnnxOpsError, type InputRef } from '../errors.js';
import { DISPOSE } from './dispose.js';

/**
 * An input after validation (check/input.ts): either plain data, or a live
 * wasm tensor. Every CheckedInput has all seven fields (one of data and
 * tensor undefined): one object shape, so the call path's reads of them
 * never miss. Never written after it is made: a wasm tensor's serves every
 * call of it.
 */
export interface CheckedInput {
  readonly info: DTypeInfo; // the dtype
  readonly shape: readonly number[];
  readonly size: number;
  readonly data: TypedArray | undefined; // plain inputs: the dtype's storage array (see check/input.ts's storageView: read it only through dtypes.ts)
  readonly tensor: WasmTensor | undefined;
  readonly address: number; // a wasm tensor's address in wasm memory; -1 for plain data
  readonly buffer: ArrayBufferLike | undefined; // plain inputs: the buffer of the caller's array, read once (see checkPlainOut)
}

/**
 * What a tensor needs of the backend that holds it (backend/backend.ts's
 * Backend is one): its data, read or viewed, and freeing it.
 */
export interface TensorHost {
  /**
   * The ArrayBuffer that views of its tensors' data (WasmTensor.data) lie in,
   * if a call may detach them (wasm memory grows): plain inputs viewing it
   * are copied before the call, and a typed-array `out` may not be one of
   * them. Undefined when there is none.
   */
  readonly memoryBuffer: ArrayBufferLike | undefined;
  /** True for the worker form's page side: its tensors live in a worker. */
  readonly remote?: boolean;
  /** Frees a tensor's storage (a tensor's dispose()); an address it did not give is ignored. */
  free(address: number): void;
  /** A live view of `length` elements of the storage at `address` (WasmTensor.data: writes change the tensor). */
  view(info: DTypeInfo, address: number, length: number): TypedArray;
  /** A fresh, caller-owned copy of `length` elements at `address` (WasmTensor.toPlain). */
  read(info: DTypeInfo, address: number, length: number): TypedArray;
}

/** @internal The key of a wasm tensor's input record (CheckedInput), made once with it. */
export const CHECKED: unique symbol = Symbol('onnx-ops-wasm checked');
/**
 * The mark of a WasmTensor of any copy of this library: its ES module and
 * CommonJS builds, loaded side by side, are separate classes (instanceof
 * cannot see across them), and the ops of one must refuse the other's
 * tensors as FOREIGN_TENSOR, not read them as plain data. (A getter in the
 * class body: setting properties on the class or its prototype afterwards
 * made every call's `instanceof WasmTensor` slower.)
 */
export const TENSOR_MARK: unique symbol = Symbol.for('onnx-ops-wasm.WasmTensor');

/**
 * A tensor whose data lives in wasm memory. Ops given such tensors read and
 * write them in place, with no copy. Free it with dispose(). Frozen, and its
 * internals (backend, address, dims) are private fields: an assignment to its
 * fields (size, dtype, ...) cannot make a kernel read or write outside its
 * memory; a Proxy around it, or an object made from its prototype, has none
 * of them (WasmTensor.is tells; the ops refuse such look-alikes). Private
 * fields, not properties defined one by one: a tensor is then much cheaper
 * to make.
 */
export class WasmTensor {
  readonly #backend: TensorHost;
  #address: number; // -1 once disposed (the only field that changes)
  /**
   * What checkInput (check/input.ts) returns for it: the same for every call,
   * never modified. Its shape is a plain, unfrozen copy of `shape`: V8 reads
   * shapes more slowly where frozen and plain arrays meet.
   */
  readonly #checked: CheckedInput;
  readonly dtype: DType;
  readonly shape: readonly number[];
  /** Number of elements. */
  readonly size: number;
  readonly byteLength: number;

  /**
   * @internal — use ops.tensor(). `like`: a tensor whose shape is `shape`
   * itself (an op's result of an input's shape), whose shape arrays, never
   * modified, the new one shares rather than copies.
   */
  constructor(backend: TensorHost, dtype: DType, shape: readonly number[], size: number, address: number, like?: WasmTensor) {
    this.#backend = backend;
    this.#address = address;
    const info = DTYPE_INFO[dtype];
    this.#checked = { info, shape: like ? like.#checked.shape : [...shape], size, data: undefined, tensor: this, address, buffer: undefined };
    this.dtype = dtype;
    this.shape = like ? like.shape : Object.freeze([...shape]);
    this.size = size;
    this.byteLength = size * info.bytes;
    Object.freeze(this);
  }

  /**
   * @internal Whether x is a WasmTensor itself: `instanceof` also holds for a
   * Proxy around one (whose traps may forward the getters below to the real
   * tensor or lie) and for an object made from the prototype; neither has the
   * private fields.
   */
  static is(x: unknown): x is WasmTensor {
    return typeof x === 'object' && x !== null && #address in x;
  }

  /** @internal Whether x is a live WasmTensor of `backend` (one brand check, for every call's inputs). */
  static isLive(x: object, backend: TensorHost | undefined): boolean {
    return #address in x && x.#backend === backend && x.#address >= 0;
  }

  /** @internal Its backend (read only once WasmTensor.is(this) holds, or after assertLive). */
  get backend(): TensorHost {
    return this.#backend;
  }

  /** @internal Its address in wasm memory (-1 once disposed, and for a look-alike). */
  get address(): number {
    return #address in this ? this.#address : -1;
  }

  /** @internal Its input record (read only once WasmTensor.is(this) holds). */
  get [CHECKED](): CheckedInput {
    return this.#checked;
  }

  /**
   * A typed-array view of the tensor's wasm memory, made on every access (so
   * it is valid even after the memory grew). Writes to it change the tensor.
   * float16/bfloat16: Uint16Array of raw bits (float16: a Float16Array of them
   * under createOps({ float16Array: true })); int64/uint64: BigInt arrays.
   */
  get data(): TypedArray {
    this.assertLive('tensor');
    return this.backend.view(DTYPE_INFO[this.dtype], this.address, this.size);
  }

  get disposed(): boolean {
    return this.address < 0;
  }

  /** Frees the wasm memory. Using the tensor afterwards is a DISPOSED error. Idempotent. */
  dispose(): void {
    if (!(#address in this)) return; // a look-alike holds no memory
    if (this.#address > 0) this.#backend.free(this.#address);
    this.#address = -1;
  }

  /** dispose(), for `using t = ops.tensor(...)`. */
  [DISPOSE](): void {
    this.dispose();
  }

  /** A plain copy: `{ dtype, shape, data }` with a fresh typed array. */
  toPlain(): { dtype: DType; shape: number[]; data: TypedArray } {
    this.assertLive('tensor');
    return { dtype: this.dtype, shape: [...this.shape], data: this.backend.read(DTYPE_INFO[this.dtype], this.address, this.size) };
  }

  /** @internal The mark of a WasmTensor of any copy of this library. */
  get [TENSOR_MARK](): true {
    return true;
  }

  /** @internal */
  assertLive(op: string, input?: InputRef): void {
    if (this.address < 0) throw new OnnxOpsError('DISPOSED', op, input, 'the tensor was disposed');
  }
}
