/** Unit tests of event: specs beside the code, run from source with swc. */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'event',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
