/** Unit tests of pictures: specs beside the code, run from source with swc. */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'pictures',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
