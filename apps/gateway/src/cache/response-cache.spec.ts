import { REMEMBERED_INVALIDATIONS, ResponseCache } from './response-cache';

const logger = { warn: jest.fn() } as never;

describe('the response cache', () => {
  it('is bounded by the bytes of its keys and answers, dropping the least recently used', () => {
    const cache = new ResponseCache({ maxEntries: 1000, maxBytes: 2000 }, logger);
    const answer = (n: number) => ({ id: String(n), text: 'x'.repeat(480) });
    for (let n = 1; n <= 3; n++) cache.set(`basic /v2/book/${n}?`, answer(n), 'book', [`book:${n}`], 60, cache.generation);
    expect(cache.size).toBe(3);
    cache.get('basic /v2/book/1?'); // the first is used again: the second is now the oldest
    cache.set('basic /v2/book/4?', answer(4), 'book', ['book:4'], 60, cache.generation);
    expect(cache.size).toBe(3);
    expect(cache.get('basic /v2/book/2?')).toBeUndefined();
    expect(cache.get('basic /v2/book/1?')).toEqual(answer(1));
    // dropped entries leave the tag index too: invalidating them finds nothing to drop
    cache.invalidate({ tags: ['book:2'] });
    expect(cache.size).toBe(3);
  });

  it('listens to the invalidations only when it is on', () => {
    const subjects: string[] = [];
    const nc = { subscribe: (subject: string) => (subjects.push(subject), { unsubscribe: () => undefined }) } as never;
    new ResponseCache({ maxEntries: 10, maxBytes: 1 << 20, enabled: false }, logger).start(nc);
    expect(subjects).toEqual([]);
    new ResponseCache({ maxEntries: 10, maxBytes: 1 << 20 }, logger).start(nc);
    expect(subjects).toEqual(['cache.v1.invalidated']);
  });

  it('does not keep an answer larger than the whole bound', () => {
    const cache = new ResponseCache({ maxEntries: 1000, maxBytes: 2000 }, logger);
    cache.set('basic /v2/book/search?q="x"', { books: 'y'.repeat(3000) }, 'book', [], 60, cache.generation);
    expect(cache.size).toBe(0);
  });

  it('serves the answer as sent, with its ETag, and drops answers begun before an invalidation of their area', () => {
    const cache = new ResponseCache({ maxEntries: 10, maxBytes: 1 << 20 }, logger);
    const before = cache.generation;
    cache.invalidate({ areas: ['book'] });
    cache.set('basic /v2/book/1?', { id: '1' }, 'book', ['book:1'], 60, before);
    expect(cache.size).toBe(0);
    cache.set('basic /v2/book/1?', { id: '书' }, 'book', ['book:1'], 60, cache.generation);
    const hit = cache.answer('basic /v2/book/1?');
    expect(hit?.json).toBe('{"id":"书"}');
    expect(hit?.bytes.equals(Buffer.from('{"id":"书"}'))).toBe(true);
    expect(hit?.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });

  it('drops an answer in flight when an invalidation names one of its tags, and keeps it through invalidations of others', () => {
    const cache = new ResponseCache({ maxEntries: 10, maxBytes: 1 << 20 }, logger);
    const before = cache.generation;
    // writes elsewhere while the read of book 1 is in flight
    cache.invalidate({ tags: ['book:2', 'book:3'] });
    cache.invalidate({ areas: ['movie'] });
    cache.invalidate({ tags: ['note:9'] });
    cache.set('basic /v2/book/1?', { id: '1' }, 'book', ['book:1'], 60, before);
    expect(cache.get('basic /v2/book/1?')).toEqual({ id: '1' });
    // a write of book 1 among others
    const during = cache.generation;
    cache.invalidate({ tags: ['book:2'] });
    cache.invalidate({ tags: ['book:4', 'book:1'] });
    cache.invalidate({ tags: ['book:5'] });
    cache.set('basic /v2/book/1?fields=id', { id: 'old' }, 'book', ['book:1'], 60, during);
    expect(cache.get('basic /v2/book/1?fields=id')).toBeUndefined();
  });

  it('does not store an answer begun before the oldest invalidation it remembers', () => {
    const cache = new ResponseCache({ maxEntries: 10, maxBytes: 1 << 20 }, logger);
    const before = cache.generation;
    for (let n = 0; n < REMEMBERED_INVALIDATIONS; n++) cache.invalidate({ tags: [`note:${n}`] });
    cache.set('basic /v2/book/1?', { id: '1' }, 'book', ['book:1'], 60, before);
    expect(cache.size).toBe(1);
    const earlier = cache.generation;
    for (let n = 0; n <= REMEMBERED_INVALIDATIONS; n++) cache.invalidate({ tags: [`note:${n}`] });
    cache.set('basic /v2/book/2?', { id: '2' }, 'book', ['book:2'], 60, earlier);
    expect(cache.get('basic /v2/book/2?')).toBeUndefined();
  });
});
