/**
 * What createOps() (index.ts) needs only on unusual hosts, a file of its own
 * that only they load (a literal import(), as the fallbacks): instantiating a
 * compiled WebAssembly.Module (the wasmBinary option, or the one the bundler
 * imported for the 'workerd' and 'edge-light' entry) through the glue's
 * instantiateWasm hook, and why an engine refused to compile wasm from bytes.
 */
import type createOnnxOpsModule from '../../wasm/onnx-ops-wasm.js';
import { NOT_OURS } from '../../options.js';

/**
 * Sets `options.instantiateWasm` to instantiate `source` as it is (nothing
 * compiled from bytes); the glue reports no failure of its hook, so the
 * returned promise rejects with it (NOT_OURS where the module's imports are
 * not the glue's or it lacks an export the glue reads).
 */
export function instantiateFrom(source: WebAssembly.Module, options: NonNullable<Parameters<typeof createOnnxOpsModule>[0]>): Promise<never> {
  return new Promise((_, reject) => {
    options.instantiateWasm = (imports, receive) => {
      Promise.resolve().then(() => {
        // Every import must be one the glue gives, of its kind: a module of another build is not this package's.
        for (const i of WebAssembly.Module.imports(source)) {
          if (typeof (imports[i.module] as Record<string, unknown> | undefined)?.[i.name] !== (i.kind === 'function' ? 'function' : 'object')) throw NOT_OURS;
        }
        return WebAssembly.instantiate(source, imports);
      }).then((instance) => {
        try {
          receive(instance, source);
        } catch {
          throw NOT_OURS;
        }
      }).catch(reject);
      return {};
    };
  });
}

/**
 * Why compiling wasm from bytes failed, from the engine's own error: a host's
 * rule ("disallowed by embedder": workerd, Vercel's edge), a CSP (Chromium's
 * and Firefox's words), or anything else; with the remedy. `builtIn`: the
 * bundler imported the wasm as a module (the 'workerd' and 'edge-light' entry).
 */
export function refusal(e: unknown, builtIn: boolean): string {
  const m = (e as Error)?.message ?? String(e);
  return /embedder/.test(m) ? `this host forbids compiling WebAssembly from bytes, as Cloudflare Workers and Vercel's edge runtime do (${m}): ${
    builtIn ? 'the default backend, wasm-simd, runs here' : 'import onnx-ops-wasm with the \'workerd\' or \'edge-light\' condition (wrangler and Next.js set them), or pass a WebAssembly.Module of onnx-ops-wasm/onnx-ops-wasm.wasm as wasmBinary'
  }` : /Security|CSP/.test(m) ? `a Content-Security-Policy without 'wasm-unsafe-eval' in script-src forbids compiling WebAssembly (${m})` : `this engine refuses to compile WebAssembly from bytes (${m})`;
}
