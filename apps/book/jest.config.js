/** Unit tests of book: specs beside the code, run from source with swc. */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'book',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
