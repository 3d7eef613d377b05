// The gateway owns no collection. Loading the MongoDB driver and mongoose took 9 MB of its live
// heap, which every mark-compact walks, and 10-16 MiB of its resident memory (docs/PERFORMANCE.md,
// "The gateway without a database driver"); the services' MongoDB side lives in
// @plaza/service-kit, which the gateway does not import.
jest.mock('mongoose', () => {
  throw new Error('the gateway loaded mongoose');
});
jest.mock('mongodb', () => {
  throw new Error('the gateway loaded the MongoDB driver');
});

describe('the gateway process', () => {
  // its module graph takes in the whole @plaza/platform barrel, as every import of the lib does
  it('loads no database driver: not through @plaza/platform, not through its own modules', () => {
    expect(() => require('./gateway.module')).not.toThrow();
  });
});
