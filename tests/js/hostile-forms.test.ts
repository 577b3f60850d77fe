// The hostile suite (hostile-helpers.ts), valid calls: random shapes,
// broadcasts, opsets and dtypes through every input form (plain, ort, bare,
// wasm, offset and shared views, dtype numbers and upper-case names), every
// kind of out (none, a fresh or in-place wasm tensor, a typed array, in place
// on an input), and the 4 KiB scratch block: bit-exact results, inputs never
// modified, nothing leaked.
import fc from 'fast-check';
import { DTYPE_INFO, DTYPES, WasmTensor, type DType } from 'onnx-ops-wasm';
import { count, refMax, refRelu } from './reference';
import {
  type Any, FORMS, RELU_DTYPES, SEED, checkResultShape, copyBytes, expectBytes, expectStatsBack, makeBytes, makeInput,
  ops, plainOf, resultBytes, tiny, useSharedInstances,
} from './hostile-helpers';

useSharedInstances();

describe('valid calls through every input form give exact results (property)', () => {
  const shapeArb = fc.record({
    rank: fc.integer({ min: 0, max: 4 }),
    dims: fc.array(fc.constantFrom(0, 1, 1, 1, 2, 3, 4, 5, 7, 17, 33), { minLength: 4, maxLength: 4 }),
    n: fc.integer({ min: 1, max: 4 }),
    drops: fc.array(fc.nat(4), { minLength: 4, maxLength: 4 }),
    masks: fc.array(fc.nat(15), { minLength: 4, maxLength: 4 }),
    forms: fc.array(fc.constantFrom(...FORMS), { minLength: 4, maxLength: 4 }),
    seed: fc.integer(),
    outMode: fc.constantFrom('none', 'none', 'fresh', 'inplace', 'typed', 'typedInplace'),
    tinyScratch: fc.boolean(),
    outOffset: fc.boolean(),
  });

  /** A typed array for `out`, fresh, sometimes at an odd element offset of a larger buffer. */
  const typedOut = (dtype: DType, n: number, offset: boolean): Any => {
    const C = DTYPE_INFO[dtype].array;
    if (!offset) return new C(n);
    const size = DTYPE_INFO[dtype].bytes;
    return new C(new ArrayBuffer((n + 3) * size), size, n);
  };

  test('Max', () => {
    fc.assert(fc.property(fc.constantFrom(...DTYPES), shapeArb, fc.constantFrom(undefined, 13, 18, 21),
      (dtype, s, opset) => {
        const o = s.tinyScratch ? tiny : ops;
        const base = o.memoryStats();
        const typed = s.outMode === 'typed' || s.outMode === 'typedInplace';
        let template = s.dims.slice(0, s.rank);
        if (count(template) > 2500) template = template.map((d) => (d > 5 ? 2 : d));
        const shapes = Array.from({ length: s.n }, (_, i) => {
          const drop = s.rank === 0 ? 0 : s.drops[i] % (s.rank + 1);
          return template.slice(drop).map((d, k) => ((s.masks[i] >> k) & 1 ? 1 : d));
        });
        // A typed-array out goes with plain inputs only.
        const forms = s.forms.slice(0, s.n).map((f) => (typed && f === 'wasm' ? 'plain' : f));
        if (s.outMode === 'inplace') {
          shapes[0] = [...template];
          forms[0] = 'wasm';
        }
        if (s.outMode === 'typedInplace') {
          shapes[0] = [...template];
          if (forms[0] === 'wasm' || forms[0] === 'bare') forms[0] = 'plain';
        }
        // The shapes broadcast by construction: the reference gives the result's shape and bytes.
        const bytes = shapes.map((sh, i) => makeBytes(dtype, count(sh), s.seed + i));
        const { shape: out, bytes: want } = refMax(shapes.map((shape, i) => plainOf(dtype, shape, bytes[i])));
        const made = shapes.map((sh, i) => makeInput(o, dtype, sh, bytes[i], forms[i]));
        const before = made.map((m) => m.snapshot());
        let outT: WasmTensor | undefined;
        let outA: Any;
        if (s.outMode === 'fresh') outT = o.tensor(dtype, out);
        if (s.outMode === 'inplace') outT = made[0].tensor;
        if (s.outMode === 'typed') outA = typedOut(dtype, count(out), s.outOffset);
        if (s.outMode === 'typedInplace') outA = made[0].value.data ?? made[0].value;
        const opts: Any = {};
        if (opset !== undefined) opts.opset = opset;
        if (outT) opts.out = outT;
        if (outA) opts.out = outA;
        const what = `Max ${dtype} ${JSON.stringify(shapes)} -> ${JSON.stringify(out)} (${forms}, out ${s.outMode}` +
          `${s.tinyScratch ? ', 4 KiB scratch' : ''})`;
        let r: Any;
        try {
          r = o.max(made.map((m) => m.value), opts);
          checkResultShape(r, dtype, out);
          expectBytes(resultBytes(r), want, what);
          if (outT) expect(r).toBe(outT);
          else expect(r instanceof WasmTensor).toBe(made.some((m) => m.tensor));
          if (outA) expectBytes(copyBytes(outA), want, `${what}: the out array`);
          made.forEach((m, i) => {
            if ((s.outMode === 'inplace' || s.outMode === 'typedInplace') && i === 0) return;
            expectBytes(m.snapshot(), before[i], `${what}: input ${i} (${m.form}) was modified`);
          });
        } finally {
          for (const m of made) m.tensor?.dispose();
          outT?.dispose();
          if (r instanceof WasmTensor) r.dispose();
        }
        expectStatsBack(o, base, what);
      }), { seed: SEED, numRuns: 1500 });
  });

  test('Relu', () => {
    fc.assert(fc.property(fc.constantFrom(...RELU_DTYPES), shapeArb, fc.constantFrom(undefined, 14, 21),
      fc.boolean(), (dtype, s, opset, asArray) => {
        const o = s.tinyScratch ? tiny : ops;
        const base = o.memoryStats();
        const typed = s.outMode === 'typed' || s.outMode === 'typedInplace';
        let shape = s.dims.slice(0, s.rank);
        if (count(shape) > 2500) shape = shape.map((d) => (d > 5 ? 2 : d));
        let form = s.outMode === 'inplace' ? 'wasm' : s.forms[0];
        if (typed && form === 'wasm') form = 'plain';
        const bytes = makeBytes(dtype, count(shape), s.seed);
        const want = refRelu(plainOf(dtype, shape, bytes));
        const m = makeInput(o, dtype, shape, bytes, form);
        const before = m.snapshot();
        let outT: WasmTensor | undefined;
        let outA: Any;
        if (s.outMode === 'fresh') outT = o.tensor(dtype, shape);
        if (s.outMode === 'inplace') outT = m.tensor;
        if (s.outMode === 'typed') outA = typedOut(dtype, count(shape), s.outOffset);
        if (s.outMode === 'typedInplace') outA = m.value.data ?? m.value;
        const opts: Any = {};
        if (opset !== undefined) opts.opset = opset;
        if (outT) opts.out = outT;
        if (outA) opts.out = outA;
        const what = `Relu ${dtype} ${JSON.stringify(shape)} (${form}, out ${s.outMode}${s.tinyScratch ? ', 4 KiB scratch' : ''})`;
        let r: Any;
        try {
          r = o.relu(asArray ? [m.value] : m.value, opts);
          checkResultShape(r, dtype, shape);
          expectBytes(resultBytes(r), want, what);
          if (outA) expectBytes(copyBytes(outA), want, `${what}: the out array`);
          if (s.outMode !== 'inplace' && s.outMode !== 'typedInplace') {
            expectBytes(m.snapshot(), before, `${what}: input was modified`);
          }
        } finally {
          m.tensor?.dispose();
          outT?.dispose();
          if (r instanceof WasmTensor) r.dispose();
        }
        expectStatsBack(o, base, what);
      }), { seed: SEED + 1, numRuns: 1000 });
  });
});
