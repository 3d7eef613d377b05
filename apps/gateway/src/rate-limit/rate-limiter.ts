import { createHash } from 'node:crypto';
import type { KV, NatsConnection } from 'nats';
import { lazyLru, RATE_LIMIT_BUCKET, rateLimitBucketOptions } from '@plaza/platform';

export interface WindowState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  allowed: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Fixed-window counters shared by every gateway replica through a JetStream KV bucket. Each hit
 * is a compare-and-set on the window's key, so two replicas can never both take the last unit:
 * the limit holds exactly across replicas. (rate-limiter-flexible has no NATS store, and its
 * MongoDB store needs an atomic findOneAndUpdate that FerretDB v1 does not give.)
 */
export class RateLimiter {
  private kv?: KV;
  /** Windows known to be exhausted: answered locally until they reset. */
  private readonly exhausted = lazyLru<string, number>(100_000);

  constructor(private readonly nc: NatsConnection) {}

  async start(): Promise<void> {
    this.kv = await this.nc.jetstream().views.kv(RATE_LIMIT_BUCKET, rateLimitBucketOptions());
  }

  get ready(): boolean {
    return this.kv !== undefined;
  }

  async hit(bucket: string, subject: string, limit: number, windowSeconds: number, now = Date.now()): Promise<WindowState> {
    const windowMs = windowSeconds * 1000;
    const index = Math.floor(now / windowMs);
    const resetSeconds = Math.max(1, Math.ceil(((index + 1) * windowMs - now) / 1000));
    const key = `${bucket}.${createHash('sha1').update(subject).digest('hex').slice(0, 24)}.${index}`;
    if (this.exhausted.has(key)) return { limit, remaining: 0, resetSeconds, allowed: false };
    const kv = this.kv;
    if (!kv) throw new Error('rate limiter not started');

    for (let attempt = 0; attempt < 50; attempt++) {
      const entry = await kv.get(key);
      const used = entry && entry.operation === 'PUT' ? Number(decoder.decode(entry.value)) || 0 : 0;
      if (used >= limit) {
        this.exhausted.set(key, 1, { ttl: resetSeconds * 1000 });
        return { limit, remaining: 0, resetSeconds, allowed: false };
      }
      try {
        if (!entry) await kv.create(key, encoder.encode(String(used + 1)));
        else await kv.update(key, encoder.encode(String(used + 1)), entry.revision);
        return { limit, remaining: limit - used - 1, resetSeconds, allowed: true };
      } catch {
        // another replica won the race for this unit: read again and retry
      }
    }
    throw new Error('rate limiter contention');
  }
}
