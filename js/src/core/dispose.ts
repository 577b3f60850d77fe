/**
 * The keys of `using` and `await using`: a WasmTensor's dispose() and the
 * worker form's close() are also under them.
 */
declare global {
  // What TypeScript's esnext.disposable library declares, so that the declarations need no such lib.
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
}

// The runtime's symbols, or where it lacks them, the keys esbuild's and Babel's helpers then look up.
export const DISPOSE: typeof Symbol.dispose = (Symbol.dispose ?? Symbol.for('Symbol.dispose')) as typeof Symbol.dispose;
export const ASYNC_DISPOSE: typeof Symbol.asyncDispose = (Symbol.asyncDispose ?? Symbol.for('Symbol.asyncDispose')) as typeof Symbol.asyncDispose;
