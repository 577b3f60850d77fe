// The hostile suite (hostile-helpers.ts), inputs: random hostile calls of
// max, relu and tensor (junk, bad dtypes, bad shapes, wrong classes and
// lengths, bad options and outs) with the outcome each must have; element
// counts and sizes that overflow, failing before any allocation; and values
// that are not tensors, in every place an argument goes.
import fc from 'fast-check';
import { DTYPE_INFO, DTYPES, WasmTensor, broadcastShapes, type ErrorCode } from 'onnx-ops-wasm';
import { count } from './reference';
import {
  type Any, BAD_DTYPES, BAD_SHAPES, JUNK, type Outcome, type OutIs, SEED, TYPED_CTORS, callContract, checkResultShape,
  expectOnnxError, expectOutcome, expectStatsBack, expectUsable, expectedMax, expectedRelu, expectedTensor, ops, other,
  useSharedInstances,
} from './hostile-helpers';

useSharedInstances();

/** Options as a failure message shows them. */
function describeOptions(o: unknown): string {
  if (o === null || typeof o !== 'object') return typeof o === 'symbol' ? o.toString() : String(o);
  return `{ ${Object.entries(o).map(([k, v]) => `${k}: ${v instanceof WasmTensor ? 'a wasm tensor' : typeof v === 'bigint' ? `${v}n` : String(v)}`).join(', ')} }`;
}

function hostileTensorArb(): fc.Arbitrary<() => unknown> {
  // Thunks: values are built per run (fresh typed arrays), from a valid base.
  const dtype = fc.constantFrom(...DTYPES);
  const shape = fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 3 });
  const valid = fc.tuple(dtype, shape).map(([d, s]) => () =>
    ({ dtype: d, shape: s, data: new DTYPE_INFO[d].array(count(s)) }));
  const badDtype = fc.tuple(fc.constantFrom(...BAD_DTYPES), shape).map(([d, s]) => () =>
    ({ dtype: d, shape: s, data: new Float32Array(count(s)) }));
  const badShape = fc.tuple(dtype, fc.constantFrom(...BAD_SHAPES), fc.nat(8)).map(([d, s, n]) => () =>
    ({ dtype: d, shape: s, data: new DTYPE_INFO[d].array(n) }));
  const badOrtShape = fc.tuple(dtype, fc.constantFrom(...BAD_SHAPES)).map(([d, s]) => () =>
    ({ type: d, dims: s, data: new DTYPE_INFO[d].array(2) }));
  const wildDims = fc.tuple(dtype, fc.array(fc.oneof(
    fc.integer({ min: -3, max: 8 }), fc.double(), fc.constantFrom(2 ** 31, 2 ** 32, 2 ** 53, 2 ** 30, 65536, 2 ** 26),
  ), { maxLength: 70 })).map(([d, s]) => () => ({ dtype: d, shape: s, data: new DTYPE_INFO[d].array(1) }));
  const wrongClass = fc.tuple(dtype, fc.constantFrom(...TYPED_CTORS), shape).map(([d, C, s]) => () =>
    ({ dtype: d, shape: s, data: new (C as Any)(count(s)) }));
  const wrongLength = fc.tuple(dtype, shape, fc.integer({ min: -2, max: 2 })).map(([d, s, delta]) => () =>
    ({ dtype: d, shape: s, data: new DTYPE_INFO[d].array(Math.max(0, count(s) + delta)) }));
  const junk = fc.constantFrom(...JUNK).map((j) => () => j);
  return fc.oneof(valid, badDtype, badShape, badOrtShape, wildDims, wrongClass, wrongLength, junk);
}

describe('hostile calls: the expected result or OnnxOpsError code, no leak, still usable (property)', () => {
  test('max / relu / tensor over hostile inputs and options', () => {
    const optionsArb = fc.oneof(
      fc.constant(() => undefined),
      fc.constantFrom(null, 5, 'x', [], { opset: 0 }, { opset: -1 }, { opset: 1.5 }, { opset: NaN }, { opset: '13' },
        { opset: 13n }, { opset: 1e300 }, { opset: 7 }, { opset: 1 }, { opset: 12 }, { out: null }, { out: 5 },
        { out: {} }, { out: new Float32Array(2) }).map((o) => () => o),
      fc.constantFrom('disposed', 'foreign', 'wrongShape', 'wrongDtype', 'fake').map((k) => () => {
        if (k === 'fake') return { out: Object.create(WasmTensor.prototype), outIs: 'fake' };
        const t = k === 'foreign' ? other.tensor('float32', [2]) : ops.tensor(k === 'wrongDtype' ? 'int8' : 'float32',
          k === 'wrongShape' ? [3, 1] : [2]);
        if (k === 'disposed') t.dispose();
        return { out: t, cleanup: t, outIs: k === 'foreign' || k === 'disposed' ? k : 'own' };
      }),
    );
    const seen = new Map<string, number>();
    fc.assert(fc.property(
      fc.constantFrom('max', 'max', 'relu', 'tensor'),
      fc.array(hostileTensorArb(), { minLength: 0, maxLength: 4 }),
      optionsArb,
      fc.constantFrom('array', 'array', 'array', 'single', 'junk'),
      (op, inputThunks, optThunk, container) => {
        const base = ops.memoryStats();
        const otherBase = other.memoryStats();
        const inputs = inputThunks.map((f) => f());
        const o: Any = optThunk();
        const tensorOut = o && typeof o === 'object' && 'outIs' in o; // a wasm tensor (or a look-alike) as out
        const cleanup: WasmTensor | undefined = tensorOut ? o.cleanup : undefined;
        const outIs: OutIs | undefined = tensorOut ? o.outIs : undefined;
        const options = tensorOut ? { out: o.out } : o;
        // The outcome the call must have, worked out from the arguments before the call.
        let want: Outcome;
        let call: () => unknown;
        if (op === 'max') {
          const arg = container === 'array' ? inputs : container === 'single' ? inputs[0] : JUNK[inputs.length];
          want = expectedMax(arg, options, outIs);
          call = () => (options === undefined ? ops.max(arg as Any) : ops.max(arg as Any, options));
        } else if (op === 'relu') {
          const arg = container === 'array' ? inputs : inputs[0];
          want = expectedRelu(arg, options, outIs);
          call = () => (options === undefined ? ops.relu(arg as Any) : ops.relu(arg as Any, options));
        } else {
          const x: Any = inputs[0] ?? {};
          const [dtype, shape, data] = [x.dtype ?? x.type, x.shape ?? x.dims, x.data];
          want = expectedTensor(dtype, shape, data);
          call = () => ops.tensor(dtype, shape, data);
        }
        let res: ReturnType<typeof callContract> | undefined;
        try {
          res = callContract(call);
          if (res.ok) {
            const r: Any = res.value;
            expect(typeof r.dtype).toBe('string');
            expect(DTYPES).toContain(r.dtype);
            checkResultShape(r, r.dtype, r.shape);
          }
          expectOutcome(res, want, `${op} (${container}, ${inputs.length} inputs, options ${describeOptions(options)})`);
        } finally {
          if (res?.ok && res.value instanceof WasmTensor && res.value !== cleanup) res.value.dispose();
          cleanup?.dispose();
        }
        const key = res.ok ? 'ok' : res.error.code;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        expectStatsBack(ops, base, `${op} (${key})`);
        expectStatsBack(other, otherBase, op);
        expectUsable(ops);
      }), { seed: SEED + 2, numRuns: 5000 });
    // The generators reach valid calls and most error codes.
    if (process.env.ONNX_OPS_HOSTILE_VERBOSE) console.log(Object.fromEntries(seen));
    expect(seen.get('ok')).toBeGreaterThan(100);
    expect(seen.size).toBeGreaterThanOrEqual(12);
  });
});

describe('sizes: overflowing element counts and > 4 GiB fail before any allocation', () => {
  const f32 = (shape: unknown, data: unknown = new Float32Array(1)) => ({ dtype: 'float32', shape, data }) as Any;

  function noAllocation(fn: () => unknown, code: ErrorCode): void {
    const base = ops.memoryStats();
    expectOnnxError(fn, code);
    const now = ops.memoryStats();
    expect(now.heapInUse).toBe(base.heapInUse);
    expect(now.liveAllocations).toBe(base.liveAllocations);
    expect(now.memoryBytes).toBe(base.memoryBytes); // no memory growth
  }

  test('element counts above 2^53 / not representable', () => {
    noAllocation(() => ops.relu(f32([2 ** 31, 2 ** 31])), 'TOO_LARGE');
    noAllocation(() => ops.relu(f32([2 ** 26, 2 ** 27])), 'TOO_LARGE'); // exactly 2^53
    noAllocation(() => ops.relu(f32([3, 2 ** 52])), 'TOO_LARGE');
    noAllocation(() => ops.relu(f32([2 ** 53])), 'INVALID_SHAPE'); // a dim above 2^53 - 1
    noAllocation(() => ops.relu(f32(new Array(60).fill(2))), 'TOO_LARGE');
    noAllocation(() => ops.tensor('float32', [2 ** 31, 2 ** 31]), 'TOO_LARGE');
    noAllocation(() => ops.tensor('int8', [2 ** 53]), 'INVALID_SHAPE');
    noAllocation(() => ops.max([f32([2 ** 31, 1]), f32([1, 2 ** 31])]), 'DATA_LENGTH'); // input 0 is checked first
    // Empty tensors with huge other dims are fine (0 elements).
    const r = ops.relu(f32([0, 2 ** 40, 2 ** 40], new Float32Array(0))) as Any;
    expect(r.shape).toEqual([0, 2 ** 40, 2 ** 40]);
    expect(r.data.length).toBe(0);
    const m = ops.max([f32([0, 2 ** 40, 1], new Float32Array(0)), f32([0, 1, 2 ** 40], new Float32Array(0))]) as Any;
    expect(m.shape).toEqual([0, 2 ** 40, 2 ** 40]);
    const e = ops.tensor('float64', [2 ** 45, 0, 2 ** 45]);
    expect(e.size).toBe(0);
    e.dispose();
  });

  test('more than a 4 GiB wasm memory', () => {
    noAllocation(() => ops.tensor('float64', [2 ** 29]), 'TOO_LARGE');
    noAllocation(() => ops.tensor('float32', [2 ** 30]), 'TOO_LARGE'); // exactly 4 GiB
    noAllocation(() => ops.tensor('uint8', [2 ** 32]), 'TOO_LARGE');
    noAllocation(() => ops.tensor('bfloat16', [2 ** 16, 2 ** 15]), 'TOO_LARGE');
    noAllocation(() => ops.tensor('int64', [2 ** 29, 1, 1]), 'TOO_LARGE');
    // The broadcast result of small inputs is too large: before any input is copied in.
    const col = (n: number) => ({ dtype: 'float32', shape: [n, 1], data: new Float32Array(n) });
    const row = (n: number) => ({ dtype: 'float32', shape: [1, n], data: new Float32Array(n) });
    noAllocation(() => ops.max([col(2 ** 15), row(2 ** 15)]), 'TOO_LARGE');
    noAllocation(() => ops.max([col(2 ** 20), row(2 ** 20)]), 'TOO_LARGE');
    const u8col = { dtype: 'uint8', shape: [2 ** 16, 1], data: new Uint8Array(2 ** 16) };
    const u8row = { dtype: 'uint8', shape: [1, 2 ** 16], data: new Uint8Array(2 ** 16) };
    noAllocation(() => ops.max([u8col, u8row]), 'TOO_LARGE');
    expectUsable(ops);
  });

  test('ranks in the thousands', () => {
    for (const rank of [65, 100, 1000, 5000, 100000]) {
      noAllocation(() => ops.relu(f32(new Array(rank).fill(1))), 'INVALID_SHAPE');
      noAllocation(() => ops.tensor('float32', new Array(rank).fill(1)), 'INVALID_SHAPE');
      noAllocation(() => ops.max([f32([1]), f32(new Array(rank).fill(1))]), 'INVALID_SHAPE');
      noAllocation(() => broadcastShapes([1], new Array(rank).fill(1)), 'INVALID_SHAPE');
    }
    // Rank 64 is the limit and works, also broadcast against a rank-1 input.
    const r64 = new Array(64).fill(1);
    r64[63] = 2;
    const m = ops.max([{ dtype: 'int32', shape: r64, data: new Int32Array([5, -5]) }, new Int32Array([0, 0])]) as Any;
    expect(m.shape).toEqual(r64);
    expect(Array.from(m.data as ArrayLike<number>)).toEqual([5, 0]);
  });

  test('bad dims: NaN, negative, fractional, strings, BigInt, Infinity, holes', () => {
    const bad: unknown[] = [NaN, -1, -0.5, 1.5, '2', 2n, Infinity, -Infinity, null, undefined, true, {}, [2],
      2 ** 53, Number.MAX_VALUE, -(2 ** 31), Number.MIN_VALUE];
    for (const d of bad) { // none is an integer from 0 to 2^53 - 1
      for (const shape of [[d], [2, d], [d, 0]]) {
        noAllocation(() => ops.relu(f32(shape, new Float32Array(2))), 'INVALID_SHAPE');
        noAllocation(() => ops.relu({ type: 'float32', dims: shape, data: new Float32Array(2) } as Any),
          'INVALID_SHAPE');
        noAllocation(() => ops.tensor('float32', shape as Any), 'INVALID_SHAPE');
        noAllocation(() => ops.max([f32([2], new Float32Array(2)), f32(shape, new Float32Array(2))]),
          'INVALID_SHAPE');
      }
    }
    noAllocation(() => ops.relu(f32([1, , 2] as Any)), 'INVALID_SHAPE');
    noAllocation(() => ops.tensor('float32', new Int32Array([2]) as Any), 'INVALID_SHAPE');
    noAllocation(() => ops.tensor('float32', { length: 1, 0: 2 } as Any), 'INVALID_SHAPE');
  });
});

describe('things that are not tensors', () => {
  test('in place of tensors, arrays and options', () => {
    const base = ops.memoryStats();
    // Each junk value in each place, with the outcome it must have there.
    const calls: [string, () => unknown, Outcome][] = [];
    JUNK.forEach((j, k) => {
      const one = new Float32Array(1);
      calls.push(
        [`relu(JUNK[${k}])`, () => ops.relu(j as Any), expectedRelu(j)],
        [`max([JUNK[${k}]])`, () => ops.max([j] as Any), expectedMax([j])],
        [`max([one, JUNK[${k}]])`, () => ops.max([one, j] as Any), expectedMax([one, j])],
        [`max(JUNK[${k}])`, () => ops.max(j as Any), expectedMax(j)],
        [`relu(one, JUNK[${k}])`, () => ops.relu(one, j as Any), expectedRelu(one, j)],
        [`max([one], JUNK[${k}])`, () => ops.max([one], j as Any), expectedMax([one], j)],
        [`tensor(JUNK[${k}], [1])`, () => ops.tensor(j as Any, [1]), expectedTensor(j, [1])],
        [`tensor('float32', JUNK[${k}])`, () => ops.tensor('float32', j as Any), expectedTensor('float32', j)],
        [`tensor('float32', [1], JUNK[${k}])`, () => ops.tensor('float32', [1], j as Any), expectedTensor('float32', [1], j)],
      );
      // No junk value names an operator; only undefined is a valid opset (the newest).
      expectOnnxError(() => ops.supportedDtypes(j as Any), 'INVALID_ARGUMENT');
      if (j === undefined) expect(ops.supportedDtypes('Max', j)).toEqual(ops.supportedDtypes('Max'));
      else expectOnnxError(() => ops.supportedDtypes('Max', j as Any), 'INVALID_OPSET');
    });
    for (const [what, call, want] of calls) {
      const res = callContract(call);
      try {
        expectOutcome(res, want, what);
      } finally {
        if (res.ok && res.value instanceof WasmTensor) res.value.dispose();
      }
    }
    // Clear cases, with their codes.
    expectOnnxError(() => ops.max([]), 'ARITY');
    expectOnnxError(() => (ops.relu as Any)(), 'ARITY');
    expectOnnxError(() => ops.relu([] as Any), 'ARITY');
    expectOnnxError(() => ops.relu([new Float32Array(1), new Float32Array(1)] as Any), 'ARITY');
    expectOnnxError(() => ops.relu(null as Any), 'INVALID_ARGUMENT');
    expectOnnxError(() => ops.relu(5 as Any), 'INVALID_ARGUMENT');
    expectOnnxError(() => ops.relu('x' as Any), 'INVALID_ARGUMENT');
    expectOnnxError(() => ops.relu({} as Any), 'INVALID_ARGUMENT');
    expectOnnxError(() => ops.relu(new DataView(new ArrayBuffer(4)) as Any), 'INVALID_ARGUMENT');
    expectOnnxError(() => ops.max(new Float32Array(2) as Any), 'INVALID_ARGUMENT');
    expectOnnxError(() => ops.max({ length: 1, 0: new Float32Array(1) } as Any), 'INVALID_ARGUMENT');
    expectOnnxError(() => ops.max([null] as Any), 'INVALID_ARGUMENT');
    expectOnnxError(() => ops.max([undefined] as Any), 'INVALID_ARGUMENT');
    expectOnnxError(() => ops.relu(new Float32Array(1), null as Any), 'INVALID_ARGUMENT');
    expectOnnxError(() => ops.relu(new Float32Array(1), { opset: 0 }), 'INVALID_OPSET');
    expectOnnxError(() => ops.relu(new Float32Array(1), { opset: '13' as Any }), 'INVALID_OPSET');
    expectOnnxError(() => ops.relu(new Float32Array(1), { out: {} as Any }), 'INVALID_ARGUMENT');
    expectOnnxError(() => ops.relu(new Int8Array(1), { opset: 13 }), 'DTYPE_NOT_ALLOWED');
    expectOnnxError(() => ops.relu(new Uint8Array(1)), 'DTYPE_NOT_ALLOWED');
    expectOnnxError(() => ops.max([new Int32Array(1)], { opset: 11 }), 'DTYPE_NOT_ALLOWED');
    expectOnnxError(() => ops.max([new Float32Array(2), new Float32Array(3)]), 'BROADCAST_MISMATCH');
    expectOnnxError(() => ops.max([new Float32Array(1), new Float32Array(3)], { opset: 7 }), 'SHAPE_MISMATCH');
    expectOnnxError(() => ops.max([new Float32Array(1), new Float64Array(1)]), 'DTYPE_MISMATCH');
    for (const d of BAD_DTYPES) {
      expectOnnxError(() => ops.relu({ dtype: d, shape: [1], data: new Float32Array(1) } as Any), 'UNKNOWN_DTYPE');
      expectOnnxError(() => ops.tensor(d as Any, [1]), 'UNKNOWN_DTYPE');
    }
    expectStatsBack(ops, base);
    expectUsable(ops);
  });

  test('typed arrays of the wrong class for the dtype', () => {
    const base = ops.memoryStats();
    for (const d of DTYPES) {
      for (const C of TYPED_CTORS) {
        const data = new (C as Any)(2);
        const accepted = data instanceof DTYPE_INFO[d].array || (d === 'uint8' && C === Uint8ClampedArray);
        const call = () => ops.max([{ dtype: d, shape: [2], data }]);
        if (accepted) {
          const r = call() as Any;
          expect(r.data).toBeInstanceOf(DTYPE_INFO[d].array);
          expect(r.dtype).toBe(d);
          const t = ops.tensor(d, [2], data);
          t.dispose();
        } else {
          expectOnnxError(call, 'INVALID_ARGUMENT');
          expectOnnxError(() => ops.tensor(d, [2], data), 'INVALID_ARGUMENT');
          expectOnnxError(() => ops.relu({ type: d, dims: [2], data } as Any), 'INVALID_ARGUMENT'); // the data before the dtype's opset
        }
      }
    }
    // float16/bfloat16 take raw bits in a Uint16Array; Int16Array is rejected.
    expectOnnxError(() => ops.relu({ dtype: 'float16', shape: [1], data: new Int16Array(1) } as Any), 'INVALID_ARGUMENT');
    expectOnnxError(() => ops.relu({ dtype: 'int64', shape: [1], data: new Float64Array(1) } as Any), 'INVALID_ARGUMENT');
    expectStatsBack(ops, base);
  });

  test('data shorter or longer than the shape', () => {
    const base = ops.memoryStats();
    for (const d of DTYPES) {
      const A = DTYPE_INFO[d].array;
      for (const [shape, n] of [[[3], 2], [[3], 4], [[2, 2], 3], [[2, 2], 5], [[], 0], [[], 2], [[0], 1], [[2, 0], 1]] as [number[], number][]) {
        expectOnnxError(() => ops.max([{ dtype: d, shape, data: new A(n) }]), 'DATA_LENGTH');
        expectOnnxError(() => ops.tensor(d, shape, new A(n)), 'DATA_LENGTH');
      }
    }
    expectStatsBack(ops, base);
  });
});
