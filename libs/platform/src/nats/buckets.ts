import { KvOptions, StorageType } from 'nats';

/** Access tokens live at most a day (ACCESS_TOKEN_TTL is capped there), so revocations need not outlive that. */
export const MAX_ACCESS_TOKEN_TTL_SECONDS = 86_400;

/** Identity writes and every gateway reads this bucket; both must open it with the same options. */
export function revocationBucketOptions(): Partial<KvOptions> {
  return { history: 1, ttl: (MAX_ACCESS_TOKEN_TTL_SECONDS + 300) * 1000, storage: StorageType.File };
}

/** Fixed-window rate counters: held in memory (a NATS restart forgets them, which only lifts limits briefly). */
export function rateLimitBucketOptions(): Partial<KvOptions> {
  return { history: 1, ttl: 2 * 3600 * 1000, storage: StorageType.Memory };
}

/**
 * The buckets' names are also in the NATS permissions (tools/stack/src/nats-auth.ts: who may open,
 * read and write each; its unit test checks the names agree): a renamed bucket needs its lines there.
 */
export const RATE_LIMIT_BUCKET = 'ratelimits';
export const PICTURE_BUCKET = 'pictures';
