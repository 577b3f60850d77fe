// Every case of the official ONNX backend node tests for Max and Relu, from
// ../shared/conformance/onnx-backend-node.json. CI always has that folder;
// elsewhere, when it is missing, the suite says so and is reported as skipped
// (and fails under CI=true).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DType, DTYPE_INFO, type TypedArray, opVersion, toDType } from '../../js/src/index';
import { bytesOf } from './reference';
import { getOps, plain } from './helpers';

const FILE = join(__dirname, '..', '..', '..', 'shared', 'conformance', 'onnx-backend-node.json');

interface JsonTensor { dtype: string; shape: number[]; data: unknown[]; bits?: number[] }
interface Case { name: string; op: 'Max' | 'Relu'; opset: number; opVersion: number; inputs: JsonTensor[]; output: JsonTensor }

function decode(t: JsonTensor): { dtype: DType; shape: number[]; data: TypedArray } {
  const dtype = toDType(t.dtype);
  const A = DTYPE_INFO[dtype].array;
  const n = t.shape.reduce((a, b) => a * b, 1);
  const data = new A(n);
  for (let i = 0; i < n; i++) {
    if (dtype === 'float16' || dtype === 'bfloat16') (data as Uint16Array)[i] = t.bits![i];
    else if (dtype === 'int64' || dtype === 'uint64') (data as BigInt64Array)[i] = BigInt(t.data[i] as string);
    else {
      const v = t.data[i];
      (data as Float64Array)[i] = v === 'NaN' ? NaN : v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity
        : v === '-0' ? -0 : (v as number);
    }
  }
  return { dtype, shape: t.shape, data };
}

const present = existsSync(FILE);
if (!present) {
  const msg = `ONNX conformance cases not found at ${FILE}: the conformance suite is SKIPPED (CI always has ../shared).`;
  // eslint-disable-next-line no-console
  console.warn(msg);
  if (process.env.CI === 'true') test('conformance cases are present under CI', () => { throw new Error(msg); });
}

const cases: Case[] = present ? (JSON.parse(readFileSync(FILE, 'utf8')) as { cases: Case[] }).cases : [];

(present ? describe : describe.skip)('ONNX backend node tests (shared/conformance)', () => {
  test('the file holds the 47 cases it announces', () => {
    expect(cases.length).toBe(47);
  });

  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const ops = await getOps();
    expect(opVersion(c.op, c.opset)).toBe(c.opVersion);
    expect(ops.supportedDtypes(c.op, c.opset)).toContain(toDType(c.output.dtype));
    const inputs = c.inputs.map(decode);
    const want = decode(c.output);
    const r = plain(c.op === 'Max' ? ops.max(inputs, { opset: c.opset }) : ops.relu(inputs[0], { opset: c.opset }));
    expect(r.dtype).toBe(want.dtype);
    expect(r.shape).toEqual(want.shape);
    expect(Array.from(bytesOf(r.data))).toEqual(Array.from(bytesOf(want.data)));
  });
});
