// Jest runs the tests against the package as it ships: its CommonJS build,
// dist/cjs/index.js (made by `npm run build`; `node scripts/build-js.mjs`
// remakes it from js/src and build/wasm in a few seconds). Every test imports
// it as 'onnx-ops-wasm' (tsconfig.json's `paths` give tsc its declarations,
// dist/types). ts-jest compiles the tests only (transpiling: tsc checks types).
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests/js'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: { module: 'commonjs', moduleResolution: 'node', esModuleInterop: true, strict: true, target: 'ES2022', useDefineForClassFields: false, types: ['jest', 'node'], isolatedModules: true } }],
  },
  moduleNameMapper: {
    '^onnx-ops-wasm$': '<rootDir>/dist/cjs/index.js',
    // js/src's own '.js' specifiers, for the tests that read a source module (abi.ts) directly.
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testTimeout: 60000,
};
