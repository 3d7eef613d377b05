/** All unit-test projects (specs beside the code). The e2e suites have their own config in apps/api-e2e. */
const { readdirSync, existsSync } = require('node:fs');
const { join } = require('node:path');

const projects = ['libs', 'apps', 'tools'].flatMap((group) =>
  readdirSync(join(__dirname, group))
    .filter((name) => !name.endsWith('-e2e'))
    .map((name) => join(__dirname, group, name, 'jest.config.js'))
    .filter((file) => existsSync(file)),
);

module.exports = { projects };
