/**
 * Fault tests: each suite starts its own stack (FerretDB, NATS, every service, the gateway) and
 * breaks it on purpose: kills a service, restarts NATS, stops the database, sends SIGTERM.
 * They run one at a time, after the shared-stack e2e suites.
 */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'faults',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/faults/**/*.e2e-spec.ts'],
  testTimeout: 120_000,
  maxWorkers: 1,
};
