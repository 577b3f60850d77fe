// The hostile suite (hostile-helpers.ts), look-alikes: what passes for one of
// this instance's wasm tensors without being one: another copy's tensors, a
// Proxy around a tensor, an object made from its prototype.
import { WasmTensor, createOps, toOrt } from 'onnx-ops-wasm';
import { type Any, expectOnnxError, ops, useSharedInstances } from './hostile-helpers';

useSharedInstances();

describe('another copy of the library (its other build, loaded beside this one)', () => {
  test('its tensors are FOREIGN_TENSOR as inputs and as out, not read as plain data', async () => {
    let copy: Any;
    jest.isolateModules(() => {
      copy = require('onnx-ops-wasm'); // eslint-disable-line @typescript-eslint/no-require-imports
    });
    expect(copy.WasmTensor).not.toBe(WasmTensor);
    const theirs = await copy.createOps();
    const t = theirs.tensor('float32', [2], new Float32Array([-1, 3]));
    try {
      expect(expectOnnxError(() => ops.relu(t), 'FOREIGN_TENSOR').input).toBe(0);
      expect(expectOnnxError(() => ops.max([new Float32Array(2), t]), 'FOREIGN_TENSOR').input).toBe(1);
      expect(expectOnnxError(() => ops.relu(new Float32Array(2), { out: t }), 'FOREIGN_TENSOR').input).toBe('out');
      expect(Array.from(t.data as Float32Array)).toEqual([-1, 3]);
    } finally {
      t.dispose();
    }
  });
});

describe('look-alikes of a wasm tensor', () => {
  // WasmTensor keeps its heap, address and dims in private fields: a Proxy
  // around a real tensor, or an object made from its prototype, passes
  // `instanceof` but has none of them. Before, a Proxy could report any
  // address or shape and the kernels wrote where it said.
  test('a Proxy around a tensor, or an object from its prototype, is INVALID_ARGUMENT as input and as out; nothing freed or written', async () => {
    const o = await createOps();
    const t = o.tensor('float32', [3], new Float32Array([1, -2, 3]));
    const out = o.tensor('float32', [3]);
    expect(o.max([t, t], { out })).toBe(out); // makes the descriptor block
    (out.data as Float32Array).fill(0);
    const base = o.memoryStats();
    const lying = new Proxy(t, {
      get: (target, key) => (key === 'address' ? 8 : key === 'size' ? 1e6 : Reflect.get(target, key, target)),
    });
    const fakes: Any[] = [new Proxy(t, {}), lying, Object.create(WasmTensor.prototype)];
    for (const f of fakes) {
      expect(f instanceof WasmTensor).toBe(true);
      for (const call of [
        () => o.max([t, f], { out }), () => o.max([f, t], { out }), () => o.max([f]), () => o.relu(f), () => o.relu(f, { out }),
        () => o.max([t, t], { out: f }), () => o.relu(t, { out: f }), () => o.max([new Float32Array(3)], { out: f }),
        () => toOrt(f),
      ]) {
        const e = expectOnnxError(call, 'INVALID_ARGUMENT');
        expect(e.message).toMatch(/not a tensor from ops\.tensor\(\)/);
      }
      f.dispose(); // frees nothing (a look-alike holds no memory), nor the tensor behind a Proxy
      expect(o.memoryStats()).toEqual(base);
      expect(t.disposed).toBe(false);
    }
    expect(Array.from(out.data as Float32Array)).toEqual([0, 0, 0]);
    expect(Array.from(t.data as Float32Array)).toEqual([1, -2, 3]); // the real tensor is intact and live
    expect(o.relu(t, { out })).toBe(out);
    expect(Array.from(out.data as Float32Array)).toEqual([1, 0, 3]);
    t.dispose();
    out.dispose();
    expect(o.memoryStats().liveAllocations).toBe(0);
  });
});
