/** Unit tests of importer: specs beside the code, run from source with swc. */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'importer',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
