/**
 * The element kinds of the JavaScript kernels (kernels.ts), for engines
 * that cannot run the wasm module: each dtype's element loops over typed
 * arrays, written from the ONNX spec pages and the library's documented
 * semantics (README, "Semantics"), not from any other part of the library:
 *
 * - a NaN wins, and Max of two NaNs keeps the first, bit for bit (payload
 *   and sign); Relu of a NaN is that NaN;
 * - +0 is greater than -0 (Max(-0, +0) = +0, Relu(-0) = +0);
 * - float16 and bfloat16 (raw bits in a Uint16Array) compare as the numbers
 *   they encode;
 * - int64 and uint64 compare exactly (uint64 unsigned).
 *
 * Every result is an input's bits moved through an integer view, never a
 * float read and written back: engines may canonicalise a NaN they store
 * through a float array. Each kind has one selection row loop, over a run
 * where each operand steps by 0 (one value) or 1, made at load for each
 * sense (the order a selection's winner is chosen by), and its unary loops.
 */

/** The dtypes these kernels take (the library's twelve). */
export type KernelDType =
  | 'float32' | 'float64' | 'float16' | 'bfloat16'
  | 'int8' | 'int16' | 'int32' | 'int64'
  | 'uint8' | 'uint16' | 'uint32' | 'uint64';

/**
 * Where a tensor's elements lie: `length` elements of the dtype from
 * `byteOffset` (a multiple of the element size). Given as numbers, read by
 * the caller through the engine's own getters, so that a typed array whose
 * class overrides them cannot point the kernels elsewhere.
 */
export interface Storage {
  readonly buffer: ArrayBufferLike;
  readonly byteOffset: number;
  readonly length: number;
}

/** The number views one kind of element is read and written through. */
export interface Views {
  /** The integer view that moves bits (two words per element for 64-bit kinds). */
  readonly w: Int32Array | Int16Array | Int8Array | Uint8Array | Uint16Array | Uint32Array;
  /** float64 only: the values, for comparing. */
  readonly f?: Float64Array;
}

/** An operand of a row: its views, the element the row starts at, and its step (0: one value, or 1). */
export interface Run {
  readonly v: Views;
  at: number;
  readonly step: number;
}

/**
 * One kind of element: how its views are made, and its loops over element
 * indices, each an op's element primitive given by the op's data.
 */
export interface Kind {
  views(d: Storage): Views;
  /**
   * out[o + i] = p or q for i < n, p and q the i-th elements of a and b: q
   * where p is no NaN and q is a NaN or above p in the order of the kind's
   * sense, else p (so the first NaN wins, bit for bit).
   */
  select(n: number, a: Run, b: Run, out: Views, o: number): void;
  /** out[i] = x[i] where it is a NaN or at or above +0, else +0, for i < n (Relu); out may be x. */
  keep(n: number, x: Views, out: Views): void;
}

/** The order a selection's winner is chosen by, as a mask XORed into every key: 0, the larger wins; -1 (reversing integers' order), the smaller. */
export type Sense = 0 | -1;

/** A view of d's storage as `C`, of `per` C elements per element. */
const view = <T>(C: new (b: ArrayBufferLike, at: number, n: number) => T, d: Storage, per = 1): T =>
  new C(d.buffer, d.byteOffset, d.length * per);

/**
 * Every dtype of up to 32 bits, read as integers through one view class per
 * width (Uint8Array, Int16Array or Uint16Array, Int32Array: the loops below
 * see four kinds of array, where V8's element access stays fast, not ten)
 * and ordered by a key of the bits, k(u) = u ^ (((u >> shift) & m) | flip):
 * - integers (m = 0): the flip sets the sign bit where the view's order is
 *   not the dtype's (int8 and int16 through unsigned views, uint32 through a
 *   signed one);
 * - float32, float16, bfloat16 (signed views of their width, m = 2^shift - 1,
 *   flip = 0): non-NaN patterns order as their numbers, -0 just below +0;
 *   a NaN is a pattern whose magnitude (u & m) is above infinity's, `inf`.
 * As the flip and (u >> shift) & m never share a bit, the loop XORs in the
 * flip and the sense at once: a selection in reversed order costs nothing.
 * Results are selected by masks, not branches: NaNs and signs in random data
 * would mispredict them.
 */
const keyedKind = (C: new (b: ArrayBufferLike, at: number, n: number) => Views['w'], shift: number, m: number,
  inf: number, flip: number, sense: Sense): Kind => ({
  views: (d) => ({ w: view(C, d) }),
  select(n, a, b, out, o) {
    let ia = a.at, ib = b.at;
    const sa = a.step, sb = b.step;
    const x = a.v.w, y = b.v.w, r = out.w;
    const f = flip ^ sense;
    // Masks of -1 where p is no NaN, where q is one, and where q's key is above p's in the sense's order.
    for (let i = 0; i < n; i++, ia += sa, ib += sb) {
      const p = x[ia], q = y[ib];
      const pNumber = ((p & m) - inf - 1) >> 31;
      const qNaN = ~(((q & m) - inf - 1) >> 31);
      const qAbove = -((q ^ (((q >> shift) & m) ^ f)) > (p ^ (((p >> shift) & m) ^ f)));
      r[o + i] = p ^ ((p ^ q) & pNumber & (qNaN | qAbove));
    }
  },
  keep(n, x, out) {
    const s = x.w, r = out.w;
    // Kept where u ^ flip lies above `keep`: for integers, where the key is at
    // or above zero's (flip); for floats, where the view's signed value is
    // above -inf's pattern (sign clear, or a NaN). One compare, no key.
    const keep = m === 0 ? flip - 1 : inf - 2 ** shift;
    for (let i = 0; i < n; i++) {
      const v = s[i];
      r[i] = v & -((v ^ flip) > keep);
    }
  },
});
const intKind = (C: new (b: ArrayBufferLike, at: number, n: number) => Views['w'], flip: number, sense: Sense) =>
  keyedKind(C, 0, 0, 0, flip, sense);
const floatKind = (C: new (b: ArrayBufferLike, at: number, n: number) => Views['w'], shift: number, inf: number, sense: Sense) =>
  keyedKind(C, shift, 2 ** shift - 1, inf, 0, sense);

/**
 * float64: values compared as numbers, bits moved as two int32 words (little
 * endian: the high word, with the sign, second).
 */
const float64 = (sense: Sense): Kind => ({
  views: (d) => ({ w: view(Int32Array, d, 2), f: view(Float64Array, d) }),
  select(n, a, b, out, o) {
    let ia = a.at, ib = b.at;
    const sa = a.step, sb = b.step;
    const x = a.v.f!, y = b.v.f!, xw = a.v.w, yw = b.v.w, r = out.w, rf = out.f!;
    for (let i = 0; i < n; i++, ia += sa, ib += sb) {
      const p = x[ia], q = y[ib];
      const k = o + i;
      // Two numbers: Math.max, or Math.min in reversed order, through the float view; a NaN's bits through the words.
      if (p === p && q === q) {
        rf[k] = sense === 0 ? Math.max(p, q) : Math.min(p, q);
      } else if (p !== p) {
        r[2 * k] = xw[2 * ia];
        r[2 * k + 1] = xw[2 * ia + 1];
      } else {
        r[2 * k] = yw[2 * ib];
        r[2 * k + 1] = yw[2 * ib + 1];
      }
    }
  },
  keep(n, x, out) {
    const s = x.w, r = out.w;
    for (let i = 0; i < 2 * n; i += 2) {
      const lo = s[i], hi = s[i + 1];
      // At or below -inf's pattern (0xfff00000_00000000), as float32 above.
      const keep = ~-(+(hi < -0x100000) | (+(hi === -0x100000) & +(lo === 0)));
      r[i] = lo & keep;
      r[i + 1] = hi & keep;
    }
  },
});

/** int64 and uint64 as two int32 words: the high words compare first (signed or not), then the low ones unsigned. */
const int64 = (signed: boolean, sense: Sense): Kind => ({
  views: (d) => ({ w: view(Int32Array, d, 2) }),
  select(n, a, b, out, o) {
    let ia = a.at, ib = b.at;
    const sa = a.step, sb = b.step;
    const x = a.v.w, y = b.v.w, r = out.w;
    // Unsigned order is signed order with the sign bit flipped; the sense XORed in as into 32-bit keys.
    const hf = (signed ? 0 : -0x80000000) ^ sense, lf = -0x80000000 ^ sense;
    for (let i = 0; i < n; i++, ia += sa, ib += sb) {
      const pl = x[2 * ia], ph = x[2 * ia + 1], ql = y[2 * ib], qh = y[2 * ib + 1];
      const takeQ = -(+((qh ^ hf) > (ph ^ hf)) | (+(qh === ph) & +((ql ^ lf) > (pl ^ lf))));
      const k = o + i;
      r[2 * k] = pl ^ ((pl ^ ql) & takeQ);
      r[2 * k + 1] = ph ^ ((ph ^ qh) & takeQ);
    }
  },
  keep(n, x, out) {
    const s = x.w, r = out.w;
    if (!signed) {
      if (s !== r) r.set(s.subarray(0, 2 * n));
      return;
    }
    for (let i = 0; i < 2 * n; i += 2) {
      const keep = ~(s[i + 1] >> 31);
      r[i] = s[i] & keep;
      r[i + 1] = s[i + 1] & keep;
    }
  },
});

/** Every kind, its selection in the order of `sense`. */
const kindsOf = (s: Sense): Readonly<Record<KernelDType, Kind>> => ({
  float32: floatKind(Int32Array, 31, 0x7f800000, s), float64: float64(s), float16: floatKind(Int16Array, 15, 0x7c00, s),
  bfloat16: floatKind(Int16Array, 15, 0x7f80, s),
  int8: intKind(Uint8Array, 0x80, s), int16: intKind(Uint16Array, 0x8000, s), int32: intKind(Int32Array, 0, s), int64: int64(true, s),
  uint8: intKind(Uint8Array, 0, s), uint16: intKind(Uint16Array, 0, s), uint32: intKind(Int32Array, -0x80000000, s), uint64: int64(false, s),
});

/** The kinds by sense, made once at load (a unary op's loops are any sense's). */
export const KINDS: Readonly<Record<Sense, Readonly<Record<KernelDType, Kind>>>> = { 0: kindsOf(0), [-1]: kindsOf(-1) };

export const BYTES: Readonly<Record<KernelDType, number>> = {
  float32: 4, float64: 8, float16: 2, bfloat16: 2, int8: 1, int16: 2, int32: 4, int64: 8,
  uint8: 1, uint16: 2, uint32: 4, uint64: 8,
};
