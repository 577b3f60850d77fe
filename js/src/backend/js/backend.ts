/**
 * JsBackend: the kernels in JavaScript (kernels.ts) behind the backend seam
 * (backend/backend.ts), for engines that cannot run the wasm module. A
 * tensor's storage is an ArrayBuffer of its own, named by an address this
 * backend hands out and never reuses; plain inputs are read where they are.
 *
 * This file is its own bundle (the js backend's, loaded only where it is
 * chosen), so it takes the classes whose identity the rest of the library
 * checks (WasmTensor, OnnxOpsError) from the core that loads it (lent.ts),
 * rather than carrying copies of its own.
 */
import type { WasmTensor } from '../../core/tensor.js';
import type { Result } from '../../core/types.js';
import type { Call } from '../../core/call.js';
import type { DTypeInfo, TypedArray, TypedArrayConstructor } from '../../dtypes.js';
import type { InputRef } from '../../errors.js';
import type { Lent } from '../../lent.js';
import type { Backend, MemoryStats } from '../backend.js';
import { MAX_ALLOCATION, presentData, shapeOwner } from '../shared.js';
import { type KernelOperand, opInto, type Storage } from './kernels.js';

/** As the wasm backends: all of an instance's tensors within 4 GiB (one below MAX_ALLOCATION), so errors and limits are the same. */
const MAX_MEMORY = 2 ** 32;

export class JsBackend implements Backend {
  readonly name = 'js';
  /** Tensors' views never detach: each tensor has its own buffer, which never grows. */
  readonly memoryBuffer = undefined;
  readonly #blocks = new Map<number, ArrayBuffer>();
  #next = 16;
  #liveBytes = 0;

  /** @param float16 the runtime's Float16Array under createOps({ float16Array: true }). */
  constructor(readonly core: Lent, readonly float16?: TypedArrayConstructor) {}

  run(call: Call): Result | WasmTensor {
    const { info, inputs, size } = call;
    const operands = new Array<KernelOperand>(inputs.length);
    const out = call.outTensor;
    const outBuffer = out && this.#blocks.get(out.address);
    for (let i = 0; i < inputs.length; i++) {
      const c = inputs[i];
      let buffer: ArrayBufferLike;
      let byteOffset = 0;
      if (c.tensor) {
        buffer = this.#blocks.get(c.address)!;
      } else {
        buffer = this.core.bufferOf(c.data!);
        byteOffset = this.core.byteOffsetOf(c.data!);
        // A plain view of the out tensor is read from a copy, as Max of three
        // or more stores results before it reads every input.
        if (buffer === outBuffer) {
          buffer = new Uint8Array(buffer, byteOffset, c.size * info.bytes).slice().buffer;
          byteOffset = 0;
        }
      }
      operands[i] = { buffer, byteOffset, length: c.size, shape: c.shape };
    }
    if (call.tensorResult) {
      const result = out ?? new this.core.WasmTensor(this, info.name, call.shape, size, this.alloc(size * info.bytes, call.op),
        shapeOwner(call));
      this.#compute(call, operands, this.#storage(result.address, size));
      return result;
    }
    const outArray = call.outArray;
    const target = outArray && !outArray.staged ? outArray.data : new info.array(size);
    this.#compute(call, operands, this.#plainStorage(target, size));
    if (outArray?.staged) this.core.copyInto(outArray.data, target);
    const data = (outArray?.given as TypedArray | undefined) ?? this.#present(info, target);
    return { dtype: info.name, shape: call.shape as number[], data };
  }

  #compute(call: Call, operands: readonly KernelOperand[], out: Storage): void {
    opInto(call.op, call.info.name, operands, call.shape, out);
  }

  #storage(address: number, length: number): Storage {
    return { buffer: this.#blocks.get(address)!, byteOffset: 0, length };
  }

  #plainStorage(data: TypedArray, length: number): Storage {
    return { buffer: this.core.bufferOf(data), byteOffset: this.core.byteOffsetOf(data), length };
  }

  #present(info: DTypeInfo, data: TypedArray): TypedArray {
    return presentData(this.float16, info, data);
  }

  alloc(bytes: number, op: string, input?: InputRef): number {
    const { OnnxOpsError } = this.core;
    if (bytes > MAX_ALLOCATION) {
      throw new OnnxOpsError('TOO_LARGE', op, input, `${bytes} bytes: one tensor is limited to ${MAX_ALLOCATION} bytes (2 GiB - 64 KiB)`);
    }
    let block: ArrayBuffer | undefined;
    if (this.#liveBytes + bytes <= MAX_MEMORY) {
      try {
        block = new ArrayBuffer(bytes);
      } catch {
        // The engine has no room: OUT_OF_MEMORY below.
      }
    }
    if (!block) {
      throw new OnnxOpsError('OUT_OF_MEMORY', op, input,
        `could not allocate ${bytes} bytes (a 4 GiB memory, as the wasm backends'; in use: ${this.#liveBytes} bytes)`);
    }
    const address = this.#next;
    this.#next += 16;
    this.#blocks.set(address, block);
    this.#liveBytes += bytes;
    return address;
  }

  free(address: number): void {
    const block = this.#blocks.get(address);
    if (!block) return;
    this.#blocks.delete(address);
    this.#liveBytes -= block.byteLength;
  }

  write(address: number, info: DTypeInfo, data: TypedArray): void {
    const block = this.#blocks.get(address)!;
    this.core.copyInto(new info.array(block, 0, block.byteLength / info.bytes), data);
  }

  zero(address: number, bytes: number): void {
    new Uint8Array(this.#blocks.get(address)!, 0, bytes).fill(0);
  }

  view(info: DTypeInfo, address: number, length: number): TypedArray {
    return this.#present(info, new info.array(this.#blocks.get(address)!, 0, length));
  }

  read(info: DTypeInfo, address: number, length: number): TypedArray {
    return this.#present(info, new info.array(this.#blocks.get(address)!, 0, length).slice());
  }

  memoryStats(): MemoryStats {
    const bytes = this.#liveBytes;
    return { heapInUse: bytes, liveAllocations: this.#blocks.size, liveBytes: bytes, memoryBytes: bytes };
  }

  trim(): void {
    // Nothing is kept between calls.
  }
}

