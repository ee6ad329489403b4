import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Two projects: fast pure unit tests, and e2e tests that share one database per run. ESM throughout. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const common = {
  rootDir: root,
  // The transform cache lives in this checkout (each project needs it set), so another checkout
  // on the same machine can never hand a test a stale compiled module.
  cacheDirectory: path.join(root, 'node_modules', '.cache', 'jest'),
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: path.join(root, 'tsconfig.json') }] },
};
export default {
  rootDir: root,
  testTimeout: 120000,
  // Each test file loads the whole AppModule (and the providers' SDKs) into a fresh module registry,
  // and a long in-band run kept every one of them: a shard's process grew past 3 GB and crawled in
  // garbage collection near V8's heap limit (CI timed out). One worker process per shard instead,
  // replaced by a fresh one whenever it sits above this much memory between files.
  maxWorkers: 1,
  workerIdleMemoryLimit: '1200MB',
  // `npm test` runs two shards side by side (test/run.js); this splits them by measured weight.
  testSequencer: '<rootDir>/test/support/sequencer.js',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.js',
      globalTeardown: '<rootDir>/test/support/global-teardown.js',
    },
  ],
};
