// Peers for the benchmark. Every factory is async and returns
//   { name, supports(op, dtype), relu(x), max(inputs) }
// where x / inputs[i] is a tensor-like {dtype, shape, data} (or a bare typed
// array, dtype taken from its constructor) and the result is the output typed
// array (fresh, owned by the caller), so results can be checked.
//
// onnxruntime-web and tfjs are imported lazily, so this module (and the plain
// JS peer and the copy limit) can be used without bench/node_modules. Pages
// import it too (bench/browser/page.mjs): they pass the loaded packages in, and
// Node modules are only imported when they do not.

import { buildModel } from './onnx-model.mjs';
import { ARRAY_TYPES, asTensor, jsMax, jsRelu } from './common.mjs';

/** require() relative to this file, in Node only. */
async function nodeRequire() {
  const { createRequire } = await import('node:module');
  return createRequire(import.meta.url);
}

// ---------------------------------------------------------------- onnxruntime-web
/**
 * ONNX dtype support of the onnxruntime-web 1.30 wasm CPU kernels (found by probing).
 * In a page, `ort` is the loaded module and `wasmPaths` the URL of its dist/ folder.
 */
export async function createOrtPeer({ probe = true, ort, wasmPaths } = {}) {
  ort ??= await import('onnxruntime-web');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  ort.env.wasm.simd = true;
  if (wasmPaths) ort.env.wasm.wasmPaths = wasmPaths;
  ort.env.logLevel = 'error';
  const version = ort.env.versions?.web ?? (await nodeRequire())('onnxruntime-web/package.json').version;
  const sessions = new Map(); // key -> Promise<InferenceSession|null>
  const key = (op, dtype, shapes) => `${op}|${dtype}|${JSON.stringify(shapes)}`;

  async function session(op, dtype, shapes) {
    const k = key(op, dtype, shapes);
    if (!sessions.has(k)) {
      sessions.set(k, ort.InferenceSession.create(buildModel({ op, dtype, shapes }), {
        executionProviders: ['wasm'],
        graphOptimizationLevel: 'all',
      }).catch(() => null));
    }
    return sessions.get(k);
  }

  async function run(op, tensors) {
    const dtype = tensors[0].dtype;
    const shapes = tensors.map((t) => t.shape);
    const s = await session(op, dtype, shapes);
    if (!s) throw new Error(`onnxruntime-web: no ${op} kernel for ${dtype}`);
    const feeds = {};
    for (let i = 0; i < tensors.length; i++) feeds[`x${i}`] = new ort.Tensor(dtype, tensors[i].data, tensors[i].shape);
    const r = await s.run(feeds);
    const y = r.y.data;
    // Where the engine has Float16Array, ort-web returns float16 as one: compare its bits.
    return dtype === 'float16' && !(y instanceof Uint16Array) ? new Uint16Array(y.buffer, y.byteOffset, y.length) : y;
  }

  // Probe dtype support once (session creation fails for unsupported types).
  const support = new Map();
  async function supportsAsync(op, dtype) {
    const k = `${op}|${dtype}`;
    if (!support.has(k)) {
      const s = await session(op === 'relu' ? 'Relu' : 'Max', dtype, op === 'relu' ? [[1]] : [[1], [1]]);
      support.set(k, !!s);
    }
    return support.get(k);
  }
  if (probe) {
    for (const dt of Object.keys(ARRAY_TYPES)) { await supportsAsync('relu', dt); await supportsAsync('max', dt); }
  }

  return {
    name: 'ort-web',
    version,
    async: true,
    supports: (op, dtype) => support.get(`${op}|${dtype}`) ?? false,
    supportsAsync,
    /** Pre-create the session for a workload so its creation is not timed. */
    prepare: async (op, dtype, shapes) => !!(await session(op === 'relu' ? 'Relu' : 'Max', dtype, shapes)),
    relu: (x) => run('Relu', [asTensor(x)]),
    max: (inputs) => run('Max', inputs.map((t) => asTensor(t))),
    /** drop cached sessions (frees their wasm memory) */
    async clear() {
      for (const p of sessions.values()) { const s = await p; if (s) await s.release(); }
      sessions.clear();
    },
  };
}

// ---------------------------------------------------------------- tfjs (wasm backend)
/** In a page, `tf` is tfjs-core, `wasm` the wasm backend and `wasmPaths` the URL of its dist/ folder. */
export async function createTfjsPeer({ tf, wasm, wasmPaths } = {}) {
  tf ??= await import('@tensorflow/tfjs-core');
  wasm ??= await import('@tensorflow/tfjs-backend-wasm');
  if (!wasmPaths) {
    // In Node the backend reads the .wasm file from a file-system path.
    const path = await import('node:path');
    wasmPaths = path.join(path.dirname((await nodeRequire()).resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + path.sep;
  }
  wasm.setWasmPaths(wasmPaths);
  wasm.setThreadsCount?.(1);
  const ok = await tf.setBackend('wasm');
  await tf.ready();
  if (!ok || tf.getBackend() !== 'wasm') throw new Error(`tfjs: wasm backend did not start (backend=${tf.getBackend()})`);
  const simd = tf.env().getBool('WASM_HAS_SIMD_SUPPORT');
  const threads = tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT');
  const tfDtype = { float32: 'float32', int32: 'int32' };

  const mk = (t) => tf.tensor(t.data, t.shape, tfDtype[t.dtype]);
  return {
    name: 'tfjs-wasm',
    version: tf.version_core,
    backend: tf.getBackend(),
    simd,
    threads,
    async: false,
    supports: (op, dtype) => dtype in tfDtype,
    relu(x) {
      const t = asTensor(x);
      if (!(t.dtype in tfDtype)) throw new Error(`tfjs: ${t.dtype} not supported`);
      // dataSync outside tidy: tidy() would walk every element of a returned typed array
      const y = tf.tidy(() => tf.relu(mk(t)));
      try { return y.dataSync(); } finally { y.dispose(); }
    },
    max(inputs) {
      const ts = inputs.map((i) => asTensor(i));
      if (!(ts[0].dtype in tfDtype)) throw new Error(`tfjs: ${ts[0].dtype} not supported`);
      const y = tf.tidy(() => {
        let acc = mk(ts[0]);
        for (let i = 1; i < ts.length; i++) acc = tf.maximum(acc, mk(ts[i]));
        return acc;
      });
      try { return y.dataSync(); } finally { y.dispose(); }
    },
    numTensors: () => tf.memory().numTensors,
  };
}

// ---------------------------------------------------------------- plain JS
export async function createJsPeer() {
  return {
    name: 'js',
    async: false,
    supports: () => true,
    relu(x) { const t = asTensor(x); return jsRelu(t.dtype, t.data); },
    max(inputs) {
      const ts = inputs.map((i) => asTensor(i));
      return jsMax(ts[0].dtype, ts).data;
    },
  };
}

// ---------------------------------------------------------------- copy limit
// Hand-assembled wasm module:
//   (module
//     (memory (export "memory") 1)
//     (func (export "copy") (param $dst i32) (param $src i32) (param $len i32)
//       local.get 0  local.get 1  local.get 2  memory.copy))
const COPY_WASM = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x01, 0x07, 0x01, 0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x00, // type sec: (i32 i32 i32) -> ()
  0x03, 0x02, 0x01, 0x00, // func sec: 1 func of type 0
  0x05, 0x03, 0x01, 0x00, 0x01, // memory sec: 1 memory, min 1 page, no max
  0x07, 0x11, 0x02, // export sec (17 bytes), 2 exports
  0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02, 0x00, // "memory" memory 0
  0x04, 0x63, 0x6f, 0x70, 0x79, 0x00, 0x00, // "copy" func 0
  0x0a, 0x0e, 0x01, 0x0c, 0x00, // code sec (14 bytes), 1 body of 12 bytes, 0 locals
  0x20, 0x00, 0x20, 0x01, 0x20, 0x02, // local.get 0 1 2
  0xfc, 0x0a, 0x00, 0x00, // memory.copy mem0 mem0
  0x0b, // end
]);
export { COPY_WASM };

/**
 * The "physical limit" yardstick: memory.copy of `len` bytes inside one wasm
 * memory (reads len bytes, writes len bytes). To match a workload that moves
 * R bytes in and W bytes out, copy (R + W) / 2 bytes.
 *
 * prepare(len, placement) offers COPY_PLACEMENTS placements of source and
 * destination (shifted by a page and a cache line each, the destination by
 * 1 KiB more, so their distance differs too): on this kind of VM a
 * copy of a few hundred KB is sometimes twice as slow in one placement as in
 * another, and the limit is the fastest (run.mjs keeps the best of them).
 */
export const COPY_PLACEMENTS = 3;
const PLACEMENT_STEP = 4096 + 64;
export async function createCopyLimit() {
  const { instance } = await WebAssembly.instantiate(COPY_WASM);
  const { memory, copy } = instance.exports;
  let capacity = 0;
  const align = (x) => Math.ceil(x / 64) * 64;
  // Each placement also moves the destination against the source (by a
  // further 1 KiB + 64 bytes), so the placements differ in their distance
  // modulo the page as well.
  const step = (placement) => placement * (PLACEMENT_STEP + 1088);
  const span = (len) => align(len) + step(COPY_PLACEMENTS);
  function prepare(len, placement = 0) {
    const need = 2 * span(len) + 64;
    if (memory.buffer.byteLength < need) memory.grow(Math.ceil((need - memory.buffer.byteLength) / 65536));
    if (len > capacity) {
      // fill the sources with non-zero data once (untouched pages would be cheaper to read)
      const src = new Uint8Array(memory.buffer, 0, span(len));
      for (let i = 0; i < src.length; i += 4096) src[i] = (i >> 12) & 0xff;
      new Uint8Array(memory.buffer, span(len), span(len)).fill(1);
      capacity = len;
    }
    const src = placement * PLACEMENT_STEP;
    const dst = span(len) + step(placement);
    return () => copy(dst, src, len);
  }
  return {
    name: 'copy',
    async: false,
    /** returns a zero-arg function that performs one copy of `len` bytes */
    prepare,
    /** one copy of len bytes; returns a view of the copied bytes (for checking) */
    run(len) { prepare(len)(); return new Uint8Array(memory.buffer, span(len), len); },
    memory,
  };
}

// ---------------------------------------------------------------- plain floor
/**
 * The "plain floor" yardstick: the data movement any library whose kernels run
 * in wasm must do in a plain call, with nothing computed: every input copied
 * into a block of wasm memory (`ops.tensor('uint8', [block])`, public API only),
 * piece by piece, then the result's bytes copied out of it into a fresh array
 * (`freshBytes(outBytes)`, made as the library makes one) or into a
 * caller-supplied one. One function per block size: 256 KiB (the library's
 * scratch size) stays in L2, 2 MiB does not; callers keep the faster.
 */
export const FLOOR_BLOCKS = [256 * 1024, 2 * 1024 * 1024];
export function createPlainFloor(ops, inputs, outBytes, freshBytes, blocks = FLOOR_BLOCKS) {
  const srcs = inputs.map((t) => new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  const target = new Uint8Array(outBytes);
  const tensors = [];
  const movers = blocks.map((size) => {
    const block = ops.tensor('uint8', [size]);
    tensors.push(block);
    return (dst) => {
      const blk = block.data; // a fresh view: memory may have grown
      for (const src of srcs) for (let o = 0; o < src.length; o += size) blk.set(src.subarray(o, o + size));
      for (let o = 0; o < outBytes; o += size) dst.set(blk.subarray(0, Math.min(size, outBytes - o)), o);
      return dst;
    };
  });
  return {
    fresh: movers.map((move) => () => move(freshBytes(outBytes))),
    into: movers.map((move) => () => move(target)),
    dispose: () => { for (const t of tensors) t.dispose(); },
  };
}

/** All peers; the ones whose packages are missing are reported in `errors`. */
export async function createPeers({ only } = {}) {
  const factories = { 'ort-web': createOrtPeer, 'tfjs-wasm': createTfjsPeer, js: createJsPeer };
  const peers = [];
  const errors = {};
  for (const [name, f] of Object.entries(factories)) {
    if (only && !only.includes(name)) continue;
    try { peers.push(await f()); } catch (e) { errors[name] = String(e?.message ?? e); }
  }
  return { peers, errors };
}
