// Every example of the operator pages in ../shared/spec/ (Max.txt, Relu.txt), written out here.
import { type Case, type Lib, type Ops, eq, sameBits, bytesOf } from '../harness';
import { type DType, DTYPES, DTYPE_INFO, arrayOf } from '../reference';

const t = (dtype: DType, shape: number[], values: number[]) => ({ dtype, shape, data: arrayOf(dtype, values) });

function expectResult(r: unknown, dtype: DType, shape: number[], values: number[], what: string): void {
  const res = r as { dtype: string; shape: number[]; data: ArrayBufferView };
  eq(res.dtype, dtype, `${what}: dtype`);
  eq(res.shape, shape, `${what}: shape`);
  sameBits(res.data, bytesOf(arrayOf(dtype, values)), DTYPE_INFO[dtype].bytes, `${what}: data`);
}

export function specCases(lib: Lib, ops: () => Promise<Ops>): Case[] {
  void lib;
  const d0 = [3, 2, 1];
  const d1 = [1, 4, 4];
  const d2 = [2, 5, 3];
  const cases: Case[] = [
    { name: 'spec Max: test_max_example (three inputs)', run: async () => {
      expectResult(await (await ops()).max([t('float32', [3], d0), t('float32', [3], d1), t('float32', [3], d2)]), 'float32', [3], [3, 5, 4], 'max');
    } },
    { name: 'spec Max: test_max_one_input', run: async () => {
      expectResult(await (await ops()).max([t('float32', [3], d0)]), 'float32', [3], d0, 'max');
    } },
    { name: 'spec Max: test_max_two_inputs', run: async () => {
      expectResult(await (await ops()).max([t('float32', [3], d0), t('float32', [3], d1)]), 'float32', [3], [3, 4, 4], 'max');
    } },
    ...DTYPES.map((dtype): Case => ({ name: `spec Max: test_max_${dtype} (_max_all_numeric_types, opset 13)`, run: async () => {
      expectResult(await (await ops()).max([t(dtype, [3], d0), t(dtype, [3], d1)], { opset: 13 }), dtype, [3], [3, 4, 4], 'max');
    } })),
  ];
  const relu: [string, DType, number[], number[], number[]][] = [
    ['test_cc_relu', 'float32', [2, 3], [-3, -1, 0, 1, 2, 3], [0, 0, 0, 1, 2, 3]],
    ['test_cc_relu_bfloat16', 'bfloat16', [2, 3], [-2, -0.5, 0, 0.5, 1.5, 3], [0, 0, 0, 0.5, 1.5, 3]],
    ['test_cc_relu_double', 'float64', [2, 3], [-2, -0.5, 0, 0.5, 1.5, 3], [0, 0, 0, 0.5, 1.5, 3]],
    ['test_cc_relu_example', 'float32', [3, 4, 5], new Array(60).fill(-1), new Array(60).fill(0)],
    ['test_cc_relu_float16', 'float16', [2, 3], [-3, -1, 0, 1, 2, 3], [0, 0, 0, 1, 2, 3]],
    ['test_cc_relu_int16', 'int16', [2, 3], [-500, -1, 0, 1, 300, 1000], [0, 0, 0, 1, 300, 1000]],
    ['test_cc_relu_int32', 'int32', [2, 3], [-100000, -1, 0, 1, 42, 100000], [0, 0, 0, 1, 42, 100000]],
    ['test_cc_relu_int64', 'int64', [2, 3], [-1e12, -1, 0, 1, 42, 1e12], [0, 0, 0, 1, 42, 1e12]],
    ['test_cc_relu_int8', 'int8', [2, 3], [-5, -1, 0, 1, 3, 127], [0, 0, 0, 1, 3, 127]],
  ];
  for (const [name, dtype, shape, x, y] of relu) {
    cases.push({ name: `spec Relu: ${name} (opset 14)`, run: async () => {
      expectResult(await (await ops()).relu(t(dtype, shape, x), { opset: 14 }), dtype, shape, y, 'relu');
    } });
  }
  return cases;
}
