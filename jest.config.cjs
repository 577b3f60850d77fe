// Jest runs the TypeScript sources (ts-jest, CommonJS) against the CommonJS
// build of the wasm module in build/wasm (made by `npm run build:wasm`).
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests/js'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: { module: 'commonjs', moduleResolution: 'node', esModuleInterop: true, strict: true, target: 'ES2022', useDefineForClassFields: false, types: ['jest', 'node'], isolatedModules: true } }],
  },
  moduleNameMapper: {
    '^\\./wasm/onnx-ops-wasm\\.js$': '<rootDir>/build/wasm/module/cjs/onnx-ops-wasm.js',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testTimeout: 60000,
};
