import { lazyLru } from '@plaza/platform';
import type { LRUCache } from 'lru-cache';
import type { WindowState } from './rate-limiter';

interface Window {
  index: number;
  used: number;
}

/**
 * Fixed-window counters in this gateway's memory, for the fair-share limits (docs/DECISIONS.md,
 * "Limits"): a user, an app or a client address may send at most so many requests a minute to
 * this gateway. Unlike the API's rate limits (docs/api/README.md, "Rate limits"; rate-limiter.ts, exact across replicas through
 * JetStream) these are checked on every call with a token, the cached-read lane's included, so
 * they must cost no round trip: each replica counts alone, and N replicas allow N times the
 * limit, which is far above what a well-behaved client sends and far below a flood.
 *
 * Synchronous on purpose: the lane answers without a promise. rate-limiter-flexible's memory
 * limiter would do the same counting behind a promise per call.
 */
export class FairShareCounters {
  private readonly windows: LRUCache<string, Window>;

  /** @param maxKeys callers tracked at once; the least recently seen are forgotten first */
  constructor(maxKeys = 100_000) {
    this.windows = lazyLru<string, Window>(maxKeys);
  }

  /** The window's state when `key` has spent it, without counting a request; undefined while it has some left. */
  spent(key: string, limit: number, windowSeconds: number, now = Date.now()): WindowState | undefined {
    const { index, resetSeconds } = windowAt(now, windowSeconds);
    const window = this.windows.get(key);
    if (!window || window.index !== index || window.used < limit) return undefined;
    return { limit, remaining: 0, resetSeconds, allowed: false };
  }

  take(key: string, limit: number, windowSeconds: number, now = Date.now()): WindowState {
    const { index, resetSeconds } = windowAt(now, windowSeconds);
    let window = this.windows.get(key);
    if (!window || window.index !== index) {
      window = { index, used: 0 };
      this.windows.set(key, window);
    }
    if (window.used >= limit) return { limit, remaining: 0, resetSeconds, allowed: false };
    window.used++;
    return { limit, remaining: limit - window.used, resetSeconds, allowed: true };
  }
}

/** The fixed window `now` falls in, and the seconds until it turns (at least one). */
function windowAt(now: number, windowSeconds: number): { index: number; resetSeconds: number } {
  const windowMs = windowSeconds * 1000;
  const index = Math.floor(now / windowMs);
  return { index, resetSeconds: Math.max(1, Math.ceil(((index + 1) * windowMs - now) / 1000)) };
}
