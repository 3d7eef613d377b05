/** Unit tests of gateway: specs beside the code, run from source with swc. */
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'gateway',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
