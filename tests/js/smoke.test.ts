import { createOps } from 'onnx-ops-wasm';

test('smoke', async () => {
  const ops = await createOps();
  const r = ops.relu({ dtype: 'float32', shape: [2, 3], data: new Float32Array([-3, -1, 0, 1, 2, 3]) });
  expect(Array.from(r.data as Float32Array)).toEqual([0, 0, 0, 1, 2, 3]);
  const m = ops.max([new Float32Array([1, 5, 3]), { dtype: 'float32', shape: [], data: new Float32Array([2]) }]);
  expect(Array.from(m.data as Float32Array)).toEqual([2, 5, 3]);
  expect(ops.simd).toBe(true);
});
