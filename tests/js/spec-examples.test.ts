// Every example of the operator pages in ../shared/spec/, written out here.
import { type DType, type TypedArray, encodeBfloat16, encodeFloat16, DTYPE_INFO } from '../../js/src/index';
import { getOps, plain } from './helpers';

const ALL_NUMERIC: DType[] = ['float32', 'float64', 'float16', 'bfloat16', 'int8', 'int16', 'int32', 'int64',
  'uint8', 'uint16', 'uint32', 'uint64'];

/** A typed array of `dtype` holding `values` (float16/bfloat16 encoded to bits). */
function arr(dtype: DType, values: number[]): TypedArray {
  if (dtype === 'float16') return encodeFloat16(values);
  if (dtype === 'bfloat16') return encodeBfloat16(values);
  if (dtype === 'int64') return BigInt64Array.from(values.map(BigInt));
  if (dtype === 'uint64') return BigUint64Array.from(values.map(BigInt));
  const a = new DTYPE_INFO[dtype].array(values.length) as Float64Array;
  a.set(values);
  return a;
}
const t = (dtype: DType, shape: number[], values: number[]) => ({ dtype, shape, data: arr(dtype, values) });
const values = (d: ArrayLike<number | bigint>) => Array.from(d as ArrayLike<number>);

describe('Max spec examples', () => {
  const data0 = [3, 2, 1];
  const data1 = [1, 4, 4];
  const data2 = [2, 5, 3];

  test('test_max_example: three inputs', async () => {
    const ops = await getOps();
    const r = plain(ops.max([t('float32', [3], data0), t('float32', [3], data1), t('float32', [3], data2)]));
    expect(r.shape).toEqual([3]);
    expect(values(r.data)).toEqual([3, 5, 4]);
  });

  test('test_max_one_input', async () => {
    const ops = await getOps();
    const r = plain(ops.max([t('float32', [3], data0)]));
    expect(values(r.data)).toEqual(data0);
  });

  test('test_max_two_inputs: np.maximum', async () => {
    const ops = await getOps();
    const r = plain(ops.max([t('float32', [3], data0), t('float32', [3], data1)]));
    expect(values(r.data)).toEqual([3, 4, 4]);
  });

  test.each(ALL_NUMERIC)('_max_all_numeric_types: test_max_%s', async (dtype) => {
    const ops = await getOps();
    const r = plain(ops.max([t(dtype, [3], [3, 2, 1]), t(dtype, [3], [1, 4, 4])], { opset: 13 }));
    expect(r.dtype).toBe(dtype);
    expect(Array.from(r.data as ArrayLike<number | bigint>)).toEqual(Array.from(arr(dtype, [3, 4, 4]) as ArrayLike<number | bigint>));
  });
});

describe('Relu spec examples', () => {
  const cases: [string, DType, number[], number[], number[]][] = [
    ['test_cc_relu', 'float32', [2, 3], [-3, -1, 0, 1, 2, 3], [0, 0, 0, 1, 2, 3]],
    ['test_cc_relu_bfloat16', 'bfloat16', [2, 3], [-2, -0.5, 0, 0.5, 1.5, 3], [0, 0, 0, 0.5, 1.5, 3]],
    ['test_cc_relu_double', 'float64', [2, 3], [-2, -0.5, 0, 0.5, 1.5, 3], [0, 0, 0, 0.5, 1.5, 3]],
    ['test_cc_relu_example', 'float32', [3, 4, 5], new Array(60).fill(-1), new Array(60).fill(0)],
    ['test_cc_relu_float16', 'float16', [2, 3], [-3, -1, 0, 1, 2, 3], [0, 0, 0, 1, 2, 3]],
    ['test_cc_relu_int16', 'int16', [2, 3], [-500, -1, 0, 1, 300, 1000], [0, 0, 0, 1, 300, 1000]],
    ['test_cc_relu_int32', 'int32', [2, 3], [-100000, -1, 0, 1, 42, 100000], [0, 0, 0, 1, 42, 100000]],
    ['test_cc_relu_int64', 'int64', [2, 3], [-1000000000000, -1, 0, 1, 42, 1000000000000], [0, 0, 0, 1, 42, 1000000000000]],
    ['test_cc_relu_int8', 'int8', [2, 3], [-5, -1, 0, 1, 3, 127], [0, 0, 0, 1, 3, 127]],
  ];
  test.each(cases)('%s', async (_name, dtype, shape, input, expected) => {
    const ops = await getOps();
    const r = plain(ops.relu(t(dtype, shape, input), { opset: 14 }));
    expect(r.dtype).toBe(dtype);
    expect(r.shape).toEqual(shape);
    expect(Array.from(r.data as ArrayLike<number | bigint>)).toEqual(Array.from(arr(dtype, expected) as ArrayLike<number | bigint>));
  });
});
