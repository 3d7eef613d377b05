// The gateway owns no collection. Loading the MongoDB driver and mongoose cost it ~13 MB of heap
// that every mark-compact walked, ~30 MB of resident memory and 0.14 s of start-up
// (docs/PERFORMANCE.md, "The gateway without a database driver"); the services' MongoDB side
// lives in @plaza/service-kit, which the gateway does not import.
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
