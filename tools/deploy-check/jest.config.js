/** Unit tests of deploy-check (the rules, on small fixtures): fast, no tools or engines needed. */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'deploy-check',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
