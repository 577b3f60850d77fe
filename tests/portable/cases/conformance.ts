// Every case of ../shared/conformance/onnx-backend-node.json (the official
// ONNX backend node tests for Max and Relu), which the runner hands in.
import { type Case, type Env, type Lib, type Ops, eq, sameBits, bytesOf } from '../harness';
import { type DType, DTYPE_INFO, type TypedArray } from '../reference';
import { type OpName, versionAt } from '../rules';

interface JsonTensor { dtype: string; shape: number[]; data: unknown[]; bits?: number[] }
interface JsonCase { name: string; op: OpName; opset: number; opVersion: number; inputs: JsonTensor[]; output: JsonTensor }


function decode(t: JsonTensor): { dtype: DType; shape: number[]; data: TypedArray } {
  const dtype = t.dtype as DType;
  if (!(dtype in DTYPE_INFO)) throw new Error(`conformance: unknown dtype ${t.dtype}`);
  const n = t.shape.reduce((a, b) => a * b, 1);
  const data = new DTYPE_INFO[dtype].array(n);
  for (let i = 0; i < n; i++) {
    const v = t.data[i];
    (data as unknown as (number | bigint)[])[i] = dtype === 'float16' || dtype === 'bfloat16' ? t.bits![i]
      : dtype === 'int64' || dtype === 'uint64' ? BigInt(v as string)
        : v === 'NaN' ? NaN : v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : v === '-0' ? -0 : (v as number);
  }
  return { dtype, shape: t.shape, data };
}

export function conformanceCases(lib: Lib, ops: () => Promise<Ops>, env: Env): Case[] {
  const cases = env.conformance.cases as JsonCase[];
  return [
    { name: 'conformance: the file holds its 47 cases', run: () => eq(cases.length, 47, 'cases') },
    ...cases.map((c): Case => ({ name: `conformance: ${c.name}`, run: async () => {
      eq(versionAt(c.op, c.opset), c.opVersion, 'the suite\'s own rules resolve the opset as the file does');
      eq(lib.opVersion(c.op, c.opset), c.opVersion, 'opVersion()');
      const o = await ops();
      eq(o.supportedDtypes(c.op, c.opset).includes(c.output.dtype as never), true, `supportedDtypes lists ${c.output.dtype}`);
      const inputs = c.inputs.map(decode);
      const want = decode(c.output);
      const r = (await (c.op === 'Max' ? o.max(inputs, { opset: c.opset }) : o.relu(inputs[0], { opset: c.opset }))) as
        { dtype: string; shape: number[]; data: ArrayBufferView };
      eq(r.dtype, want.dtype, 'dtype');
      eq(r.shape, want.shape, 'shape');
      sameBits(r.data, bytesOf(want.data), DTYPE_INFO[want.dtype].bytes, 'data');
    } })),
  ];
}
