// Shared, dependency-free helpers for the bench: deterministic random data,
// the `js` peer's plain loops, output comparison and command-line options.
// The dtype tables and the expected results come from the oracle (oracle.mjs,
// the tests' reference). No Node APIs: pages import it too (bench/browser/page.mjs).

import { ARRAY_TYPES, BYTES, DTYPES, bfloat16ToNumber, float16ToNumber, refBroadcast } from './oracle.mjs';

export { ARRAY_TYPES, BYTES, DTYPES };

export const isFloat = (dt) => dt === 'float32' || dt === 'float64' || dt === 'float16' || dt === 'bfloat16';
export const isUnsigned = (dt) => dt.startsWith('uint');

/** dtype of a bare typed array (Uint16Array is taken as uint16). */
export function dtypeOfArray(a) {
  for (const dt of DTYPES) {
    if (dt === 'float16' || dt === 'bfloat16') continue;
    if (a instanceof ARRAY_TYPES[dt]) return dt;
  }
  throw new Error(`not a supported typed array: ${a?.constructor?.name}`);
}

/** Normalize a tensor-like ({dtype,shape,data} | {type,dims,data} | bare typed array) */
export function asTensor(x, dtype) {
  if (ArrayBuffer.isView(x)) return { dtype: dtype ?? dtypeOfArray(x), shape: [x.length], data: x };
  const dt = x.dtype ?? x.type ?? dtype ?? dtypeOfArray(x.data);
  const shape = x.shape ?? x.dims ?? [x.data.length];
  return { dtype: dt, shape: [...shape], data: x.data };
}

export const sizeOf = (shape) => shape.reduce((a, b) => a * b, 1);

/** numpy-style broadcast of several shapes (the oracle's rule); throws when they do not broadcast. */
export function broadcastShapes(shapes) {
  const out = refBroadcast(shapes);
  if (!out) throw new Error(`shapes not broadcastable: ${JSON.stringify(shapes)}`);
  return out;
}

// ---------------------------------------------------------------- float16 / bfloat16
// The js peer decodes float16 by table lookup, as a hand-written JS kernel would.
const F16_TABLE = Float32Array.from({ length: 65536 }, (_, h) => float16ToNumber(h));
export const f16IsNaN = (h) => (h & 0x7c00) === 0x7c00 && (h & 0x03ff) !== 0;
export const bf16IsNaN = (h) => (h & 0x7f80) === 0x7f80 && (h & 0x007f) !== 0;

// ---------------------------------------------------------------- random data
/** Small fast deterministic PRNG (mulberry32) returning uint32. */
export function prng(seed = 1) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/**
 * Random data for the benchmark: NaN-free, Inf-free, no -0 (so every peer must
 * agree bit for bit), about half of the values negative for signed types.
 */
export function randomData(dtype, n, seed = 1) {
  const A = ARRAY_TYPES[dtype];
  const a = new A(n);
  const r = prng(seed);
  switch (dtype) {
    case 'float32': case 'float64':
      for (let i = 0; i < n; i++) a[i] = (r() / 4294967296 - 0.5) * 200 || 1;
      break;
    case 'float16':
      for (let i = 0; i < n; i++) {
        let h = r() & 0xffff;
        if ((h & 0x7c00) === 0x7c00) h &= 0xbfff; // no Inf/NaN: clear top exponent bit
        if (h === 0x8000) h = 0;
        a[i] = h;
      }
      break;
    case 'bfloat16':
      for (let i = 0; i < n; i++) {
        let h = r() & 0xffff;
        if ((h & 0x7f80) === 0x7f80) h &= 0xbfff;
        if (h === 0x8000) h = 0;
        a[i] = h;
      }
      break;
    case 'int64': case 'uint64': {
      const u = new Uint32Array(a.buffer, a.byteOffset, n * 2);
      for (let i = 0; i < u.length; i++) u[i] = r();
      break;
    }
    default: {
      // 8/16/32-bit integers: fill raw bytes from 32-bit words
      const bytes = n * A.BYTES_PER_ELEMENT;
      const u = new Uint32Array(Math.ceil(bytes / 4));
      for (let i = 0; i < u.length; i++) u[i] = r();
      new Uint8Array(a.buffer, a.byteOffset, bytes).set(new Uint8Array(u.buffer, 0, bytes));
    }
  }
  return a;
}

/** Edge values per dtype for the correctness check (NaN, Inf, ±0, extremes, denormals). */
export function edgeValues(dtype) {
  switch (dtype) {
    case 'float32': case 'float64': {
      const tiny = dtype === 'float32' ? 1.401298464324817e-45 : Number.MIN_VALUE;
      const big = dtype === 'float32' ? 3.4028234663852886e38 : Number.MAX_VALUE;
      return [NaN, Infinity, -Infinity, 0, -0, tiny, -tiny, big, -big, 1, -1, 0.5, -2.5];
    }
    case 'float16':
      return [0x7e00, 0xfe00, 0x7c01, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x0001, 0x8001, 0x7bff, 0xfbff, 0x3c00, 0xbc00];
    case 'bfloat16':
      return [0x7fc0, 0xffc0, 0x7f81, 0x7f80, 0xff80, 0x0000, 0x8000, 0x0001, 0x8001, 0x7f7f, 0xff7f, 0x3f80, 0xbf80];
    case 'int8': return [-128, 127, 0, -1, 1];
    case 'int16': return [-32768, 32767, 0, -1, 1];
    case 'int32': return [-2147483648, 2147483647, 0, -1, 1];
    case 'int64': return [-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n, 1n, 2n ** 40n, -(2n ** 40n)];
    case 'uint8': return [0, 255, 1, 128, 127];
    case 'uint16': return [0, 65535, 1, 32768, 32767];
    case 'uint32': return [0, 4294967295, 1, 2147483648, 2147483647];
    case 'uint64': return [0n, 2n ** 64n - 1n, 1n, 2n ** 63n, 2n ** 63n - 1n];
    default: throw new Error(dtype);
  }
}

/** Random data sprinkled with edge values (deterministic). */
export function checkData(dtype, n, seed = 1) {
  const a = randomData(dtype, n, seed);
  const e = edgeValues(dtype);
  const r = prng(seed * 7919 + 13);
  for (let i = 0; i < n; i++) if (r() % 4 === 0) a[i] = e[r() % e.length];
  return a;
}

// ---------------------------------------------------------------- the js peer
// Plain JS loops, timed as the `js` peer (Math.max: NaN-propagating, not the
// library's first-NaN rule; the bench's data have no NaN). Expected results
// come from the oracle, not from these. Each dtype gets its own copy of each loop (built with
// new Function), so V8 sees one typed-array type per loop and keeps the
// element accesses monomorphic, as a hand-written per-type loop would.

const f16Max = (a, b) => {
  const fa = F16_TABLE[a], fb = F16_TABLE[b];
  if (fa !== fa) return a;
  if (fb !== fb) return b;
  if (fa > fb) return a;
  if (fb > fa) return b;
  return a & 0x8000 ? b : a; // equal (incl. ±0): prefer +0, like Math.max
};
const bf16Max = (a, b) => {
  const fa = bfloat16ToNumber(a), fb = bfloat16ToNumber(b);
  if (fa !== fa) return a;
  if (fb !== fb) return b;
  if (fa > fb) return a;
  if (fb > fa) return b;
  return a & 0x8000 ? b : a;
};

// expression for max(x, y) and relu(x) per dtype family
function exprs(dtype) {
  switch (dtype) {
    case 'float32': case 'float64':
      return { max: 'Math.max(x, y)', relu: 'Math.max(x, 0)' }; // NaN-propagating, max(-0,+0)=+0
    case 'float16': return { max: 'K(x, y)', relu: '(x & 0x7c00) === 0x7c00 && (x & 0x3ff) ? x : (x & 0x8000 ? 0 : x)' };
    case 'bfloat16': return { max: 'K(x, y)', relu: '(x & 0x7f80) === 0x7f80 && (x & 0x7f) ? x : (x & 0x8000 ? 0 : x)' };
    case 'int64': return { max: 'x > y ? x : y', relu: 'x < 0n ? 0n : x' };
    case 'uint8': case 'uint16': case 'uint32': case 'uint64': return { max: 'x > y ? x : y', relu: 'x' };
    default: return { max: 'x > y ? x : y', relu: 'x < 0 ? 0 : x' };
  }
}

const KERNELS = new Map();
function kernels(dtype) {
  if (KERNELS.has(dtype)) return KERNELS.get(dtype);
  const e = exprs(dtype);
  const K = dtype === 'float16' ? f16Max : dtype === 'bfloat16' ? bf16Max : null;
  const make = (src) => new Function('K', `"use strict"; return ${src}`)(K);
  const k = {
    relu: make(`function relu_${dtype}(a, out, n) {
      for (let i = 0; i < n; i++) { const x = a[i]; out[i] = ${e.relu}; } }`),
    // same-shape: out[i] = max(a[i], b[i])
    max: make(`function max_${dtype}(a, b, out, n) {
      for (let i = 0; i < n; i++) { const x = a[i], y = b[i]; out[i] = ${e.max}; } }`),
    // one strided row: out[o + i] = max(a[ao + i*as], b[bo + i*bs]), strides 0 or 1
    row: make(`function row_${dtype}(a, ao, as, b, bo, bs, out, o, n) {
      if (as === 1 && bs === 1) for (let i = 0; i < n; i++) { const x = a[ao + i], y = b[bo + i]; out[o + i] = ${e.max}; }
      else if (bs === 0) { const y = b[bo]; for (let i = 0; i < n; i++) { const x = a[ao + i * as]; out[o + i] = ${e.max}; } }
      else if (as === 0) { const x = a[ao]; for (let i = 0; i < n; i++) { const y = b[bo + i * bs]; out[o + i] = ${e.max}; } }
      else for (let i = 0; i < n; i++) { const x = a[ao + i * as], y = b[bo + i * bs]; out[o + i] = ${e.max}; } }`),
  };
  KERNELS.set(dtype, k);
  return k;
}

/** The plain JS loops of a dtype (relu(a, out, n), max(a, b, out, n), row(...)). */
export const plainLoops = (dtype) => kernels(dtype);

/** The js peer's Relu: a fresh typed array. */
export function jsRelu(dtype, data) {
  const out = new ARRAY_TYPES[dtype](data.length);
  if (isUnsigned(dtype)) out.set(data); // identity
  else kernels(dtype).relu(data, out, data.length);
  return out;
}

/** out = max(a, b) with numpy broadcasting; a/b shapes may be of any rank (incl. 0). */
function broadcastMax(dtype, a, aShape, b, bShape) {
  const outShape = broadcastShapes([aShape, bShape]);
  const total = sizeOf(outShape);
  const out = new ARRAY_TYPES[dtype](total);
  const k = kernels(dtype);
  if (total === 0) return { data: out, shape: outShape };
  if (a.length === total && b.length === total) { k.max(a, b, out, total); return { data: out, shape: outShape }; }
  const rank = outShape.length;
  // strides (0 on broadcast dims); innermost dimension as one row call
  const strides = (shape) => {
    const st = new Array(rank).fill(0);
    let s = 1;
    for (let i = shape.length - 1; i >= 0; i--) {
      const o = rank - shape.length + i;
      st[o] = shape[i] === 1 ? 0 : s;
      s *= shape[i];
    }
    return st;
  };
  const as = strides(aShape), bs = strides(bShape);
  const inner = rank ? outShape[rank - 1] : 1;
  const ai = rank ? as[rank - 1] : 0, bi = rank ? bs[rank - 1] : 0;
  const idx = new Array(Math.max(rank - 1, 0)).fill(0);
  let ao = 0, bo = 0;
  for (let o = 0; o < total; o += inner) {
    k.row(a, ao, ai, b, bo, bi, out, o, inner);
    // odometer over the outer dimensions
    for (let d = rank - 2; d >= 0; d--) {
      idx[d]++; ao += as[d]; bo += bs[d];
      if (idx[d] < outShape[d]) break;
      ao -= as[d] * idx[d]; bo -= bs[d] * idx[d]; idx[d] = 0;
    }
  }
  return { data: out, shape: outShape };
}

/** The js peer's Max over K >= 1 inputs [{data, shape}] of one dtype. Returns {data, shape}. */
export function jsMax(dtype, inputs) {
  if (inputs.length === 1) return { data: inputs[0].data.slice(), shape: [...inputs[0].shape] };
  let cur = broadcastMax(dtype, inputs[0].data, inputs[0].shape, inputs[1].data, inputs[1].shape);
  for (let i = 2; i < inputs.length; i++) {
    cur = broadcastMax(dtype, cur.data, cur.shape, inputs[i].data, inputs[i].shape);
  }
  return cur;
}

// ---------------------------------------------------------------- comparison
const bytesOf = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
/** Byte equality, a word at a time where both views allow it. */
function sameBytes(x, y) {
  if (x.byteLength !== y.byteLength) return false;
  const words = x.byteOffset % 4 === 0 && y.byteOffset % 4 === 0 && x.byteLength % 4 === 0;
  const a = words ? new Int32Array(x.buffer, x.byteOffset, x.byteLength / 4) : bytesOf(x);
  const b = words ? new Int32Array(y.buffer, y.byteOffset, y.byteLength / 4) : bytesOf(y);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function looseEqual(dtype, x, y) {
  if (x === y) return true;
  switch (dtype) {
    case 'float32': case 'float64':
      return (x !== x && y !== y); // NaN payloads may differ; ±0 already equal with ===
    case 'float16':
      return (f16IsNaN(x) && f16IsNaN(y)) || ((x & 0x7fff) === 0 && (y & 0x7fff) === 0);
    case 'bfloat16':
      return (bf16IsNaN(x) && bf16IsNaN(y)) || ((x & 0x7fff) === 0 && (y & 0x7fff) === 0);
    default: return false;
  }
}

/**
 * Compare two outputs. mode 'bits': byte-identical. mode 'loose': also accept
 * any NaN for NaN and either sign of zero for zero (for float dtypes).
 * Returns null when equal, else { index, expected, got, mismatches, reason }.
 */
export function compareOutputs(dtype, expected, got, mode = 'bits') {
  const A = ARRAY_TYPES[dtype];
  if (!got || !ArrayBuffer.isView(got)) return { reason: `output is not a typed array (${got?.constructor?.name})` };
  if (!(got instanceof A)) return { reason: `output is ${got.constructor.name}, expected ${A.name}` };
  if (got.length !== expected.length) return { reason: `length ${got.length}, expected ${expected.length}` };
  if (sameBytes(expected, got)) return null;
  // find mismatches (bitwise, or with loose float equality)
  const bpe = A.BYTES_PER_ELEMENT;
  const eb = bytesOf(expected), gb = bytesOf(got);
  let first = -1, count = 0;
  for (let i = 0; i < expected.length; i++) {
    let same = true;
    for (let j = i * bpe, end = j + bpe; j < end; j++) if (eb[j] !== gb[j]) { same = false; break; }
    if (!same && mode === 'loose') same = looseEqual(dtype, expected[i], got[i]);
    if (!same) { if (first < 0) first = i; count++; }
  }
  if (count === 0) return null;
  const show = (v) => (typeof v === 'bigint' ? `${v}n` : (isFloat(dtype) && dtype !== 'float32' && dtype !== 'float64') ? `0x${v.toString(16).padStart(4, '0')}` : Object.is(v, -0) ? '-0' : String(v));
  return { index: first, expected: show(expected[first]), got: show(got[first]), mismatches: count, reason: `${count} element(s) differ` };
}

/** A command-line option: `--name=value` gives the value, a bare `--name` true, none `fallback`. */
export function cliOption(argv, name, fallback) {
  const a = argv.find((x) => x === `--${name}` || x.startsWith(`--${name}=`));
  if (a === undefined) return fallback;
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : true;
}
