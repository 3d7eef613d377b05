/**
 * `npm test`'s `e2e-mongodb` step: the suites that reach an engine-specific branch of a repository
 * (docs/ENGINES.md) or write, run a second time on a stack whose services take the MongoDB branch
 * (DATABASE_MODE=mongodb) against the local engine: the branch production runs is executed by every
 * test run. The teardown fails the run when a branch of engine-branches.ts never ran. The other
 * suites (reads by `_id`, the gateway, security) do not depend on the branch and run once, in `e2e`.
 */
const base = require('./jest.config.js');

const suites = [
  // book: search (every tier, tags, paging), collections (lists, tags, concurrent writes), reviews and
  // the import (the book's compare-and-swap), reads of books and series
  'book/search', 'book/search-order', 'book/collections', 'book/reviews', 'book/import', 'book/books',
  // movie: search, and the import (its only write path)
  'movie/search', 'movie/import',
  // note and event: their write paths
  'note/notes-crud', 'note/notes-likes', 'note/notes-comments',
  'event/event-participation', 'event/event-concurrency',
];

module.exports = {
  ...base,
  displayName: 'api-e2e-mongodb',
  testMatch: suites.map((s) => `<rootDir>/src/${s}.e2e-spec.ts`),
  globalSetup: '<rootDir>/src/support/mongodb-mode-setup.ts',
  globalTeardown: '<rootDir>/src/support/engine-branches-teardown.ts',
};
