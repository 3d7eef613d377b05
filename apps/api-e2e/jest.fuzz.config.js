/**
 * The API fuzzer (`npm test` step "fuzz", docs/RELIABILITY-fuzz.md): one suite that starts a
 * stack of its own, loads the e2e fixtures and runs schemathesis against /v2/openapi.json.
 */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'fuzz',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/fuzz/**/*.fuzz-spec.ts'],
  testTimeout: 600_000,
  maxWorkers: 1,
};
