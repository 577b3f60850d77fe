// What tests/hosts/run.mjs runs in each host (React Native's Hermes, QuickJS,
// a bare Node vm context). hostCases() and hostCheck()
// are serialised into the hosts (their toString()): they use nothing but
// `lib`, the package's module namespace, and the engine's built-ins.
import { check } from '../package/check.mjs';

/** Max and Relu cases as [op, opset, inputs]: broadcasting, every float format's NaN payloads and -0, 64-bit integers, variadic Max. */
export function hostCases() {
  const f32 = (bits) => new Float32Array(new Uint32Array(bits).buffer);
  const nan = f32([0x7fc00001, 0xffc00002, 0x80000000, 0, 0x7f800000, 0xff800001]);
  const t = (dtype, shape, data) => ({ dtype, shape, data });
  return [
    ['Max', 13, [nan, new Float32Array([0, -0, 0, -0, 1, -1])]],
    ['Max', 12, [t('float64', [2, 1], new Float64Array([NaN, -0])), new Float64Array([0, 1, -Infinity])]],
    // float16 and bfloat16 as raw bits: -0, NaN with a payload, -Inf, the largest finite, 1.
    ['Max', 13, [t('float16', [2, 2], new Uint16Array([0x8000, 0x7e01, 0xfc00, 0x7bff])), t('float16', [2], new Uint16Array([0x0000, 0x3c00]))]],
    ['Max', 13, [t('bfloat16', [3], new Uint16Array([0xbf80, 0x3f00, 0x7fc1])), t('bfloat16', [], new Uint16Array([0x8000]))]],
    ['Max', 13, [t('int64', [2, 1], new BigInt64Array([-(2n ** 63n), 2n ** 62n])), new BigInt64Array([-1n, 0n, 2n ** 63n - 1n])]],
    ['Max', 13, [new BigUint64Array([2n ** 64n - 1n, 0n]), t('uint64', [1], new BigUint64Array([1n]))]],
    ['Max', 12, [new Int16Array([-7, 3]), new Int16Array([2, -9]), new Int16Array([1, 1])]],
    ['Max', 12, [t('uint8', [2, 1, 2], new Uint8Array([0, 255, 7, 8])), t('uint8', [3, 1], new Uint8Array([9, 1, 200]))]],
    ['Max', 6, [t('float32', [2], new Float32Array([-0, 3])), t('float32', [2], new Float32Array([0, NaN]))]],
    ['Relu', 14, [t('float16', [4], new Uint16Array([0x8000, 0x7e01, 0xc000, 0x7bff]))]],
    ['Relu', 14, [t('bfloat16', [3], new Uint16Array([0x8000, 0xffc1, 0x4000]))]],
    ['Relu', 14, [new Int8Array([-128, -1, 0, 127])]],
    ['Relu', 14, [new BigInt64Array([-(2n ** 63n), 0n, 2n ** 62n])]],
    ['Relu', 6, [nan]],
  ];
}

/**
 * Runs check() (tests/package/check.mjs) and hostCases() in the host; returns
 * JSON: each case's dtype, shape and result bytes in hex, the backend, a bad
 * input's error, and what the worker form and the wasm backend give where the
 * host has no Worker and no WebAssembly.
 */
export async function hostCheck(lib) {
  const hex = (a) => Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), (b) => (b < 16 ? '0' : '') + b.toString(16)).join('');
  const failed = (e) => (e instanceof lib.OnnxOpsError ? { code: e.code, op: e.op, input: e.input, message: e.message } : { thrown: `${e}\n${e && e.stack}` });
  const ops = await lib.createOps();
  const cases = hostCases().map(([op, opset, inputs]) => {
    const kept = inputs.map((x) => hex(x.data ?? x));
    try {
      const r = op === 'Max' ? ops.max(inputs, { opset }) : ops.relu(inputs[0], { opset });
      return { dtype: r.dtype, shape: r.shape, hex: hex(r.data), inputsKept: inputs.every((x, i) => hex(x.data ?? x) === kept[i]) };
    } catch (e) {
      return failed(e);
    }
  });
  let bad = 'no error';
  try {
    ops.max([new Float32Array([1, 2]), { dtype: 'float32', shape: [3], data: new Float32Array(2) }]);
  } catch (e) {
    bad = failed(e);
  }
  const after = Array.from(ops.relu(new Float32Array([-1, 2])).data);
  const rejects = (options) => lib.createOps(options).then(() => 'resolved', failed);
  return {
    backend: ops.backend, worker: ops.worker === true, check: await check(lib), cases, bad, after,
    workerForm: await rejects({ worker: true }), wasm: await rejects({ backend: 'wasm' }),
  };
}

/** The host's script: runs hostCheck(<lib>) and hands its result, or its failure, as JSON to <done>, a function of the host's. */
export const hostScript = (lib, done) => `${check}\n${hostCases}\n${hostCheck}\n` +
  `hostCheck(${lib}).then((r) => ${done}(JSON.stringify(r)), (e) => ${done}(JSON.stringify({ failure: String(e) + '\\n' + (e && e.stack) })));\n`;
