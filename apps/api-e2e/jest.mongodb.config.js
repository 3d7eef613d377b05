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
  // the import (the book's compare-and-swap), reads of books and series, a user's annotations
  'book/search', 'book/search-order', 'book/collections', 'book/reviews', 'book/import', 'book/books', 'book/annotations',
  // movie: search, and the import (its only write path; IMDb ids are claimed there)
  'movie/search', 'movie/import', 'movie/imdb',
  // note and event: their write paths, and a user's notes after each of them
  'note/notes-crud', 'note/notes-likes', 'note/notes-comments', 'note/notes-lists',
  'event/event-participation', 'event/event-concurrency', 'event/event-search',
  // event: its lists (an event's users, a user's events, private events among them) after each write
  'event/event-list-upkeep', 'event/event-lists', 'event/event-private',
  // imports of users' content: written through the repositories, counters recounted from their sources
  'book/import-user-content', 'note/notes-import',
  // account deletion (every area's erasure, through its write paths) and the change feed (the imports' writes)
  'account/account-deletion', 'changes/changes',
  // not here: account/export, whose pages are ranged reads in `_id` order with no engine branch
  // (libs/service-kit/src/export) and whose import writes through the kinds' paths listed above
];

module.exports = {
  ...base,
  displayName: 'api-e2e-mongodb',
  testMatch: suites.map((s) => `<rootDir>/src/${s}.e2e-spec.ts`),
  globalSetup: '<rootDir>/src/support/mongodb-mode-setup.ts',
  globalTeardown: '<rootDir>/src/support/engine-branches-teardown.ts',
};
