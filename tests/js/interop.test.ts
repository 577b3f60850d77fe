// onnxruntime interop: toOrt() turns results, wasm tensors and tensor-likes into
// onnxruntime-common tensors ({ type, dims, data } or a real ort.Tensor), and
// ort.Tensors go into the ops as they are.
import { Tensor as OrtTensor } from 'onnxruntime-common';
import {
  DTYPES, DTYPE_INFO, type DType, OnnxOpsError, type OrtTensorData, type PlainTensorLike, type WasmTensor, createOps,
  encodeBfloat16, encodeFloat16, toOrt,
} from 'onnx-ops-wasm';
import { getOps, plain, thrown } from './helpers';

// TODO: drop once PlainTensorLike accepts ort.Tensor (its dispose() clashes with
// `{ dispose?: never }` in js/src/api/types.ts; `{ dtype?: never }` would not).
const ortIn = (t: OrtTensor): PlainTensorLike => t; // type-checks as an input as it is

const ORT_TYPES = ['float32', 'float64', 'float16', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64'];

describe('toOrt', () => {
  test('a plain result becomes { type, dims, data } with the same data (no copy)', async () => {
    const ops = await getOps();
    const r = plain(ops.max([
      { dtype: 'float32', shape: [2, 3], data: new Float32Array([1, 5, 3, 4, 2, 6]) },
      new Float32Array([2, 2, 2]),
    ]));
    const t = toOrt(r);
    expect(t).toEqual({ type: 'float32', dims: [2, 3], data: r.data });
    expect(t.data.buffer).toBe(r.data.buffer); // a view of the same bytes
    expect(t.data.byteOffset).toBe(r.data.byteOffset);
    expect(t.dims).not.toBe(r.shape);
    expect(Array.from(t.data as Float32Array)).toEqual([2, 5, 3, 4, 2, 6]);
  });

  test('every dtype but bfloat16 keeps its name, which is onnxruntime\'s', async () => {
    const ops = await getOps();
    for (const dtype of DTYPES) {
      if (dtype === 'bfloat16') continue;
      const data = new DTYPE_INFO[dtype].array(4);
      const t = toOrt(ops.max([{ dtype, shape: [2, 2], data }]));
      expect(ORT_TYPES).toContain(t.type);
      expect(t.type).toBe(dtype);
      expect(t.dims).toEqual([2, 2]);
      expect(t.data).toBeInstanceOf(DTYPE_INFO[dtype].array);
    }
  });

  test('a wasm tensor is copied out: the result outlives dispose() and memory growth', async () => {
    const ops = await createOps();
    const w = ops.tensor('int64', [3], new BigInt64Array([-5n, 0n, 2n ** 62n]));
    const r = ops.relu(w) as WasmTensor;
    const t = toOrt(r);
    r.dispose();
    w.dispose();
    ops.tensor('uint8', [64 << 20]).dispose(); // grows wasm memory, detaching old views
    expect(t.type).toBe('int64');
    expect(t.dims).toEqual([3]);
    expect(Array.from(t.data as BigInt64Array)).toEqual([0n, 0n, 2n ** 62n]);
    expect((t.data as BigInt64Array).buffer.byteLength).toBe(24);
  });

  test('bfloat16: DTYPE_NOT_ALLOWED by default, exact float32 widening on request', async () => {
    const ops = await getOps();
    const values = [1.5, -0, -2.75, Infinity, 3.3895313892515355e38, 9.183549615799121e-41];
    const r = plain(ops.relu({ dtype: 'bfloat16', shape: [2, 3], data: encodeBfloat16(values) }));
    const e = thrown(() => toOrt(r));
    expect(e).toBeInstanceOf(OnnxOpsError);
    expect(e.code).toBe('DTYPE_NOT_ALLOWED');
    expect(e.op).toBe('toOrt');
    expect(e.message).toContain('bfloat16');
    const t = toOrt(r, { bfloat16: 'float32' });
    expect(t.type).toBe('float32');
    expect(t.dims).toEqual([2, 3]);
    expect(Array.from(t.data as Float32Array)).toEqual([1.5, 0, 0, Infinity, 3.3895313892515355e38, 9.183549615799121e-41]);
    // NaN payloads and the sign bit survive bit for bit.
    const nan = new Uint16Array([0x7fc1, 0xff81, 0x8000]);
    const w = toOrt({ dtype: 'bfloat16', shape: [3], data: nan }, { bfloat16: 'float32' });
    expect(Array.from(new Uint32Array((w.data as Float32Array).buffer))).toEqual([0x7fc10000, 0xff810000, 0x80000000]);
  });

  test('float16 data is the Uint16Array of bits onnxruntime-common holds; a Float16Array is viewed as bits', async () => {
    const ops = await getOps();
    const bits = encodeFloat16([-1, 0.5, 65504]);
    const t = toOrt(ops.relu({ dtype: 'float16', shape: [3], data: bits }));
    expect(t.type).toBe('float16');
    expect(t.data).toBeInstanceOf(Uint16Array);
    expect(Array.from(t.data as Uint16Array)).toEqual([0, 0x3800, 0x7bff]);
    const F16 = (globalThis as { Float16Array?: new (a: number[]) => ArrayBufferView }).Float16Array;
    if (F16) {
      const f = toOrt(new F16([1, -2]) as never);
      expect(f.type).toBe('float16');
      expect(Array.from(f.data as Uint16Array)).toEqual([0x3c00, 0xc000]);
    }
  });

  test('tensor-likes of every form: { dtype, shape, data } with ONNX names and numbers, { type, dims, data }, typed arrays', () => {
    expect(toOrt({ dtype: 'double', shape: [], data: new Float64Array([7]) })).toEqual(
      { type: 'float64', dims: [], data: new Float64Array([7]) });
    expect(toOrt({ dtype: 6, shape: [1, 2], data: new Int32Array([1, 2]) }).type).toBe('int32');
    expect(toOrt({ type: 'uint8', dims: [2], data: new Uint8ClampedArray([3, 4]) })).toEqual(
      { type: 'uint8', dims: [2], data: new Uint8Array([3, 4]) });
    expect(toOrt(new Uint16Array([1, 2]))).toEqual({ type: 'uint16', dims: [2], data: new Uint16Array([1, 2]) });
  });

  test('bad arguments are OnnxOpsErrors', async () => {
    const ops = await getOps();
    expect(thrown(() => toOrt(null as never)).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => toOrt({ type: 'string', dims: [1], data: ['a'] })).code).toBe('UNKNOWN_DTYPE');
    expect(thrown(() => toOrt({ dtype: 'float32', shape: [3], data: new Float32Array(2) })).code).toBe('DATA_LENGTH');
    expect(thrown(() => toOrt(new Float32Array(1), { bfloat16: 'round' as never })).code).toBe('INVALID_ARGUMENT');
    expect(thrown(() => toOrt(new Float32Array(1), { Tensor: 3 as never })).code).toBe('INVALID_ARGUMENT');
    const w = ops.tensor('float32', [1]);
    w.dispose();
    expect(thrown(() => toOrt(w)).code).toBe('DISPOSED');
  });
});

describe('onnxruntime-common Tensor', () => {
  test('toOrt(x, { Tensor }) returns a real ort.Tensor with the values', async () => {
    const ops = await getOps();
    const r = ops.max([
      ortIn(new OrtTensor('float32', new Float32Array([1, 5, 3, 4, 2, 6]), [2, 3])),
      ortIn(new OrtTensor('float32', new Float32Array([2, 2, 2]), [3])),
    ]);
    const t = toOrt(r, { Tensor: OrtTensor });
    expect(t).toBeInstanceOf(OrtTensor);
    expect(t.type).toBe('float32');
    expect(t.dims).toEqual([2, 3]);
    expect(Array.from(t.data as Float32Array)).toEqual([2, 5, 3, 4, 2, 6]);
  });

  test('round trip through ort.Tensor for every onnxruntime type', async () => {
    const ops = await getOps();
    for (const dtype of DTYPES) {
      if (dtype === 'bfloat16') continue;
      const data = new DTYPE_INFO[dtype].array(6);
      for (let i = 0; i < 6; i++) {
        (data as unknown as (number | bigint)[])[i] = typeof data[0] === 'bigint' ? BigInt(i * 3 - 7) : (i * 3 - 7) & 0x7f;
      }
      const ort = toOrt({ dtype, shape: [3, 2], data }, { Tensor: OrtTensor });
      expect(ort.type).toBe(dtype);
      const back = plain(ops.max([ortIn(ort)], { opset: dtype.startsWith('float') ? 8 : 13 }));
      expect(back.dtype).toBe(dtype as DType);
      expect(back.shape).toEqual([3, 2]);
      expect(new Uint8Array(back.data.buffer)).toEqual(new Uint8Array(data.buffer));
    }
  });

  test('the plain form is what new ort.Tensor(type, data, dims) takes', () => {
    const t: OrtTensorData = toOrt(new Int8Array([-1, 2]));
    const o = new OrtTensor(t.type, t.data, t.dims);
    expect(o.type).toBe('int8');
    expect(Array.from(o.data as Int8Array)).toEqual([-1, 2]);
  });
});
