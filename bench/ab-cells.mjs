// The A/B cells of bench/ab.mjs, shared by its Node and browser runs: each
// cell is one call of a build's ops, made ready (tensors, data) up front;
// compare() times two builds' cells in alternating batches.

// Deterministic data: uniform in [-1, 1) (float32/float64), finite float16
// bits of either sign, or int8.
function lcg(n, seed, make) {
  let s = seed;
  for (let i = 0; i < n; i++) { s = (s * 1103515245 + 12345) >>> 0; make(i, s); }
}
function rnd(n, seed, Array = Float32Array) { const a = new Array(n); lcg(n, seed, (i, s) => { a[i] = (s / 2 ** 32) * 2 - 1; }); return a; }
function rndHalf(n, seed) { const a = new Uint16Array(n); lcg(n, seed, (i, s) => { a[i] = (s >>> 16) & 0xbbff; }); return a; }
function rndInt8(n, seed) { const a = new Int8Array(n); lcg(n, seed, (i, s) => { a[i] = (s >>> 24) - 128; }); return a; }

/**
 * The cells of a build's ops, by name: zero-copy calls (zc) on its tensors,
 * plain calls on arrays. With `only`, just the cells whose names contain one
 * of its strings are made (their data allocated), so that a page or process
 * holds no more memory than the cells timed need.
 */
export function cells(ops, only = null) {
  const c = {};
  const def = (name, make) => { if (!only || only.some((f) => name.includes(f))) c[name] = make(); };
  const size = (shape) => shape.reduce((a, b) => a * b, 1);
  const T = (shape, seed, dtype = 'float32') => {
    const n = size(shape);
    const data = dtype === 'float16' ? rndHalf(n, seed) : dtype === 'int8' ? rndInt8(n, seed)
      : rnd(n, seed, dtype === 'float64' ? Float64Array : Float32Array);
    return ops.tensor(dtype, shape, data);
  };
  // max2(shapeA, shapeB): zero-copy Max of two tensors into an output tensor.
  const max2 = (name, sa, sb, so, dtype) => def(name, () => {
    const x = T(sa, 1, dtype), y = T(sb, 2, dtype), out = T(so, 3, dtype);
    return () => ops.max([x, y], { out });
  });
  for (const n of [16, 1e4]) {
    def(`zc relu n=${n} out`, () => { const x = T([n], 1), out = T([n], 3); return () => ops.relu(x, { out }); });
    max2(`zc max2 n=${n} out`, [n], [n], [n]);
  }
  def('zc max2 n=16 no out', () => { const x = T([16], 1), y = T([16], 2); return () => ops.max([x, y]).dispose(); });
  // Two different calls in turn, as a model's layers make them: no call repeats the one before it.
  def('zc max2+relu n=16 out, in turn', () => {
    const x = T([16], 1), y = T([16], 2), t = T([16], 3), out = T([16], 4);
    return () => { ops.max([x, y], { out: t }); ops.relu(t, { out }); };
  });
  def('zc max2+max2 n=16 out, in turn', () => {
    const x = T([16], 1), y = T([16], 2), z = T([16], 5), t = T([16], 3), out = T([16], 4);
    return () => { ops.max([x, y], { out: t }); ops.max([t, z], { out }); };
  });
  const max3 = (n) => () => { const x = T([n], 1), y = T([n], 2), z = T([n], 4), out = T([n], 3); return () => ops.max([x, y, z], { out }); };
  def('zc max3 n=1e4 out', max3(1e4));
  def('zc max3 n=1e6 out', max3(1e6));
  for (const [n, name] of [[3e5, '3e5'], [1e6, '1e6'], [4e6, '4e6']]) {
    def(`zc relu n=${name} out`, () => { const x = T([n], 1), out = T([n], 3); return () => ops.relu(x, { out }); });
  }
  max2('zc max2 n=1e6 out', [1e6], [1e6], [1e6]);
  max2('zc max2 f16 n=1e6 out', [1e6], [1e6], [1e6], 'float16');
  max2('zc max2 i8 n=1e6 out', [1e6], [1e6], [1e6], 'int8');
  max2('zc max2 f64 n=1e6 out', [1e6], [1e6], [1e6], 'float64');
  max2('zc max2 f64 n=1e4 out', [1e4], [1e4], [1e4], 'float64');
  max2('zc bcast [10,1024]+[1024] out', [10, 1024], [1024], [10, 1024]);
  max2('zc bcast [1000,1024]+[1024] out', [1000, 1024], [1024], [1000, 1024]);
  max2('zc bcast [1000,1024]+[1000,1] out', [1000, 1024], [1000, 1], [1000, 1024]);
  max2('zc bcast [1000,1]+[1,1024] out', [1000, 1], [1, 1024], [1000, 1024]);
  max2('zc bcast [16384,8]+[16384,1] out', [16384, 8], [16384, 1], [16384, 8]);
  max2('zc bcast [16384,8]+[8] out', [16384, 8], [8], [16384, 8]);
  max2('zc bcast [64,16,64]+[64,1,64] out', [64, 16, 64], [64, 1, 64], [64, 16, 64]);
  max2('zc bcast [4,16,64]+[4,1,64] out', [4, 16, 64], [4, 1, 64], [4, 16, 64]);
  max2('zc bcast [64,16,256]+[64,1,256] out', [64, 16, 256], [64, 1, 256], [64, 16, 256]);
  max2('zc max2 [1e6]+[] out', [1e6], [], [1e6]);
  for (const n of [16, 1e3, 1e4, 1e5, 3e5, 1e6, 4e6]) {
    def(`plain relu n=${n}`, () => { const x = rnd(n, 1); return () => ops.relu(x); });
    def(`plain max2 n=${n}`, () => { const x = rnd(n, 1), y = rnd(n, 2); return () => ops.max([x, y]); });
    // Into a typed array made once: no fresh array, whose page faults swamp browser timings.
    def(`plain+out relu n=${n}`, () => { const x = rnd(n, 1), out = new Float32Array(n); return () => ops.relu(x, { out }); });
    def(`plain+out max2 n=${n}`, () => { const x = rnd(n, 1), y = rnd(n, 2), out = new Float32Array(n); return () => ops.max([x, y], { out }); });
  }
  for (const n of [1e5, 1e6]) {
    def(`plain+out max3 n=${n}`, () => { const x = rnd(n, 1), y = rnd(n, 2), z = rnd(n, 4), out = new Float32Array(n); return () => ops.max([x, y, z], { out }); });
  }
  // plainMax2(name, shapeA, shapeB): plain Max of two float32 tensors, A's shape the result's, into an array made once.
  const P = (shape, seed) => ({ dtype: 'float32', shape, data: rnd(size(shape), seed) });
  const plainMax2 = (name, sa, sb) => def(name, () => {
    const x = P(sa, 1), y = P(sb, 2), out = new Float32Array(size(sa));
    return () => ops.max([x, y], { out });
  });
  plainMax2('plain+out bcast [1000,1024]+[1024]', [1000, 1024], [1024]);
  plainMax2('plain+out bcast [1000,1024]+[1000,1]', [1000, 1024], [1000, 1]);
  plainMax2('plain+out max2 [1e6]+[]', [1e6], []);
  return c;
}

/** µs per call of f over batches of at least ms. */
function batch(f, ms) {
  let k = 0; const t0 = performance.now(); let t;
  do { for (let i = 0; i < 16; i++) f(); k += 16; t = performance.now() - t0; } while (t < ms);
  return (t * 1e3) / k;
}

/**
 * Times the cells of two builds (ca, cb from cells(), made with the same
 * filter), alternating A and B batches of at least `batchMs` over `rounds`
 * rounds after three warm-up rounds: rows of the medians and of the fastest
 * batches (the least disturbed by other work).
 */
export function compare(ca, cb, { batchMs = 25, rounds = 21 } = {}) {
  const rows = [];
  for (const name of Object.keys(ca)) {
    for (let w = 0; w < 3; w++) { batch(ca[name], 40); batch(cb[name], 40); }
    const ra = [], rb = [];
    for (let r = 0; r < rounds; r++) {
      if (r % 2) { rb.push(batch(cb[name], batchMs)); ra.push(batch(ca[name], batchMs)); }
      else { ra.push(batch(ca[name], batchMs)); rb.push(batch(cb[name], batchMs)); }
    }
    const med = (v) => v.sort((p, q) => p - q)[v.length >> 1];
    rows.push({ name, a: med(ra), b: med(rb), fastA: ra[0], fastB: rb[0] });
  }
  return rows;
}

/** compare()'s rows as a Markdown table. */
export function table(rows) {
  const pct = (x, y) => `${((y / x - 1) * 100).toFixed(1)} %`;
  return ['| cell | A µs | B µs | B vs A (median) | B vs A (fastest batch) |', '| --- | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.name} | ${r.a.toFixed(3)} | ${r.b.toFixed(3)} | ${pct(r.a, r.b)} | ${pct(r.fastA, r.fastB)} |`)].join('\n');
}
