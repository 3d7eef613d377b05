import { lazyLru } from './lazy-lru';

describe('lazyLru', () => {
  it('holds at most its number of entries, forgetting the least recently used first', () => {
    const cache = lazyLru<string, number>(3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1);
    cache.set('d', 4);
    expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd']);
    expect(cache.size).toBe(3);
  });

  it('allocates no table for the entries it may hold', () => {
    // lru-cache's `max` would allocate its key and value lists for every entry up front
    const cache = lazyLru<string, number>(100_000);
    expect(cache.max).toBe(0);
    expect(cache.maxSize).toBe(100_000);
  });

  it('keeps entries only for their time to live when given one', async () => {
    const cache = lazyLru<string, number>(10, { ttl: 10 });
    cache.set('a', 1);
    expect(cache.get('a')).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(cache.get('a')).toBeUndefined();
  });
});
