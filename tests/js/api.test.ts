// The public API contract: tensor-like forms, dtype names, opset resolution,
// wasm tensors (zero-copy, out, in place, dispose, growth), helpers, and the
// documented semantic choices. The list of operators is the spec table's
// (js/src/core/spec.ts), checked against the operator pages (../shared/spec),
// so that an op added by its row (docs/recipes/add-min.patch) passes here.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  DTYPES, DTYPE_INFO, OP_VERSIONS, WasmTensor, bfloat16ToNumber, broadcastShapes, createOps, decodeBfloat16,
  decodeFloat16, encodeBfloat16, encodeFloat16, float16ToNumber, numberToBfloat16, numberToFloat16, opVersion,
  supportedDtypes, toDType,
} from 'onnx-ops-wasm';
import { OP_SPECS, type OpName, methodName } from '../../js/src/core/spec';
import { getOps, plain, thrown } from './helpers';
import { count, firstDifference, randomData, refMax, refRelu, rng } from './reference';

const f32bits = (x: ArrayLike<number>) => Array.from(new Uint32Array(Float32Array.from(x).buffer));

describe('tensor-like inputs', () => {
  test('{ dtype, shape, data }, { type, dims, data }, bare typed arrays and wasm tensors mix in one call', async () => {
    const ops = await getOps();
    const a = { dtype: 'float32', shape: [2, 3], data: new Float32Array([1, 9, 3, 4, 5, 6]) };
    const b = { type: 'float32', dims: [3], data: new Float32Array([2, 2, 7]) };
    const c = new Float32Array([0, 10, 0]);
    const d = ops.tensor('float32', [2, 1], new Float32Array([5, -1]));
    const r = ops.max([a, b, c, d]) as WasmTensor;
    expect(r).toBeInstanceOf(WasmTensor);
    expect(r.shape).toEqual([2, 3]);
    expect(Array.from(r.data as Float32Array)).toEqual([5, 10, 7, 4, 10, 7]);
    r.dispose();
    d.dispose();
  });

  test('plain inputs give a fresh, caller-owned result and are left untouched', async () => {
    const ops = await getOps();
    const x = new Float32Array([-1, 2, -3]);
    const r = plain(ops.relu(x));
    expect(r.data).not.toBe(x);
    expect(r.data.buffer).not.toBe((ops as unknown as { impl: { module: { HEAPU8: Uint8Array } } }).impl.module.HEAPU8.buffer);
    expect(Array.from(x)).toEqual([-1, 2, -3]);
    expect(Array.from(r.data as Float32Array)).toEqual([0, 2, 0]);
    expect(r.shape).toEqual([3]);
  });

  test('bare typed arrays infer their dtype; Uint16Array is uint16', async () => {
    const ops = await getOps();
    expect(plain(ops.max([new Uint16Array([1, 65535])])).dtype).toBe('uint16');
    expect(plain(ops.max([new BigInt64Array([-5n])])).dtype).toBe('int64');
    expect(plain(ops.max([new BigUint64Array([5n])])).dtype).toBe('uint64');
    expect(plain(ops.relu(new Int8Array([-1]))).dtype).toBe('int8');
    expect(plain(ops.max([new Uint8ClampedArray([7])])).dtype).toBe('uint8');
  });

  test('views at odd byte offsets of larger buffers work', async () => {
    const ops = await getOps();
    const buf = new ArrayBuffer(64);
    const a = new Int8Array(buf, 3, 5);
    a.set([-1, 2, -3, 4, -5]);
    expect(Array.from(plain(ops.relu(a)).data as Int8Array)).toEqual([0, 2, 0, 4, 0]);
    const u = new Uint8Array(buf, 1, 3);
    const v = new Uint8Array(buf, 40, 3);
    u.set([1, 200, 3]);
    v.set([100, 2, 3]);
    expect(Array.from(plain(ops.max([u, v])).data as Uint8Array)).toEqual([100, 200, 3]);
  });

  test('dtype names: ONNX names and TensorProto numbers', async () => {
    const ops = await getOps();
    expect(toDType('float')).toBe('float32');
    expect(toDType('double')).toBe('float64');
    expect(toDType('FLOAT16')).toBe('float16');
    expect(toDType(16)).toBe('bfloat16');
    for (const d of DTYPES) expect(toDType(DTYPE_INFO[d].onnx)).toBe(d);
    const r = plain(ops.max([{ dtype: 1, shape: [1], data: new Float32Array([1]) }, { dtype: 'float', shape: [], data: new Float32Array([2]) }]));
    expect(r.dtype).toBe('float32');
    expect(Array.from(r.data as Float32Array)).toEqual([2]);
  });

  test('a Float16Array is taken as float16 where the runtime has one', async () => {
    const F16 = (globalThis as { Float16Array?: new (v: number[]) => ArrayBufferView }).Float16Array;
    const ops = await getOps();
    if (!F16) {
      // Node 20 has none; the same bits as a Uint16Array must then be the way in.
      expect(Array.from(plain(ops.relu({ dtype: 'float16', shape: [2], data: encodeFloat16([-1, 2]) })).data as Uint16Array))
        .toEqual([0, 0x4000]);
      return;
    }
    const r = plain(ops.relu(new F16([-1, 2])));
    expect(r.dtype).toBe('float16');
    expect(Array.from(r.data as Uint16Array)).toEqual([0, 0x4000]);
  });
});

describe('opsets', () => {
  test('the operator version is the newest since-version not above the opset', () => {
    expect(opVersion('Max', 1)).toBe(1);
    expect(opVersion('Max', 7)).toBe(6);
    expect(opVersion('Max', 8)).toBe(8);
    expect(opVersion('Max', 11)).toBe(8);
    expect(opVersion('Max', 12)).toBe(12);
    expect(opVersion('Max', 21)).toBe(13);
    expect(opVersion('Max')).toBe(13);
    expect(opVersion('Relu', 5)).toBe(1);
    expect(opVersion('Relu', 12)).toBe(6);
    expect(opVersion('Relu', 13)).toBe(13);
    expect(opVersion('Relu', 18)).toBe(14);
    expect(opVersion('Relu')).toBe(14);
  });

  test('OP_VERSIONS and supportedDtypes are the spec table\'s, and agree with each operator page', () => {
    const sorted = (x: readonly string[]) => [...x].sort();
    expect(Object.keys(OP_VERSIONS)).toEqual(Object.keys(OP_SPECS));
    for (const [op, spec] of Object.entries(OP_SPECS) as [OpName, (typeof OP_SPECS)[OpName]][]) {
      expect(OP_VERSIONS[op]).toEqual(spec.versions.map(([since]) => since));
      for (const [since, dtypes] of spec.versions) expect(sorted(supportedDtypes(op, since))).toEqual(sorted(dtypes));
    }
    // The pages (../shared/spec/<Op>.txt) of the shipped ops: every version a
    // page names is an operator version here, the newest is the page's, and
    // the newest takes the page's first type list; a page with the whole
    // history ("Max - 8#" headings) gives every version.
    const dir = join(__dirname, '..', '..', '..', 'shared', 'spec');
    const checked = readdirSync(dir).map((f) => f.replace(/\.txt$/, '')).filter((op): op is OpName => op in OP_SPECS);
    expect(checked.length).toBeGreaterThan(0);
    const ONNX_TYPE: Record<string, string> = { float: 'float32', double: 'float64' };
    for (const op of checked) {
      const page = readFileSync(join(dir, `${op}.txt`), 'utf8');
      const history = [...page.matchAll(new RegExp(`^${op} - (\\d+)#`, 'gm'))].map((m) => Number(m[1]));
      const named = [...page.matchAll(/(?:since[_ ]version|(?:old|new) version):\s*(\d+)/gi)].map((m) => Number(m[1]));
      expect(named.length).toBeGreaterThan(0);
      const versions = OP_VERSIONS[op];
      if (history.length > 0) expect([...history].sort((a, b) => a - b)).toEqual(versions);
      expect(versions).toEqual(expect.arrayContaining(named));
      expect(versions[versions.length - 1]).toBe(Math.max(...named));
      const types = /Type Constraints[^]*?\n([^\n]*tensor\([^\n]*)/.exec(page);
      expect(types).not.toBeNull();
      const pageDtypes = [...types![1].matchAll(/tensor\((\w+)\)/g)].map((m) => ONNX_TYPE[m[1]] ?? m[1]);
      expect(sorted(supportedDtypes(op))).toEqual(sorted(pageDtypes));
    }
  });

  test('dtype tables per version', () => {
    const floats = ['float16', 'float32', 'float64'];
    const ints = ['int8', 'int16', 'int32', 'int64'];
    const uints = ['uint8', 'uint16', 'uint32', 'uint64'];
    const sorted = (x: string[]) => [...x].sort();
    expect(sorted(supportedDtypes('Max', 1))).toEqual(sorted(floats));
    expect(sorted(supportedDtypes('Max', 8))).toEqual(sorted(floats));
    expect(sorted(supportedDtypes('Max', 12))).toEqual(sorted([...floats, ...ints, ...uints]));
    expect(sorted(supportedDtypes('Max', 13))).toEqual(sorted([...floats, 'bfloat16', ...ints, ...uints]));
    expect(sorted(supportedDtypes('Relu', 6))).toEqual(sorted(floats));
    expect(sorted(supportedDtypes('Relu', 13))).toEqual(sorted([...floats, 'bfloat16']));
    expect(sorted(supportedDtypes('Relu', 14))).toEqual(sorted([...floats, 'bfloat16', ...ints]));
    expect(supportedDtypes('Relu')).not.toContain('uint8');
  });

  test('Max-1 and Max-6 refuse different shapes even when they would broadcast; Max-8 broadcasts', async () => {
    const ops = await getOps();
    const a = { dtype: 'float32', shape: [2, 2], data: new Float32Array([1, 2, 3, 4]) };
    const b = { dtype: 'float32', shape: [2], data: new Float32Array([3, 0]) };
    for (const opset of [1, 6, 7]) {
      const e = thrown(() => ops.max([a, b], { opset }));
      expect(e.code).toBe('SHAPE_MISMATCH');
      expect(e.input).toBe(1);
      expect(e.message).toContain(`Max-${opVersion('Max', opset)}`);
    }
    expect(Array.from(plain(ops.max([a, b], { opset: 8 })).data as Float32Array)).toEqual([3, 2, 3, 4]);
    expect(Array.from(plain(ops.max([a, a], { opset: 1 })).data as Float32Array)).toEqual([1, 2, 3, 4]);
  });
});

describe('shapes', () => {
  test('broadcastShapes', () => {
    expect(broadcastShapes([2, 3], [3])).toEqual([2, 3]);
    expect(broadcastShapes([2, 1, 4], [3, 1], [])).toEqual([2, 3, 4]);
    expect(broadcastShapes()).toEqual([]);
    expect(broadcastShapes([0, 3], [1, 3])).toEqual([0, 3]);
    const e = thrown(() => broadcastShapes([2, 3], [4]));
    expect(e.code).toBe('BROADCAST_MISMATCH');
    expect(e.message).toContain('[2,3]');
    expect(e.message).toContain('[4]');
    // The clash is named against the input that set the axis.
    const e3 = thrown(() => broadcastShapes([2, 1], [1, 3], [1, 1], [4]));
    expect(e3.input).toBe(3);
    expect(e3.message).toContain("input 1's shape [1,3] (axis -1: 4 vs 3)");
    const e4 = thrown(() => broadcastShapes([5], [2, 3, 1], [4, 5]));
    expect(e4.input).toBe(2);
    expect(e4.message).toContain("input 1's shape [2,3,1] (axis -2: 4 vs 3)");
  });

  test('rank-0 scalars, empty tensors and rank 8', async () => {
    const ops = await getOps();
    const s = plain(ops.max([{ dtype: 'int32', shape: [], data: new Int32Array([4]) }, { dtype: 'int32', shape: [], data: new Int32Array([9]) }]));
    expect(s.shape).toEqual([]);
    expect(Array.from(s.data as Int32Array)).toEqual([9]);
    const e = plain(ops.max([{ dtype: 'float32', shape: [0, 3], data: new Float32Array(0) }, { dtype: 'float32', shape: [1, 3], data: new Float32Array(3) }]));
    expect(e.shape).toEqual([0, 3]);
    expect(e.data.length).toBe(0);
    expect(plain(ops.relu({ dtype: 'float32', shape: [2, 0], data: new Float32Array(0) })).shape).toEqual([2, 0]);
    const shape8 = [2, 1, 2, 1, 2, 1, 2, 3];
    const big = { dtype: 'float64', shape: shape8, data: Float64Array.from({ length: 48 }, (_, i) => i) };
    const row = { dtype: 'float64', shape: [3], data: new Float64Array([10, 20, 30]) };
    const r = plain(ops.max([big, row]));
    expect(r.shape).toEqual(shape8);
    expect(Array.from(r.data as Float64Array)).toEqual(Array.from({ length: 48 }, (_, i) => Math.max(i, [10, 20, 30][i % 3])));
  });
});

describe('wasm tensors (zero-copy)', () => {
  test('ops on wasm tensors return wasm tensors; out and in place', async () => {
    const ops = await getOps();
    const t = ops.tensor('float32', [4], new Float32Array([-1, 2, -3, 4]));
    const r = ops.relu(t) as WasmTensor;
    expect(r).toBeInstanceOf(WasmTensor);
    expect(Array.from(r.data as Float32Array)).toEqual([0, 2, 0, 4]);
    expect(Array.from(t.data as Float32Array)).toEqual([-1, 2, -3, 4]);
    expect(ops.relu(t, { out: t })).toBe(t);
    expect(Array.from(t.data as Float32Array)).toEqual([0, 2, 0, 4]);
    const o = ops.tensor('float32', [2, 4]);
    expect(Array.from(o.data as Float32Array)).toEqual(new Array(8).fill(0));
    const row = ops.tensor('float32', [2, 1], new Float32Array([1, 3]));
    expect(ops.max([row, t], { out: o })).toBe(o);
    expect(Array.from(o.data as Float32Array)).toEqual([1, 2, 1, 4, 3, 3, 3, 4]);
    // writes through .data change the tensor
    (t.data as Float32Array)[0] = 7;
    expect(plain(r.toPlain()).data).toEqual(new Float32Array([0, 2, 0, 4]));
    expect(Array.from(plain(ops.max([t.toPlain()])).data as Float32Array)).toEqual([7, 2, 0, 4]);
    for (const x of [t, r, o, row]) x.dispose();
    expect(ops.memoryStats().liveAllocations).toBe(0);
  });

  test('a result of an input\'s shape outlives that input, with its own frozen shape of the same dims', async () => {
    const ops = await getOps();
    const x = ops.tensor('float32', [2, 3], new Float32Array([-1, 2, -3, 4, -5, 6]));
    const row = ops.tensor('float32', [3], new Float32Array([0, 0, 5]));
    const relu = ops.relu(x) as WasmTensor;
    const max = ops.max([row, x]) as WasmTensor; // the broadcast is x's shape
    x.dispose();
    row.dispose();
    for (const r of [relu, max]) {
      expect(r.shape).toEqual([2, 3]);
      expect(Object.isFrozen(r.shape)).toBe(true);
      expect(r.size).toBe(6);
    }
    expect(Array.from(relu.data as Float32Array)).toEqual([0, 2, 0, 4, 0, 6]);
    expect(Array.from(max.data as Float32Array)).toEqual([0, 2, 5, 4, 0, 6]);
    // Used as inputs and out after the tensor whose shape they took is gone.
    expect(ops.max([relu, max], { out: relu })).toBe(relu);
    expect(Array.from(relu.data as Float32Array)).toEqual([0, 2, 5, 4, 0, 6]);
    expect(Array.from((ops.relu(max.toPlain()) as { data: Float32Array }).data)).toEqual([0, 2, 5, 4, 0, 6]);
    relu.dispose();
    max.dispose();
    expect(ops.memoryStats().liveAllocations).toBe(0);
  });

  test('a plain result with out: out is returned and holds the result', async () => {
    const ops = await getOps();
    const out = ops.tensor('int16', [3]);
    expect(ops.max([new Int16Array([1, -5, 3]), new Int16Array([0, 0, 9])], { out })).toBe(out);
    expect(Array.from(out.data as Int16Array)).toEqual([1, 0, 9]);
    out.dispose();
  });

  test('dispose is idempotent and a disposed tensor is a DISPOSED error', async () => {
    const ops = await getOps();
    const t = ops.tensor('float32', [2], new Float32Array([1, 2]));
    t.dispose();
    t.dispose();
    expect(t.disposed).toBe(true);
    expect(thrown(() => t.data).code).toBe('DISPOSED');
    expect(thrown(() => ops.relu(t)).code).toBe('DISPOSED');
    const o = ops.tensor('float32', [2]);
    o.dispose();
    expect(thrown(() => ops.relu(new Float32Array(2), { out: o })).code).toBe('DISPOSED');
  });

  test('memory growth while tensors are alive keeps their data', async () => {
    const ops = await createOps();
    const t = ops.tensor('float64', [1000], Float64Array.from({ length: 1000 }, (_, i) => i * 1.5));
    const view = t.data;
    const before = ops.memoryStats().memoryBytes;
    const big = ops.tensor('float32', [8_000_000]); // 32 MB: the memory must grow
    expect(ops.memoryStats().memoryBytes).toBeGreaterThan(before);
    expect(view.length).toBe(0); // the old view detached, as documented
    expect(Array.from(t.data as Float64Array)).toEqual(Array.from({ length: 1000 }, (_, i) => i * 1.5));
    const r = ops.relu(t) as WasmTensor;
    expect((r.data as Float64Array)[999]).toBe(999 * 1.5);
    big.dispose();
    r.dispose();
    t.dispose();
  });

  test('instances are independent; a tensor of another instance is FOREIGN_TENSOR', async () => {
    const a = await createOps();
    const b = await createOps();
    const t = a.tensor('float32', [1], new Float32Array([1]));
    expect(thrown(() => b.relu(t)).code).toBe('FOREIGN_TENSOR');
    const o = b.tensor('float32', [1]);
    expect(thrown(() => a.relu(t, { out: o })).code).toBe('FOREIGN_TENSOR');
    expect(Array.from((a.relu(t) as WasmTensor).data as Float32Array)).toEqual([1]);
  });
});

describe('documented semantics', () => {
  test('NaN: the first NaN operand wins, payload and sign kept; relu(NaN) is that NaN', async () => {
    const ops = await getOps();
    const bits = new Uint32Array([0x7fc00001, 0x3f800000, 0xffc00002, 0x7f800001]);
    const a = new Float32Array(bits.buffer);
    const b = new Float32Array(new Uint32Array([0x7fc00005, 0xffc00003, 0x3f800000, 0x00000000]).buffer);
    const r = plain(ops.max([a, b]));
    expect(Array.from(new Uint32Array(r.data.buffer))).toEqual([0x7fc00001, 0xffc00003, 0xffc00002, 0x7f800001]);
    const relu = plain(ops.relu(a));
    expect(Array.from(new Uint32Array(relu.data.buffer))).toEqual([0x7fc00001, 0x3f800000, 0xffc00002, 0x7f800001]);
  });

  test('signed zeros: max(-0, +0) = max(+0, -0) = +0; relu(-0) = +0', async () => {
    const ops = await getOps();
    const r = plain(ops.max([new Float32Array([-0, 0, -0]), new Float32Array([0, -0, -0])]));
    expect(f32bits(r.data as Float32Array)).toEqual([0, 0, 0x80000000]);
    expect(Object.is((plain(ops.relu(new Float64Array([-0]))).data as Float64Array)[0], 0)).toBe(true);
    const h = plain(ops.max([{ dtype: 'float16', shape: [2], data: new Uint16Array([0x8000, 0]) },
      { dtype: 'float16', shape: [2], data: new Uint16Array([0, 0x8000]) }]));
    expect(Array.from(h.data as Uint16Array)).toEqual([0, 0]);
  });

  test('int64/uint64 are exact over their whole range; uint64 compares unsigned', async () => {
    const ops = await getOps();
    const i = plain(ops.max([new BigInt64Array([2n ** 53n + 1n, -(2n ** 63n)]), new BigInt64Array([2n ** 53n, -(2n ** 63n) + 1n])]));
    expect(Array.from(i.data as BigInt64Array)).toEqual([2n ** 53n + 1n, -(2n ** 63n) + 1n]);
    const u = plain(ops.max([new BigUint64Array([2n ** 64n - 1n, 1n]), new BigUint64Array([2n ** 63n, 2n ** 63n])]));
    expect(Array.from(u.data as BigUint64Array)).toEqual([2n ** 64n - 1n, 2n ** 63n]);
  });

  test('float16/bfloat16 compare as numbers, subnormals kept', async () => {
    const ops = await getOps();
    // -0.5 (0xb800) vs -2 (0xc000): raw bits would pick -2.
    const h = plain(ops.max([{ dtype: 'float16', shape: [3], data: new Uint16Array([0xb800, 0x0001, 0x8001]) },
      { dtype: 'float16', shape: [3], data: new Uint16Array([0xc000, 0x0000, 0x8002]) }]));
    expect(Array.from(h.data as Uint16Array)).toEqual([0xb800, 0x0001, 0x8001]);
    const b = plain(ops.max([{ dtype: 'bfloat16', shape: [2], data: new Uint16Array([0xbf00, 0x0001]) },
      { dtype: 'bfloat16', shape: [2], data: new Uint16Array([0xc000, 0x8000]) }]));
    expect(Array.from(b.data as Uint16Array)).toEqual([0xbf00, 0x0001]);
  });
});

describe('float16 / bfloat16 helpers', () => {
  test('every float16 bit pattern round-trips through numbers (NaNs decode to NaN)', () => {
    for (let bits = 0; bits < 65536; bits++) {
      const x = float16ToNumber(bits);
      if (Number.isNaN(x)) expect(numberToFloat16(x)).toBe(0x7e00);
      else expect(numberToFloat16(x)).toBe(bits);
    }
  });

  test('every bfloat16 bit pattern round-trips through numbers', () => {
    for (let bits = 0; bits < 65536; bits++) {
      const x = bfloat16ToNumber(bits);
      if (Number.isNaN(x)) expect(numberToBfloat16(x)).toBe(0x7fc0);
      else expect(numberToBfloat16(x)).toBe(bits);
    }
  });

  test('rounding: nearest, ties to even, overflow to infinity, underflow to zero', () => {
    expect(float16ToNumber(0x3c00)).toBe(1);
    expect(float16ToNumber(0x0001)).toBe(2 ** -24);
    expect(float16ToNumber(0x7bff)).toBe(65504);
    expect(numberToFloat16(65519)).toBe(0x7bff);
    expect(numberToFloat16(65520)).toBe(0x7c00);
    expect(numberToFloat16(1 + 2 ** -11)).toBe(0x3c00); // tie -> even
    expect(numberToFloat16(1 + 3 * 2 ** -11)).toBe(0x3c02); // tie -> even (up)
    expect(numberToFloat16(2 ** -25)).toBe(0x0000); // tie at half the smallest subnormal -> 0
    expect(numberToFloat16(2 ** -25 * 1.0001)).toBe(0x0001);
    expect(numberToFloat16(-0)).toBe(0x8000);
    expect(numberToBfloat16(1 + 2 ** -8)).toBe(0x3f80);
    expect(numberToBfloat16(3.39e38)).toBe(0x7f7f); // largest finite, (2 - 2^-7) * 2^127
    expect(numberToBfloat16(3.4e38)).toBe(0x7f80); // above (2 - 2^-8) * 2^127: infinity
    expect(numberToBfloat16(Infinity)).toBe(0x7f80);
    expect(Array.from(decodeFloat16(encodeFloat16([0.5, -2, 1e5])))).toEqual([0.5, -2, Infinity]);
    expect(Array.from(decodeBfloat16(encodeBfloat16([1.5, -0.25])))).toEqual([1.5, -0.25]);
  });
});

describe('calls on wasm tensors only (zero-copy)', () => {
  // Calls whose inputs and out are all wasm tensors run in place, with no
  // copies (js/src/backend/wasm/backend.ts): they must give the reference's bits, and
  // refuse, with out untouched, every call the checks refuse.
  const maxCases: [number[][], number[]][] = [
    [[[37], [37]], [37]], [[[37], []], [37]], [[[], [37], []], [37]], [[[5], [5], [5]], [5]],
    [[[6, 7], [6, 7], [6, 7], [6, 7]], [6, 7]], [[[1], []], [1]], [[[], []], []], [[[0], [0]], [0]], [[[0, 3], []], [0, 3]],
    [[[4, 9], [9]], [4, 9]], [[[4, 9], [4, 1]], [4, 9]], [[[4, 1], [1, 9]], [4, 9]], [[[1, 9], [9]], [1, 9]],
    [[[3], [2, 3], []], [2, 3]], [[[2, 1, 5], [2, 4, 5], [5]], [2, 4, 5]],
    [Array.from({ length: 40 }, () => [6]), [6]], // 40 inputs: the descriptor outgrows its first block
  ];
  test('Max and Relu into out give the reference bits: every dtype, shape form and number of inputs, in place', async () => {
    const rand = rng(7);
    for (const dtype of DTYPES) {
      const ops = await createOps(); // a fresh instance: its first call makes the descriptor block
      for (const [shapes, outShape] of maxCases) {
        const inputs = shapes.map((shape) => ({ dtype, shape, data: randomData(dtype, count(shape), rand) }));
        const want = refMax(inputs);
        expect(want.shape).toEqual(outShape);
        const tensors = inputs.map((t) => ops.tensor(dtype, t.shape, t.data));
        const out = ops.tensor(dtype, outShape);
        for (let round = 0; round < 2; round++) {
          expect(ops.max(tensors, { out })).toBe(out);
          expect(firstDifference(out.data, want.bytes, DTYPE_INFO[dtype].bytes)).toBe(-1);
          const fresh = ops.max(tensors) as WasmTensor; // no out: a new tensor
          expect(fresh).toBeInstanceOf(WasmTensor);
          expect([fresh.dtype, [...fresh.shape]]).toEqual([dtype, outShape]);
          expect(firstDifference(fresh.data, want.bytes, DTYPE_INFO[dtype].bytes)).toBe(-1);
          fresh.dispose();
        }
        const same = tensors.findIndex((t) => t.shape.length === outShape.length && t.shape.every((d, k) => d === outShape[k]));
        if (same >= 0) { // in place (an outer product has no input of the result's shape)
          expect(ops.max(tensors, { out: tensors[same] })).toBe(tensors[same]);
          expect(firstDifference(tensors[same].data, want.bytes, DTYPE_INFO[dtype].bytes)).toBe(-1);
        }
        if (supportedDtypes('Relu').includes(dtype)) {
          const x = { dtype, shape: outShape, data: randomData(dtype, count(outShape), rand) };
          const t = ops.tensor(dtype, x.shape, x.data);
          expect(ops.relu(t, { out })).toBe(out);
          expect(firstDifference(out.data, refRelu(x), DTYPE_INFO[dtype].bytes)).toBe(-1);
          expect(ops.relu(t, { out: t })).toBe(t);
          expect(firstDifference(t.data, refRelu(x), DTYPE_INFO[dtype].bytes)).toBe(-1);
          t.dispose();
        }
        tensors.forEach((t) => t.dispose());
        out.dispose();
      }
      expect(ops.memoryStats().liveAllocations).toBe(0);
    }
  });

  test('refused calls on wasm tensors get their error, with out left as it was', async () => {
    const ops = await createOps();
    const other = await createOps();
    const f = (shape: number[], dtype = 'float32') =>
      ops.tensor(dtype, shape, new DTYPE_INFO[toDType(dtype)].array(count(shape)).fill(2 as never));
    const a = f([3]), b = f([3]), s = f([]), m = f([2, 3]), row4 = f([4]), empty = f([0]), i32 = f([3], 'int32');
    const out = f([3]), out23 = f([2, 3]), out24 = f([2, 4]), outI = f([3], 'int32'), out4 = f([4]);
    for (const o of [out, out23, out24, outI, out4]) (o.data as Float32Array | Int32Array).fill(-7);
    const outs = [out, out23, out24, outI, out4];
    const before = outs.map((o) => Array.from(o.data as Float32Array | Int32Array));
    expect(ops.max([a, b], { out })).toBe(out); // the descriptor block is made, and the call runs
    expect(Array.from(out.data as Float32Array)).toEqual([2, 2, 2]);
    (out.data as Float32Array).fill(-7);
    const gone = f([3]);
    gone.dispose();
    const foreign = other.tensor('float32', [3]);
    const hugeEmpty = ops.tensor('float32', [0, 2 ** 32 + 3]);
    const cases: [() => unknown, string][] = [
      [() => ops.max([i32, i32], { out: outI, opset: 6 }), 'DTYPE_NOT_ALLOWED'], // Max-6: floats only
      [() => ops.max([a, s], { out, opset: 7 }), 'SHAPE_MISMATCH'], // no broadcasting before Max-8
      [() => ops.relu(i32, { out: outI, opset: 6 }), 'DTYPE_NOT_ALLOWED'],
      [() => ops.max([a, gone], { out }), 'DISPOSED'],
      [() => ops.relu(gone, { out }), 'DISPOSED'],
      [() => ops.max([a, foreign], { out }), 'FOREIGN_TENSOR'],
      [() => ops.relu(foreign, { out }), 'FOREIGN_TENSOR'],
      [() => ops.max([a, i32], { out }), 'DTYPE_MISMATCH'],
      [() => ops.max([i32, i32], { out }), 'OUT_MISMATCH'], // out of another dtype
      [() => ops.relu(i32, { out }), 'OUT_MISMATCH'],
      [() => ops.max([row4, row4], { out }), 'OUT_MISMATCH'], // same shapes, out of other dims
      [() => ops.relu(row4, { out }), 'OUT_MISMATCH'],
      [() => ops.max([s, s], { out }), 'OUT_MISMATCH'], // rank-0 values only: the result is rank 0
      [() => ops.max([m, a], { out: out24 }), 'OUT_MISMATCH'], // broadcasts to [2, 3], not out's [2, 4]
      [() => ops.max([m, row4], { out: out23 }), 'BROADCAST_MISMATCH'],
      [() => ops.max([empty, a], { out }), 'BROADCAST_MISMATCH'],
      [() => ops.max([hugeEmpty, a], { out }), 'BROADCAST_MISMATCH'], // dims past int32: not for a descriptor
      [() => ops.max([a, s, row4], { out: out4 }), 'BROADCAST_MISMATCH'],
    ];
    cases.push( // without out: a new tensor is made only for a call that runs
      [() => ops.max([i32, i32], { opset: 6 }), 'DTYPE_NOT_ALLOWED'], [() => ops.max([a, s], { opset: 7 }), 'SHAPE_MISMATCH'],
      [() => ops.max([a, gone]), 'DISPOSED'], [() => ops.max([gone, a]), 'DISPOSED'], [() => ops.max([a, foreign]), 'FOREIGN_TENSOR'],
      [() => ops.max([foreign, a]), 'FOREIGN_TENSOR'], [() => ops.max([a, i32]), 'DTYPE_MISMATCH'],
      [() => ops.max([a, row4]), 'BROADCAST_MISMATCH'], [() => ops.max([m, row4]), 'BROADCAST_MISMATCH'],
      [() => ops.max([s, empty, a]), 'BROADCAST_MISMATCH'],
    );
    const live = ops.memoryStats().liveAllocations;
    for (const [call, code] of cases) {
      expect(thrown(call).code).toBe(code);
      outs.forEach((o, k) => expect(Array.from(o.data as Float32Array | Int32Array)).toEqual(before[k]));
      expect(ops.memoryStats().liveAllocations).toBe(live);
    }
    // a plain input among wasm tensors takes the general path, with the same result
    expect(ops.max([a, new Float32Array([1, 5, 1]), s], { out })).toBe(out);
    expect(Array.from(out.data as Float32Array)).toEqual([2, 5, 2]);
  });
});

describe('op methods (one per row of the spec table)', () => {
  const rows = Object.entries(OP_SPECS) as [OpName, (typeof OP_SPECS)[OpName]][];
  /** A call of the op's method with a well-formed input and a bad opset: its error names the op that ran. */
  const badOpset = (ops: object, op: OpName, arity: string): unknown => {
    const m = (ops as Record<string, (...a: unknown[]) => unknown>)[methodName(op)];
    const x = new Float32Array([1, -1]);
    return arity === 'variadic' ? m.call(ops, [x], { opset: 0 }) : m.call(ops, x, { opset: 0 });
  };
  const onPrototype = (ops: object, name: string) => {
    const m = (ops as Record<string, unknown>)[name] as (...a: unknown[]) => unknown;
    expect(typeof m).toBe('function');
    expect(m.name).toBe(name);
    expect(Object.prototype.hasOwnProperty.call(Object.getPrototypeOf(ops), name)).toBe(true);
    expect(Object.prototype.hasOwnProperty.call(ops, name)).toBe(false);
  };

  test('each row of the spec table is a method of Ops, named as its method, on the prototype, running its own op', async () => {
    const ops = await getOps();
    expect(rows.length).toBeGreaterThan(0);
    expect(Object.keys(OP_VERSIONS).map((op) => op[0].toLowerCase() + op.slice(1))).toEqual(rows.map(([op]) => methodName(op)));
    for (const [op, spec] of rows) {
      onPrototype(ops, methodName(op));
      const e = thrown(() => badOpset(ops, op, spec.arity));
      expect([e.code, e.op]).toEqual(['INVALID_OPSET', op]);
    }
    // Its error names the method in its call form; each method runs its own op.
    expect(thrown(() => ops.max(new Float32Array(2) as never))?.message).toMatch(/max\(\[a, b, \.\.\.\]\)/);
    expect(Array.from(plain(ops.relu({ dtype: 'float32', shape: [2], data: new Float32Array([-1, 2]) })).data as Float32Array)).toEqual([0, 2]);
  });

  test('each row of the spec table is a method of WorkerOps, on the prototype, running its own op', async () => {
    const w = await createOps({ worker: true });
    try {
      for (const [op, spec] of rows) {
        onPrototype(w, methodName(op));
        const e = await (badOpset(w, op, spec.arity) as Promise<unknown>).then(() => undefined, (x: { code: string; op: string }) => x);
        expect([e?.code, e?.op]).toEqual(['INVALID_OPSET', op]);
      }
    } finally {
      await w.close();
    }
  });
});
