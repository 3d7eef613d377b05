/**
 * The README's `npm start`, run as a user runs it (its own engines, ports and data folder):
 * first start with the demo catalogue, Ctrl-C, second start on the same data.
 */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'start',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/start/**/*.e2e-spec.ts'],
  testTimeout: 600_000,
  maxWorkers: 1,
};
