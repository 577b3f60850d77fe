// The check every environment of the package tests (consumers.mjs) and the
// hosts of tests/hosts/run.mjs runs, and its values: a module of its own that
// imports nothing, so that the hosts' child processes load no browser driver.
// Serialised into each consumer (check.toString()): it uses nothing but `lib`,
// the package's module namespace, and createOps()'s `options` (a backend forced).
export async function check(lib, options) {
  const ops = await lib.createOps(options);
  const max = ops.max([
    { dtype: 'float32', shape: [2, 3], data: new Float32Array([1, 5, 3, 4, 2, 6]) },
    new Float32Array([2, 2, 2]), // [3] broadcast over [2,3]
    { type: 'float32', dims: [], data: new Float32Array([1.5]) }, // onnxruntime-style scalar
  ]);
  const maxInt64 = ops.max([
    { dtype: 7, shape: [2, 1], data: new BigInt64Array([-5n, 9n]) }, // TensorProto 7 = int64
    new BigInt64Array([1n, 2n, 3n]),
  ]);
  const relu = ops.relu({ dtype: 'int32', shape: [4], data: new Int32Array([-3, 0, 2, -1]) }, { opset: 14 });
  const reluF16 = ops.relu({ dtype: 'float16', shape: [2, 2], data: lib.encodeFloat16([-1, 0.5, -0, 2]) });
  const w = ops.tensor('float32', [3], new Float32Array([-1, 0, 7]));
  ops.relu(w, { out: w });
  const inPlace = Array.from(w.data);
  w.dispose();
  let error;
  try {
    ops.max([new Float32Array(2), new Float32Array(3)]);
  } catch (e) {
    error = `${e instanceof lib.OnnxOpsError} ${e.code}`;
  }
  const ort = lib.toOrt(max);
  return {
    max: { shape: max.shape, data: Array.from(max.data) },
    maxInt64: { shape: maxInt64.shape, data: Array.from(maxInt64.data, String) },
    relu: { shape: relu.shape, data: Array.from(relu.data) },
    reluF16: { shape: reluF16.shape, data: Array.from(lib.decodeFloat16(reluF16.data)) },
    inPlace,
    error,
    ort: { type: ort.type, dims: ort.dims },
    simd: ops.simd,
    backend: ops.backend,
  };
}

export const EXPECTED = {
  max: { shape: [2, 3], data: [2, 5, 3, 4, 2, 6] },
  maxInt64: { shape: [2, 3], data: ['1', '2', '3', '9', '9', '9'] },
  relu: { shape: [4], data: [0, 0, 2, 0] },
  reluF16: { shape: [2, 2], data: [0, 0.5, 0, 2] },
  inPlace: [0, 0, 7],
  error: 'true BROADCAST_MISMATCH',
  ort: { type: 'float32', dims: [2, 3] },
  simd: true,
  backend: 'wasm-simd',
};

