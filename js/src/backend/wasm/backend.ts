/**
 * WasmBackend: the module's kernels in wasm memory, behind the backend seam
 * (backend/backend.ts). A checked call (call.ts) runs with wasm tensors,
 * where the result is a wasm tensor, or on the plain path (plain.ts), where
 * it is a fresh array or the caller's `out`. Temporary memory is freed on
 * every path, errors included.
 */
import { type TypedArray, type TypedArrayConstructor, type DTypeInfo, copyInto } from '../../dtypes.js';
import type { InputRef } from '../../errors.js';
import { WasmTensor } from '../../core/tensor.js';
import type { Result } from '../../core/types.js';
import type { Call } from '../../core/call.js';
import { broadcastChecked, elementCount } from '../../core/shape.js';
import type { OnnxOpsModule } from '../../wasm/onnx-ops-wasm.js';
import type { Backend, BackendName, MemoryStats } from '../backend.js';
import { presentData, shapeOwner } from '../shared.js';
import { DescriptorBlock, type Operand } from './descriptor.js';
import { WasmMemory } from './memory.js';
import { type Part, PlainPath } from './plain.js';

export class WasmBackend implements Backend {
  /** 'wasm-simd' or 'wasm', as the module says it was built. */
  readonly name: BackendName;
  readonly #memory: WasmMemory;
  readonly #descriptor: DescriptorBlock;
  readonly #plain: PlainPath;
  readonly #float16: TypedArrayConstructor | undefined;

  /**
   * @param scratchLimit bytes the plain path may hold for one call (see PlainPath).
   * @param float16 the runtime's Float16Array under createOps({ float16Array: true }).
   */
  constructor(readonly module: OnnxOpsModule, scratchLimit: number, float16?: TypedArrayConstructor) {
    const memory = this.#memory = new WasmMemory(module);
    this.#descriptor = new DescriptorBlock(memory);
    this.#plain = new PlainPath(memory, this.#descriptor, scratchLimit);
    this.#float16 = float16;
    this.name = memory.exports.simd() === 1 ? 'wasm-simd' : 'wasm';
  }

  get memoryBuffer(): ArrayBufferLike {
    return this.#memory.buffer;
  }

  run(call: Call): Result | WasmTensor {
    if (!call.tensorResult) return this.#runPlain(call);
    const out = call.outTensor;
    if (!call.allTensors || !out) return this.#runWithTensors(call);
    // Wasm tensors into a wasm tensor: nothing to allocate or free.
    if (call.size > 0) this.#descriptor.callOp(call, call.inputs, call.shape, out.address, call.id);
    return out;
  }

  /**
   * Wasm tensors are used where they are; plain inputs are copied into
   * temporary wasm memory; the result is `out` or a new wasm tensor.
   */
  #runWithTensors(call: Call): WasmTensor {
    const { op, info, inputs } = call;
    const memory = this.#memory;
    const out = call.outTensor;
    let operands: Operand[] | undefined; // the inputs as operands, once one is plain
    let result = out;
    try {
      for (let i = 0; i < inputs.length; i++) {
        const c = inputs[i];
        if (c.tensor && !operands) continue;
        operands ??= inputs.slice(0, i);
        if (c.tensor) {
          operands.push(c);
        } else {
          const address = memory.alloc(c.size * info.bytes, op, i);
          operands.push({ shape: c.shape, address });
          memory.write(address, info, c.data!);
        }
      }
      result ??= new WasmTensor(this, info.name, call.shape, call.size, memory.alloc(call.size * info.bytes, op), shapeOwner(call));
      if (call.size > 0) this.#descriptor.callOp(call, operands ?? inputs, call.shape, result.address);
      return result;
    } catch (e) {
      if (!out) result?.dispose();
      throw e;
    } finally {
      for (let i = 0; operands && i < operands.length; i++) if (!inputs[i].tensor) memory.free(operands[i].address);
    }
  }

  /** Plain inputs, a plain result: through the scratch block (plain.ts). */
  #runPlain(call: Call): Result {
    const plain = this.#plain;
    const { info, outArray, inputs } = call; // all plain: each has its data
    const target = outArray?.data;
    const group = foldGroup(plain.scratchLimit, call.shape.length);
    let data: TypedArray;
    if (inputs.length <= group) {
      data = plain.run(call, inputs, call.shape, outArray?.staged ? undefined : target);
    } else {
      // Group by group, left to right (so the first NaN still wins), each
      // group's result the first input of the next.
      const fold = (parts: readonly Part[]): Part & { data: TypedArray } => {
        const shape = broadcastChecked(call, parts);
        return { data: plain.run(call, parts, shape), shape, size: elementCount(shape) };
      };
      let acc = fold(inputs.slice(0, group));
      for (let i = group; i < inputs.length; i += group - 1) acc = fold([acc, ...inputs.slice(i, i + group - 1)]);
      data = acc.data;
    }
    if (target && data !== target) copyInto(target, data); // staged or folded
    // The shape: plain inputs' shapes are this call's own copies (check/input.ts), never seen by the caller.
    return { dtype: info.name, shape: call.shape as number[], data: (outArray?.given as TypedArray | undefined) ?? this.#present(info, data) };
  }

  #present(info: DTypeInfo, data: TypedArray): TypedArray {
    return presentData(this.#float16, info, data);
  }

  alloc(bytes: number, op: string, input?: InputRef): number {
    return this.#memory.alloc(bytes, op, input);
  }

  free(address: number): void {
    this.#memory.free(address);
  }

  write(address: number, info: DTypeInfo, data: TypedArray): void {
    this.#memory.write(address, info, data);
  }

  zero(address: number, bytes: number): void {
    this.module.HEAPU8.fill(0, address, address + bytes);
  }

  view(info: DTypeInfo, address: number, length: number): TypedArray {
    return this.#present(info, new info.array(this.#memory.buffer, address, length));
  }

  read(info: DTypeInfo, address: number, length: number): TypedArray {
    return this.#present(info, this.#memory.read(info, address, length));
  }

  memoryStats(): MemoryStats {
    const memory = this.#memory;
    return {
      heapInUse: memory.heapInUse(),
      liveAllocations: memory.liveAllocations,
      liveBytes: memory.liveBytes,
      memoryBytes: this.module.HEAPU8.buffer.byteLength,
    };
  }

  trim(): void {
    this.#descriptor.release();
    this.#plain.release();
  }
}

/**
 * How many plain inputs one Max call takes; more are folded in groups of it.
 * Each input needs at least 16 bytes of the scratch block, and, beyond it,
 * wasm memory for its part of the call descriptor (under 48 bytes per dim,
 * up to the output's rank, and two more): a group keeps that under the
 * scratch block's size too, so a plain call grows wasm memory by at most
 * twice the block.
 */
const foldGroup = (scratchLimit: number, rank: number): number =>
  Math.max(2, Math.floor(Math.min(scratchLimit / 64, scratchLimit / (48 * (rank + 2)))));
