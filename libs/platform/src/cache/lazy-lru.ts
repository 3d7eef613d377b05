import { LRUCache } from 'lru-cache';

/**
 * An LRU cache of at most `maxEntries` entries whose memory grows with what it holds. lru-cache
 * given `max` allocates its tables for all `max` entries at once (about 2.6 MB for 100 000, most
 * of it resident from the start); bounded by `maxSize` with every entry counted as 1, it evicts
 * at the same count and allocates as entries come. For the gateway's per-caller tables, sized for
 * a flood of callers and nearly empty at rest (docs/PERFORMANCE.md, "Memory").
 */
export function lazyLru<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(maxEntries: number, options: { ttl?: number } = {}): LRUCache<K, V> {
  return new LRUCache<K, V>({ maxSize: Math.max(1, maxEntries), sizeCalculation: () => 1, ...options });
}
