/**
 * End-to-end tests against the real stack: global setup starts FerretDB (or mongod), nats-server,
 * every service and the gateway as separate processes on free ports, and loads the fixtures
 * through the importer CLI. Suites share that stack; each uses its own users and records.
 */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'api-e2e',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.e2e-spec.ts'],
  testPathIgnorePatterns: ['/faults/', '/start/'],
  globalSetup: '<rootDir>/src/support/global-setup.ts',
  // stops the stack, after checking that every engine branch ran in this run's mode (engine-branches.ts)
  globalTeardown: '<rootDir>/src/support/engine-branches-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
};
