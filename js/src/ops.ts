/**
 * The operators: one function each, over the validated inputs (validate.ts)
 * and wasm memory (memory.ts).
 */
import {
  type DType, type DTypeInfo, DTYPE_INFO, type TypedArray, type TypedArrayConstructor, copyInto, dtypeInfo, standardView,
} from './dtypes.js';
import { OnnxOpsError, describe, showShape } from './errors.js';
import { DIMS, Heap, WasmTensor } from './memory.js';
import { type OpName, dtypesOfVersion, firstVersionWith, opVersion, supportedDtypes } from './opsets.js';
import { type Kernel, type Part, SCRATCH_BYTES, checkStatus, runPlain } from './plain.js';
import {
  type Checked, type PlainTensorLike, type Tensor, type TensorLike, broadcastChecked, checkFits, checkInput, checkOwnTensor,
  checkNotOtherCopys, checkPlainOut, checkShape, checkUnchanged, elementCount, isOwnLiveTensor, sameShape,
} from './validate.js';
import type { OnnxOpsModule } from './wasm/onnx-ops-wasm.js';

export interface OpOptions {
  /** The model's ai.onnx opset (integer >= 1). Default: the newest operator version. */
  opset?: number;
  /**
   * Where to write the result: a wasm tensor, or a typed array of the result's
   * dtype and size (for plain inputs). May be one of the inputs (in place).
   */
  out?: WasmTensor | ArrayBufferView;
}

/** A plain result: `{ dtype, shape, data }` with a fresh, caller-owned typed array. */
export type Result = Tensor & { shape: number[] };

/**
 * How many plain inputs one Max call takes; more are folded in groups of it.
 * Each input needs at least 16 bytes of the scratch block, and, beyond it,
 * wasm memory for its part of the call descriptor and the broadcast plan
 * (under 48 bytes per dim, up to the output's rank, and two more): a group
 * keeps that under the scratch block's size too, so a plain call grows wasm
 * memory by at most twice the block.
 */
function foldGroup(scratchLimit: number, rank: number): number {
  return Math.max(2, Math.floor(Math.min(scratchLimit / 64, scratchLimit / (48 * (rank + 2)))));
}

/** A placeholder for Ops.callDims' entries between calls. */
const NO_DIMS: readonly number[] = [];

/** Whether every input is plain data (no wasm tensor among them). */
function allPlain(checked: readonly Checked[]): boolean {
  for (let i = 0; i < checked.length; i++) if (checked[i].wasm) return false;
  return true;
}

export class Ops {
  /** @internal */ declare readonly heap: Heap;
  /** True when the loaded module runs wasm SIMD128 kernels. */
  readonly simd: boolean;
  /** @internal The dims of a Max call's inputs for maxGeneral (reused: no array per call). */
  declare private readonly callDims: (readonly number[])[];

  /** @internal — use createOps(). */
  constructor(module: OnnxOpsModule, scratchBytes = SCRATCH_BYTES, float16Array?: TypedArrayConstructor) {
    Object.defineProperty(this, 'heap', { value: new Heap(module, scratchBytes, float16Array) }); // not shown by console.log
    Object.defineProperty(this, 'callDims', { value: [] });
    this.simd = module._onnx_ops_simd() === 1;
  }

  /**
   * ONNX Max: the element-wise maximum of 1..N inputs of one dtype, with
   * numpy broadcasting from Max-8 on (before it, all shapes must be equal).
   */
  max(inputs: readonly PlainTensorLike[], options?: OpOptions & { out?: ArrayBufferView }): Result;
  max(inputs: readonly TensorLike[], options: OpOptions & { out: WasmTensor }): WasmTensor;
  max(inputs: readonly TensorLike[], options?: OpOptions): Result | WasmTensor;
  max(inputs: readonly TensorLike[], options: OpOptions = {}): Result | WasmTensor {
    const op = 'Max';
    if (!Array.isArray(inputs)) {
      throw new OnnxOpsError('INVALID_ARGUMENT', op, undefined, 'inputs must be an array of tensors: max([a, b, ...])');
    }
    const { version, out } = this.options(op, options);
    if (out === undefined || out instanceof WasmTensor) {
      const r = this.maxWasm(version, inputs, out);
      if (r) return r;
    }
    if (inputs.length === 0) throw new OnnxOpsError('ARITY', op, undefined, 'needs at least one input');
    const checked: Checked[] = [];
    for (let i = 0; i < inputs.length; i++) checked.push(checkInput(inputs[i], op, i, this.heap)); // holes too
    checkUnchanged(op, inputs, checked, out);
    const info = this.checkDtypes(op, version, checked);
    let shape: readonly number[];
    if (version < 8) {
      checked.forEach((c, i) => {
        if (!sameShape(c.shape, checked[0].shape)) {
          throw new OnnxOpsError('SHAPE_MISMATCH', op, i,
            `Max-${version} needs inputs of one shape (broadcasting comes with opset 8): ` +
            `${showShape(c.shape)} vs input 0's ${showShape(checked[0].shape)}`);
        }
      });
      shape = checked[0].shape;
    } else {
      shape = broadcastChecked(checked, op);
    }
    const size = shape === checked[0].shape ? checked[0].size : elementCount(shape);
    checkFits(info, shape, size, op);
    const group = foldGroup(this.heap.scratchLimit, shape.length);
    if (checked.length > group && !(out instanceof WasmTensor) && allPlain(checked)) {
      // More plain inputs than one call should take (see foldGroup): fold
      // them group by group (left to right, so the first NaN still wins), as
      // the already checked arrays (no caller code runs again), after `out`'s checks.
      const target = out === undefined ? undefined : checkPlainOut(op, info, shape, size, out, checked, this.heap).data;
      const part = (c: Checked): Tensor => ({ dtype: info.name, shape: c.shape, data: c.data! });
      const opset = { opset: version };
      let acc = this.max(checked.slice(0, group).map(part), opset);
      for (let i = group; i < checked.length; i += group - 1) {
        acc = this.max([acc, ...checked.slice(i, i + group - 1).map(part)], opset);
      }
      if (target === undefined) return acc;
      copyInto(target, standardView(acc.data, info.array)); // its bits: a Float16Array's values would be converted
      return { dtype: info.name, shape: [...shape], data: out as TypedArray };
    }
    return this.run(op, info, shape, size, checked, out, this.maxKernel);
  }

  /** ONNX Relu: max(0, x) element-wise, for one input. */
  relu(input: PlainTensorLike, options?: OpOptions & { out?: ArrayBufferView }): Result;
  relu(input: WasmTensor, options?: OpOptions): WasmTensor;
  relu(input: TensorLike, options: OpOptions & { out: WasmTensor }): WasmTensor;
  relu(input: TensorLike, options?: OpOptions): Result | WasmTensor;
  relu(input: TensorLike, options: OpOptions = {}): Result | WasmTensor {
    const op = 'Relu';
    if (Array.isArray(input)) {
      if (input.length !== 1) {
        throw new OnnxOpsError('ARITY', op, undefined, `takes exactly one input, got ${input.length}`);
      }
      input = input[0] as TensorLike;
    }
    if (input === undefined && arguments.length === 0) {
      throw new OnnxOpsError('ARITY', op, undefined, 'takes exactly one input, got none');
    }
    const { version, out } = this.options(op, options);
    if (out instanceof WasmTensor && this.reluWasm(version, input, out)) return out;
    const c = checkInput(input, op, 0, this.heap);
    if (out instanceof WasmTensor) out.assertLive(op, 'out'); // disposed by a getter of input (see max)
    const info = this.checkDtypes(op, version, [c]);
    return this.run(op, info, c.shape, c.size, [c], out, this.reluKernel);
  }

  /**
   * A tensor in wasm memory, zero-filled or holding a copy of `data`. Pass it
   * to ops (and as `out`) to work without copies; dispose() frees it.
   */
  tensor(dtype: DType | string | number, shape: readonly number[], data?: ArrayBufferView): WasmTensor {
    const op = 'tensor';
    const info = dtypeInfo(dtype, op, 0);
    const checked = data === undefined
      ? checkShape(shape, op, 0)
      : checkInput({ dtype: info.name, shape, data }, op, 0, this.heap);
    checkFits(info, checked.shape, checked.size, op, 0);
    const bytes = checked.size * info.bytes;
    const address = this.heap.alloc(bytes, op, 0);
    if ('data' in checked && checked.data) this.heap.write(address, info, checked.data);
    else this.heap.module.HEAPU8.fill(0, address, address + bytes);
    return new WasmTensor(this.heap, info.name, checked.shape, checked.size, address);
  }

  /** The dtypes an op accepts at an opset (default: the newest). */
  supportedDtypes(op: OpName, opset?: number): DType[] {
    return supportedDtypes(op, opset);
  }

  /**
   * Frees the blocks an instance keeps between calls (the plain path's
   * scratch, at most `scratchBytes`, and the call descriptor); later calls
   * make them again. Wasm memory itself never shrinks.
   */
  trimMemory(): void {
    this.heap.trim();
  }

  /** Bytes of wasm heap in use (malloc's count) and what this instance holds. */
  memoryStats(): { heapInUse: number; liveAllocations: number; liveBytes: number; memoryBytes: number } {
    return {
      heapInUse: this.heap.heapInUse(),
      liveAllocations: this.heap.liveAllocations,
      liveBytes: this.heap.liveBytes,
      memoryBytes: this.heap.module.HEAPU8.buffer.byteLength,
    };
  }

  /**
   * Max's zero-copy lane: a call whose inputs (and `out`, if given) are all
   * wasm tensors, run without the general path's per-input records, shape
   * logic and closures: it touches less of the JavaScript's own code and
   * objects, which a kernel that streamed much data has evicted from the
   * caches.
   * Taken when `out` passed options() or is absent, and the inputs, each a
   * live wasm tensor of this instance with the result's dtype (allowed at the
   * version) and none empty unless the result is, have descriptors that fit
   * the block the general path made (so that nothing is allocated for them
   * here). The result's dims are out's, or without `out` those of the first
   * input that is not rank 0. Inputs with those dims or rank 0 (at least one
   * with them) go to the flat kernel, as the general path sends them; other
   * shapes, from Max-8 on and with `out` only, to the general kernel, whose
   * plan checks them against out's dims before it writes anything. Returns
   * the result, or undefined, having written nothing, for any other call or
   * a plan's refusal: the general path then checks the call in full and
   * gives the error.
   */
  private maxWasm(version: number, inputs: readonly unknown[], out: WasmTensor | undefined): WasmTensor | undefined {
    const n = inputs.length;
    const { heap, callDims } = this;
    if (n === 0 || 2 * n > heap.descriptorWords) return undefined;
    let shaped = out; // the tensor whose dtype and dims the result has
    for (let i = 0; shaped === undefined && i < n; i++) {
      const x = inputs[i];
      if (!WasmTensor.is(x)) return undefined;
      if (x[DIMS].length > 0 || i === n - 1) shaped = x;
    }
    const dtype = shaped!.dtype;
    if (!dtypesOfVersion('Max', version).includes(dtype)) return undefined;
    const info = DTYPE_INFO[dtype];
    const dims = shaped![DIMS];
    const size = shaped!.size;
    // Each input read once more, checked: the flat descriptor (bindings.cpp)
    // written as it goes, its dims kept for the general one.
    const w = heap.descriptor(2 * n, 'Max');
    let flat = true; // every input has the result's dims or rank 0
    let full = false; // one has them
    let words = 2 * n + 4 + dims.length; // the flat descriptor, then the general one
    for (let i = 0; i < n; i++) {
      const x = inputs[i];
      if (!isOwnLiveTensor(x, heap) || x.dtype !== dtype || (x.size === 0 && size > 0)) return undefined;
      const d = x[DIMS];
      if (sameShape(d, dims)) full = true;
      else if (version < 8) return undefined;
      else if (d.length !== 0) flat = false;
      w[2 * i] = x.address;
      w[2 * i + 1] = x.size === size ? 0 : 1;
      words += 2 + d.length;
      callDims[i] = d; // by index: emptying the array each call would free its storage
    }
    if (flat) {
      if (!full || words > heap.descriptorWords) return undefined;
      const result = out ?? new WasmTensor(heap, dtype, dims, size, heap.alloc(size * info.bytes, 'Max'));
      if (size > 0) {
        const status = this.maxGeneral(info.onnx, n, result.address, dims, words);
        if (status !== 0 && !out) result.dispose();
        checkStatus('Max', status);
      }
      return result;
    }
    if (!out || size === 0 || words > heap.descriptorWords) return undefined;
    return this.maxGeneral(info.onnx, n, out.address, dims, words) === 0 ? out : undefined;
  }

  /**
   * Relu's zero-copy lane (as maxWasm): a live wasm tensor of this instance
   * into `out` of its dtype (allowed at the version) and dims, run at once;
   * any other call returns false, for the general path to check in full.
   */
  private reluWasm(version: number, x: unknown, out: WasmTensor): boolean {
    const { heap } = this;
    const dtype = out.dtype;
    if (!isOwnLiveTensor(x, heap) || x.dtype !== dtype || !sameShape(x[DIMS], out[DIMS]) ||
      !dtypesOfVersion('Relu', version).includes(dtype)) return false;
    if (x.size > 0) checkStatus('Relu', this.reluCall(DTYPE_INFO[dtype].onnx, x.address, out.address, x.size));
    return true;
  }

  // ---- kernels (see Kernel in plain.ts) ---------------------------------------

  private readonly maxKernel: Kernel = (info, parts, addresses, outShape, outAddress, n) => {
    const module = this.heap.module;
    // Index loops: for-of was measurably slower where arrays of several
    // kinds (frozen, packed, holey) met here.
    const count = parts.length;
    let words = 2 * count + 4 + outShape.length;
    for (let i = 0; i < count; i++) words += 2 + parts[i].shape.length;
    const w = this.heap.descriptor(words, 'Max');
    const { callDims } = this;
    for (let i = 0; i < count; i++) {
      w[2 * i] = addresses[i];
      callDims[i] = parts[i].shape;
    }
    const status = this.maxGeneral(info.onnx, count, outAddress, outShape, words);
    for (let i = 0; i < count; i++) callDims[i] = NO_DIMS; // keeps no caller's shape
    return status;
  };

  /**
   * Max through the general kernel: input i's address at word 2i of the
   * descriptor block and its dims at callDims[i]; the kernel's descriptor
   * (bindings.cpp) goes after them, in a block already of at least `words`
   * words (2 per input, 4, out's rank, and 2 and the rank per input). Returns
   * the status: the kernel's plan checks the shapes against out's before it
   * writes anything.
   */
  private maxGeneral(onnx: number, n: number, outAddress: number, outDims: readonly number[], words: number): number {
    const { heap, callDims } = this;
    const w = heap.descriptor(words, 'Max');
    let p = 2 * n;
    w[p++] = onnx;
    w[p++] = n;
    w[p++] = outAddress;
    w[p++] = outDims.length;
    for (let k = 0; k < outDims.length; k++) w[p++] = outDims[k];
    for (let i = 0; i < n; i++) {
      const d = callDims[i];
      w[p++] = w[2 * i];
      w[p++] = d.length;
      for (let k = 0; k < d.length; k++) w[p++] = d[k];
    }
    return heap.module._onnx_ops_max(heap.descriptorAddress + 8 * n);
  }

  private readonly reluKernel: Kernel = (info, _parts, addresses, _outShape, outAddress, size) =>
    this.reluCall(info.onnx, addresses[0], outAddress, size);

  /** Relu through its descriptor (bindings.cpp): one input and the output, both of `size` elements. */
  private reluCall(onnx: number, x: number, out: number, size: number): number {
    const heap = this.heap;
    const w = heap.descriptor(8, 'Relu');
    w[0] = onnx;
    w[1] = 1;
    w[2] = out;
    w[3] = 1;
    w[4] = size;
    w[5] = x;
    w[6] = 1;
    w[7] = size;
    return heap.module._onnx_ops_relu(heap.descriptorAddress);
  }

  // ---- shared steps ----------------------------------------------------------

  private options(op: OpName, options: OpOptions): { version: number; out?: WasmTensor | ArrayBufferView } {
    if (options === null || typeof options !== 'object') {
      throw new OnnxOpsError('INVALID_ARGUMENT', op, undefined, 'options must be an object: { opset?, out? }');
    }
    const version = opVersion(op, options.opset);
    const out = options.out;
    if (out !== undefined) {
      if (!(out instanceof WasmTensor)) {
        if (ArrayBuffer.isView(out) && !(out instanceof DataView)) return { version, out };
        if (typeof out === 'object' && out !== null) checkNotOtherCopys(out, op, 'out');
        throw new OnnxOpsError('INVALID_ARGUMENT', op, 'out',
          `out must be a tensor from ops.tensor() or a typed array, got ${describe(out)}`);
      }
      checkOwnTensor(out, op, 'out', this.heap);
    }
    return { version, out };
  }

  private checkDtypes(op: OpName, version: number, checked: readonly Checked[]): DTypeInfo {
    const info = checked[0].info;
    const dtype = info.name;
    for (let i = 1; i < checked.length; i++) {
      if (checked[i].info !== info) {
        throw new OnnxOpsError('DTYPE_MISMATCH', op, i,
          `dtype ${checked[i].info.name} differs from input 0's ${dtype} (all inputs must share one dtype)`);
      }
    }
    const allowed = dtypesOfVersion(op, version);
    if (!allowed.includes(dtype)) {
      const since = firstVersionWith(op, dtype);
      throw new OnnxOpsError('DTYPE_NOT_ALLOWED', op, 0,
        `dtype ${dtype} is not allowed by ${op}-${version} (allowed: ${allowed.join(', ')}` +
        `${since === undefined ? `; ${op} never takes ${dtype}` : `; ${dtype} needs opset >= ${since}`})`);
    }
    return info;
  }

  /**
   * Runs the kernel and returns the result in the form the caller gave: the
   * `out` tensor or array, a new wasm tensor when any input was one, else a
   * plain tensor. Plain inputs with a plain (or no) output take the bounded
   * plain path (plain.ts); otherwise plain inputs are copied into temporary
   * wasm memory. Temporary memory is freed on every path, errors included.
   */
  private run(op: OpName, info: DTypeInfo, shape: readonly number[], size: number, checked: readonly Checked[],
    out: WasmTensor | ArrayBufferView | undefined, kernel: Kernel): Result | WasmTensor {
    const dtype = info.name;
    if (!(out instanceof WasmTensor) && allPlain(checked)) {
      const target = out === undefined ? undefined : checkPlainOut(op, info, shape, size, out, checked, this.heap);
      // All plain: each input's data is set. Staged: computed into a fresh array.
      const data = runPlain(this.heap, kernel, info, op, checked as readonly Part[], shape,
        target === undefined || target.staged ? undefined : target.data);
      if (target?.staged) copyInto(target.data, data);
      // The shape: plain inputs' shapes are this call's own copies (validate.ts), never seen by the caller.
      return { dtype, shape: shape as number[], data: (out as TypedArray | undefined) ?? this.heap.present(info, data) }; // the caller's own array
    }
    if (out !== undefined && !(out instanceof WasmTensor)) {
      throw new OnnxOpsError('INVALID_ARGUMENT', op, 'out', 'a typed array out goes with plain inputs only; use a wasm tensor');
    }
    const bytes = size * info.bytes;
    if (out) this.checkOut(op, dtype, shape, out);
    const temps: number[] = [];
    let outAddress = 0;
    try {
      const addresses = checked.map((c, i) => {
        if (c.wasm) return c.wasm.address;
        const a = this.heap.alloc(c.size * info.bytes, op, i);
        temps.push(a);
        this.heap.write(a, info, c.data!);
        return a;
      });
      outAddress = out ? out.address : this.heap.alloc(bytes, op);
      if (size > 0) {
        checkStatus(op, kernel(info, checked, addresses, shape, outAddress, size));
      }
      return out ?? new WasmTensor(this.heap, dtype, shape, size, outAddress);
    } catch (e) {
      if (!out && outAddress !== 0) this.heap.free(outAddress);
      throw e;
    } finally {
      for (const a of temps) this.heap.free(a);
    }
  }

  private checkOut(op: OpName, dtype: DType, shape: readonly number[], out: WasmTensor): void {
    if (out.dtype !== dtype || !sameShape(out[DIMS], shape)) {
      throw new OnnxOpsError('OUT_MISMATCH', op, 'out',
        `out is ${out.dtype} ${showShape(out.shape)} but the result is ${dtype} ${showShape(shape)}`);
    }
    // Each wasm tensor is its own allocation, so out can only overlap an
    // input by being that input, which then has the output's shape: in place.
  }
}
