// The semantics oracle of the bench and the demo: the tests' reference,
// tests/portable/reference.ts, so that everything outside the product checks
// against one source (its NaN rule, its dtype tables, its ONNX numbers).
// Node compiles it here with esbuild; pages import it from their server, which
// serves it as JavaScript (tests/support/static-server.mjs, demo/serve.mjs).

const SOURCE = new URL('../tests/portable/reference.ts', import.meta.url);

async function load() {
  if (typeof window !== 'undefined' || !globalThis.process?.versions?.node) return import(SOURCE.href);
  const [{ readFileSync }, { transformSync }] = await Promise.all([import('node:fs'), import('esbuild')]);
  const { code } = transformSync(readFileSync(SOURCE, 'utf8'), { loader: 'ts', format: 'esm', target: 'es2022' });
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

const ref = await load();

export const { DTYPES, DTYPE_INFO, ONNX_DTYPE, refBroadcast, float16ToNumber, bfloat16ToNumber } = ref;

/** The typed array that holds each dtype's data (raw bits for float16/bfloat16). */
export const ARRAY_TYPES = Object.fromEntries(DTYPES.map((d) => [d, DTYPE_INFO[d].array]));
/** Bytes per element of each dtype. */
export const BYTES = Object.fromEntries(DTYPES.map((d) => [d, DTYPE_INFO[d].bytes]));

/** The reference's output bytes as a typed array of the dtype. */
const asArray = (dtype, bytes) => new ARRAY_TYPES[dtype](bytes.buffer, bytes.byteOffset, bytes.byteLength / BYTES[dtype]);

/** Expected Relu(x) of one dtype: a fresh typed array. */
export const expectedRelu = (dtype, data) => asArray(dtype, ref.refRelu({ dtype, shape: [data.length], data }));

/** Expected Max of inputs [{ shape, data }] of one dtype (numpy broadcasting): { shape, data }. */
export function expectedMax(dtype, inputs) {
  const { shape, bytes } = ref.refMax(inputs.map((t) => ({ dtype, shape: [...t.shape], data: t.data })));
  return { shape, data: asArray(dtype, bytes) };
}

/** Expected result data of op 'relu' | 'max' over inputs [{ shape, data }]. */
export const expected = (op, dtype, inputs) => (op === 'relu' ? expectedRelu(dtype, inputs[0].data) : expectedMax(dtype, inputs).data);
