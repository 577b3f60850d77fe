/**
 * The ops of an instance over its backend, whatever the backend's answers:
 * each op's call record, which a call takes (prepare fills it, the backend
 * runs it, done() empties it), and making a tensor. Ops (ops.ts) is this over
 * a sync backend; the worker form's WorkerOps (worker/) is this over its
 * RemoteBackend, whose answers are Promises.
 */
import { type DType, dtypeInfo } from '../dtypes.js';
import type { Backend } from '../backend/backend.js';
import { Call } from '../core/call.js';
import { OP_NAMES, type OpName } from '../core/spec.js';
import { WasmTensor } from '../core/tensor.js';
import { checkInput } from '../check/input.js';
import { checkFits, checkShape } from '../check/shape.js';

/** @internal */
export class OpsCore<Async extends boolean = false> {
  /** Each op's call record (call.ts): of the call being made, or kept from the last one. */
  readonly calls: Readonly<Record<OpName, Call>>;
  /** Calls in progress on this instance: more than one when a getter of a call's arguments makes another. */
  #depth = 0;

  /** @param impl the backend the instance runs on, the only thing it calls to run a call or to hold a tensor. */
  constructor(readonly impl: Backend<Async>) {
    const calls = {} as Record<OpName, Call>;
    for (const op of OP_NAMES) calls[op] = new Call(impl, op);
    this.calls = calls;
  }

  /** The record a call fills: the op's own (`own`), or for a call made within another, a new one. */
  take(own: Call): Call {
    return this.#depth++ === 0 ? own : new Call(this.impl, own.op);
  }

  /** The call in record `p` is over. */
  done(p: Call): void {
    this.#depth--;
    p.clear();
  }

  /** ops.tensor(): its checks, then storage for it from the backend. */
  tensor(dtype: DType | string | number, shape: readonly number[], data?: ArrayBufferView): WasmTensor {
    const impl = this.impl;
    const scope = { op: 'tensor', owner: impl };
    const info = dtypeInfo(dtype, scope.op, 0);
    const checked = data === undefined
      ? checkShape(scope, shape, 0)
      : checkInput(scope, { dtype: info.name, shape, data }, 0);
    checkFits(scope, info, checked.shape, checked.size, 0);
    const bytes = checked.size * info.bytes;
    const address = impl.alloc(bytes, scope.op, 0);
    if ('data' in checked && checked.data) impl.write(address, info, checked.data);
    else impl.zero(address, bytes);
    return new WasmTensor(impl, info.name, checked.shape, checked.size, address);
  }
}
