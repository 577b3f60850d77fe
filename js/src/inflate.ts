/**
 * A zlib inflater (RFC 1950 around RFC 1951's deflate) for the built-in wasm
 * where the runtime has no working DecompressionStream('deflate') (none, or
 * one that throws when made, as in Next.js's edge runtime): a file of its own
 * that the loader imports only there (scripts/build-js.mjs), so that such an
 * engine still runs the SIMD module rather than the scalar one. Small rather
 * than fast: it inflates the one 47 KB module once per realm.
 */

/** A canonical Huffman code: how many codes of each length (1..15), and the symbols in code order. */
interface Code {
  counts: Uint16Array;
  symbols: Uint16Array;
}

function code(lengths: ArrayLike<number>): Code {
  const counts = new Uint16Array(16);
  for (let i = 0; i < lengths.length; i++) counts[lengths[i]]++;
  counts[0] = 0;
  const next = new Uint16Array(16);
  for (let len = 1; len < 16; len++) next[len] = next[len - 1] + counts[len - 1];
  const symbols = new Uint16Array(lengths.length);
  for (let i = 0; i < lengths.length; i++) if (lengths[i]) symbols[next[lengths[i]]++] = i;
  return { counts, symbols };
}

/** Base values and extra bits of the length (257..285) and distance (0..29) symbols, by their rule in RFC 1951 3.2.5. */
function bases(n: number, first: number, step: (i: number) => number): [Uint16Array, Uint8Array] {
  const base = new Uint16Array(n);
  const extra = new Uint8Array(n);
  for (let i = 0, b = first; i < n; i++) {
    extra[i] = step(i);
    base[i] = b;
    b += 1 << extra[i];
  }
  return [base, extra];
}
const [LENGTH_BASE, LENGTH_EXTRA] = bases(29, 3, (i) => (i < 8 || i === 28 ? 0 : (i >> 2) - 1));
LENGTH_BASE[28] = 258;
const [DIST_BASE, DIST_EXTRA] = bases(30, 1, (i) => (i < 4 ? 0 : (i >> 1) - 1));
/** The order the code length code's lengths come in. */
const ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

const bad = (what: string): never => {
  throw new Error(`onnx-ops-wasm: the built-in wasm does not inflate (${what})`);
};

/** The bytes a zlib stream holds; throws on a malformed stream or a wrong checksum. */
export function inflate(input: Uint8Array): Uint8Array {
  let pos = 2;
  let bitBuf = 0;
  let bitCount = 0;
  let out = new Uint8Array(input.length * 4);
  let n = 0;
  if ((input[0] & 15) !== 8 || ((input[0] << 8) | input[1]) % 31 !== 0 || input[1] & 32) bad('no zlib header');

  const bits = (k: number): number => {
    while (bitCount < k) {
      if (pos >= input.length) bad('it ends early');
      bitBuf |= input[pos++] << bitCount;
      bitCount += 8;
    }
    const v = bitBuf & ((1 << k) - 1);
    bitBuf >>>= k;
    bitCount -= k;
    return v;
  };
  const room = (k: number): void => {
    if (n + k <= out.length) return;
    const grown = new Uint8Array(Math.max(out.length * 2, n + k));
    grown.set(out.subarray(0, n));
    out = grown;
  };
  // One bit at a time down the canonical code: codes of each length are consecutive numbers.
  const decode = ({ counts, symbols }: Code): number => {
    let c = 0;
    let first = 0;
    let index = 0;
    for (let len = 1; len < 16; len++) {
      c |= bits(1);
      const count = counts[len];
      if (c - first < count) return symbols[index + c - first];
      index += count;
      first = (first + count) << 1;
      c <<= 1;
    }
    return bad('a code that is none');
  };

  let last;
  do {
    last = bits(1);
    const type = bits(2);
    if (type === 0) {
      // A stored block starts at a byte; bitBuf holds fewer than 8 bits, all padding.
      bitBuf = bitCount = 0;
      if (pos + 4 > input.length) bad('it ends early');
      const len = input[pos] | (input[pos + 1] << 8);
      if ((len ^ (input[pos + 2] | (input[pos + 3] << 8))) !== 0xffff) bad('a stored block\'s length');
      pos += 4;
      if (pos + len > input.length) bad('it ends early');
      room(len);
      out.set(input.subarray(pos, pos + len), n);
      pos += len;
      n += len;
      continue;
    }
    let lit: Code;
    let dist: Code;
    if (type === 1) {
      const lengths = new Uint8Array(288).fill(8, 0, 144).fill(9, 144, 256).fill(7, 256, 280).fill(8, 280);
      lit = code(lengths);
      dist = code(new Uint8Array(30).fill(5));
    } else if (type === 2) {
      const nlit = bits(5) + 257;
      const ndist = bits(5) + 1;
      const nlen = bits(4) + 4;
      const lenLengths = new Uint8Array(19);
      for (let i = 0; i < nlen; i++) lenLengths[ORDER[i]] = bits(3);
      const lenCode = code(lenLengths);
      const lengths = new Uint8Array(nlit + ndist);
      for (let i = 0; i < lengths.length;) {
        const sym = decode(lenCode);
        if (sym < 16) {
          lengths[i++] = sym;
          continue;
        }
        if (sym === 16 && i === 0) bad('a repeat with nothing before it');
        const repeat = sym === 16 ? 3 + bits(2) : sym === 17 ? 3 + bits(3) : 11 + bits(7);
        if (i + repeat > lengths.length) bad('too many code lengths');
        lengths.fill(sym === 16 ? lengths[i - 1] : 0, i, i + repeat);
        i += repeat;
      }
      lit = code(lengths.subarray(0, nlit));
      dist = code(lengths.subarray(nlit));
    } else {
      return bad('block type 3');
    }
    for (;;) {
      const sym = decode(lit);
      if (sym < 256) {
        room(1);
        out[n++] = sym;
      } else if (sym === 256) {
        break;
      } else {
        const l = sym - 257;
        if (l >= 29) bad('a length symbol that is none');
        const len = LENGTH_BASE[l] + bits(LENGTH_EXTRA[l]);
        const d = decode(dist);
        if (d >= 30) bad('a distance symbol that is none');
        const back = DIST_BASE[d] + bits(DIST_EXTRA[d]);
        if (back > n) bad('a distance before the start');
        room(len);
        for (let i = 0; i < len; i++, n++) out[n] = out[n - back];
      }
    }
  } while (!last);

  // Adler-32 of the output, big-endian, after the last block's byte.
  if (pos + 4 > input.length) bad('it ends early');
  let a = 1;
  let b = 0;
  for (let i = 0; i < n;) {
    // Reduced every 5552 bytes, as zlib does; the sums stay exact in doubles between.
    for (const end = Math.min(n, i + 5552); i < end; i++) b += a += out[i];
    a %= 65521;
    b %= 65521;
  }
  const sum = ((input[pos] << 24) | (input[pos + 1] << 16) | (input[pos + 2] << 8) | input[pos + 3]) >>> 0;
  if (((b << 16) | a) >>> 0 !== sum) bad('its checksum');
  return out.slice(0, n);
}
