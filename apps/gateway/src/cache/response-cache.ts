import { CACHE_INVALIDATED, CacheInvalidation } from '@plaza/contracts';
import { Metrics } from '@plaza/platform';
import { LRUCache } from 'lru-cache';
import { etagOf } from '../http/etag';
import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';

interface Entry {
  body: unknown;
  area: string;
  tags: string[];
  /** The body as sent (text and UTF-8 bytes), and its ETag, made on first use and reused by every later hit. */
  json?: string;
  bytes?: Buffer;
  etag?: string;
}

export interface CachedAnswer {
  body: unknown;
  json: string;
  /** `json` encoded once: sending bytes spares every hit the UTF-8 encoding and length count of the text. */
  bytes: Buffer;
  etag: string;
}

/**
 * How many invalidations the cache remembers to judge answers in flight; an answer begun before
 * the oldest of them is not stored. At a thousand writes a second that is about a second: an
 * answer slower than that is sent but not kept.
 */
export const REMEMBERED_INVALIDATIONS = 1024;

/**
 * Answers repeated catalogue reads from memory. Services publish `cache.v1.invalidated` after
 * every write or import (tags such as `book:42`, or whole areas); each gateway replica drops what
 * they name. A response that was in flight while an invalidation naming its area or one of its
 * tags arrived is not stored, so an old answer can never be cached after the write that changed
 * it; invalidations of other books or areas leave it alone, so a stream of writes elsewhere does
 * not keep an answer out of the cache (docs/ARCHITECTURE.md, "Request lifecycle", step 7).
 */
export class ResponseCache {
  private readonly byTag = new Map<string, Set<string>>();
  private readonly byArea = new Map<string, Set<string>>();
  private readonly entries: LRUCache<string, Entry>;
  private generationCounter = 0;
  /** The last invalidations, oldest first: `recent[i]` made the generation `generationCounter - recent.length + 1 + i`. */
  private readonly recent: CacheInvalidation[] = [];
  private subscription?: Subscription;

  /**
   * @param options.enabled false on a gateway whose response cache is off (RESPONSE_CACHE_ENABLED):
   * nothing is stored there, so it does not listen to the invalidations either (every write of
   * the services sends some to every replica).
   */
  constructor(private readonly options: { maxEntries: number; maxBytes: number; enabled?: boolean }, private readonly logger: Logger) {
    this.entries = new LRUCache<string, Entry>({
      max: Math.max(1, options.maxEntries),
      // sizes are given on set (the key and the answer's JSON); an answer over the bound is not kept
      maxSize: options.maxBytes,
      ttlAutopurge: false,
      dispose: (entry, key, reason) => {
        this.unindex(key, entry);
        // room made for newer answers; invalidations are counted where they arrive
        if (reason === 'evict') Metrics.cacheEvent('eviction');
      },
    });
  }

  start(nc: NatsConnection): void {
    if (this.options.enabled === false) return;
    const decoder = new TextDecoder();
    this.subscription = nc.subscribe(CACHE_INVALIDATED.subject, {
      callback: (err, msg) => {
        if (err) return;
        try {
          const packet = JSON.parse(decoder.decode(msg.data)) as { data?: CacheInvalidation };
          this.invalidate(packet.data ?? {});
        } catch (e) {
          this.logger.warn({ err: e }, 'bad cache invalidation message');
        }
      },
    });
  }

  /** Read before asking a service; pass it back to `set` so late answers are dropped. */
  get generation(): number {
    return this.generationCounter;
  }

  get(key: string): unknown | undefined {
    return this.entries.get(key)?.body;
  }

  /** A cached answer with its serialized form and ETag (computed once per entry). */
  answer(key: string): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    entry.json ??= JSON.stringify(entry.body);
    entry.bytes ??= Buffer.from(entry.json);
    entry.etag ??= etagOf(entry.json);
    return { body: entry.body, json: entry.json, bytes: entry.bytes, etag: entry.etag };
  }

  set(key: string, body: unknown, area: string, tags: string[], ttlSeconds: number, generationAtRequest: number): void {
    if (this.invalidatedSince(generationAtRequest, area, tags)) return;
    // serialised now to know its size (every hit sends this text); the process holds about three
    // times it (the object, the text, the bytes), so the bound is a measure, not an exact count
    const json = JSON.stringify(body);
    const size = key.length + Buffer.byteLength(json);
    if (size > this.entries.maxSize) return;
    this.entries.set(key, { body, area, tags, json }, { ttl: ttlSeconds * 1000, size });
    this.index(this.byArea, area, key);
    for (const tag of tags) this.index(this.byTag, tag, key);
  }

  invalidate(what: CacheInvalidation): void {
    this.generationCounter++;
    this.recent.push(what);
    if (this.recent.length > REMEMBERED_INVALIDATIONS) this.recent.shift();
    for (const area of what.areas ?? []) this.dropAll(this.byArea.get(area));
    for (const tag of what.tags ?? []) this.dropAll(this.byTag.get(tag));
  }

  get size(): number {
    return this.entries.size;
  }

  stop(): void {
    this.subscription?.unsubscribe();
  }

  /**
   * Whether an invalidation since `generation` would have dropped an answer of `area` with `tags`
   * had it been stored already; true when some of them are no longer remembered.
   */
  private invalidatedSince(generation: number, area: string, tags: string[]): boolean {
    const since = this.generationCounter - generation;
    if (since === 0) return false;
    if (since < 0 || since > this.recent.length) return true;
    for (let i = this.recent.length - since; i < this.recent.length; i++) {
      const { areas, tags: dropped } = this.recent[i];
      if (areas?.includes(area) || dropped?.some((tag) => tags.includes(tag))) return true;
    }
    return false;
  }

  private dropAll(keys: Set<string> | undefined): void {
    if (!keys) return;
    if (keys.size) Metrics.cacheEvent('invalidation', keys.size);
    for (const key of [...keys]) this.entries.delete(key);
  }

  private index(map: Map<string, Set<string>>, name: string, key: string): void {
    let set = map.get(name);
    if (!set) map.set(name, (set = new Set()));
    set.add(key);
  }

  private unindex(key: string, entry: Entry): void {
    this.byArea.get(entry.area)?.delete(key);
    for (const tag of entry.tags) this.byTag.get(tag)?.delete(key);
  }
}
