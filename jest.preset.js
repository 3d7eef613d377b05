/**
 * Shared jest settings: TypeScript through swc (fast, and it emits the decorator metadata Nest's
 * dependency injection reads), workspace libs resolved to their sources so unit tests need no build.
 */
const path = require('node:path');
const root = __dirname;

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@plaza/(contracts|platform|pictures|search|service-kit)$': path.join(root, 'libs/$1/src'),
    '^@plaza/(stack|demo)$': path.join(root, 'tools/$1/src'),
  },
  clearMocks: true,
};
