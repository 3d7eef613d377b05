import { Inject, Injectable } from '@nestjs/common';
import { ApiError, Caller } from '@plaza/contracts';
import { LOGGER, Logger, Metrics } from '@plaza/platform';
import type { FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, GatewayConfig } from '../config/gateway.config';
import { EndpointDefinition } from '../endpoints/endpoint-table';
import { stateOf } from '../http/request-context';
import { FairShareCounters } from './fair-share';
import { RateLimiter, WindowState } from './rate-limiter';

interface Rule {
  bucket: string;
  subject: string;
  limit: number;
  windowSeconds: number;
  /** 112 for limits per client address, 111 for per app or user. */
  error: 'rate_limit_exceeded1' | 'rate_limit_exceeded2';
}

/** A caller's fair share: whose it is and how many requests a minute it allows. */
interface FairShare {
  key: string;
  bucket: 'user' | 'app';
  limit: number;
}

const FAIR_SHARE_WINDOW_SECONDS = 60;

/**
 * Which limits apply to a request (docs/DECISIONS.md, "Limits"):
 * - the API's (docs/api/README.md, "Rate limits"): premium apps none; public calls without a token 150/hour per client address,
 *   or 500/hour per apikey; movie endpoints in the basic tier 40/minute per app (per address for
 *   anonymous callers); exact across gateway replicas (rate-limiter.ts);
 * - the fair shares, for every caller with an identity, premium included: a signed-in user
 *   `RATE_LIMIT_USER_PER_MIN`, an app calling without a user (client credentials or apikey)
 *   `RATE_LIMIT_APP_PER_MIN`, counted by each gateway in its memory (fair-share.ts).
 */
@Injectable()
export class RateLimitPolicy {
  private readonly fair = new FairShareCounters();

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  private fairShareOf(caller: Caller): FairShare | undefined {
    if (!this.config.RATE_LIMIT_ENABLED) return undefined;
    if (caller.userId) return { key: `user:${caller.userId}`, bucket: 'user', limit: this.config.RATE_LIMIT_USER_PER_MIN };
    if (caller.clientId) return { key: `app:${caller.clientId}`, bucket: 'app', limit: this.config.RATE_LIMIT_APP_PER_MIN };
    return undefined;
  }

  /**
   * Takes one request of the caller's fair share where a cached answer is about to be sent
   * without the guard (the cached-read lane and fast path); false when the share is spent, and
   * the request goes on to the guard, which answers 429.
   */
  takeFairShare(caller: Caller): boolean {
    const share = this.fairShareOf(caller);
    return !share || this.fair.take(share.key, share.limit, FAIR_SHARE_WINDOW_SECONDS).allowed;
  }

  /**
   * The caller's fair share when it is spent (docs/DECISIONS.md, "Limits"), without counting the
   * request: the in-flight limit refuses such a request before fastify builds it (in-flight.ts).
   */
  spentFairShare(caller: Caller): { state: WindowState; bucket: FairShare['bucket'] } | undefined {
    const share = this.fairShareOf(caller);
    const state = share && this.fair.spent(share.key, share.limit, FAIR_SHARE_WINDOW_SECONDS);
    return state && share ? { state, bucket: share.bucket } : undefined;
  }

  /**
   * `/auth2/*` per client address, before anything else runs: every sign-in costs identity a
   * password hash (an unknown user name as much as a known one), so a flood from one address is
   * refused here; undefined when limits are off.
   */
  takeAuthShare(request: FastifyRequest): WindowState | undefined {
    if (!this.config.RATE_LIMIT_ENABLED) return undefined;
    return this.fair.take(`auth:${request.ip}`, this.config.RATE_LIMIT_AUTH_PER_MIN, FAIR_SHARE_WINDOW_SECONDS);
  }

  /** The guard's check of the fair share: 429/111 with the RateLimit headers when it is spent. */
  private enforceFairShare(request: FastifyRequest, caller: Caller): void {
    const share = this.fairShareOf(caller);
    if (!share) return;
    const state = this.fair.take(share.key, share.limit, FAIR_SHARE_WINDOW_SECONDS);
    if (state.allowed) return;
    stateOf(request).rateLimitHeaders = limitHeaders(state, true);
    Metrics.rateLimitRefused(share.bucket);
    throw new ApiError('rate_limit_exceeded1', `more than ${share.limit} requests a minute`);
  }

  /** Whether any limit applies, without the client address (`rulesFor` is non-empty exactly then). */
  isLimited(endpoint: EndpointDefinition, caller: Caller, hasBearer: boolean): boolean {
    if (!this.config.RATE_LIMIT_ENABLED || caller.tier === 'premium' || endpoint.unlimited) return false;
    return !hasBearer || (!!endpoint.movieLimit && caller.tier === 'basic');
  }

  rulesFor(request: FastifyRequest, endpoint: EndpointDefinition, caller: Caller, hasBearer: boolean): Rule[] {
    if (!this.isLimited(endpoint, caller, hasBearer)) return [];
    const rules: Rule[] = [];
    const address = request.ip;
    if (!hasBearer) {
      rules.push(
        caller.clientId
          ? { bucket: 'apikey', subject: caller.clientId, limit: this.config.RATE_LIMIT_APIKEY_PER_HOUR, windowSeconds: 3600, error: 'rate_limit_exceeded1' }
          : { bucket: 'anon', subject: address, limit: this.config.RATE_LIMIT_ANON_PER_HOUR, windowSeconds: 3600, error: 'rate_limit_exceeded2' },
      );
    }
    if (endpoint.movieLimit && caller.tier === 'basic') {
      rules.push(
        caller.clientId
          ? { bucket: 'movie', subject: caller.clientId, limit: this.config.RATE_LIMIT_MOVIE_BASIC_PER_MIN, windowSeconds: 60, error: 'rate_limit_exceeded1' }
          : { bucket: 'movie-anon', subject: address, limit: this.config.RATE_LIMIT_MOVIE_BASIC_PER_MIN, windowSeconds: 60, error: 'rate_limit_exceeded2' },
      );
    }
    return rules;
  }

  async enforce(request: FastifyRequest, endpoint: EndpointDefinition, caller: Caller, hasBearer: boolean): Promise<void> {
    if (!endpoint.unlimited) this.enforceFairShare(request, caller);
    const rules = this.rulesFor(request, endpoint, caller, hasBearer);
    if (rules.length === 0) return;
    const namespace = this.config.RATE_LIMIT_NAMESPACE;
    let states: WindowState[];
    try {
      states = await Promise.all(rules.map((r) => this.limiter.hit(`${namespace}.${r.bucket}`, r.subject, r.limit, r.windowSeconds)));
    } catch (err) {
      // a limit store that cannot be reached must not take the API down: fail open, loudly
      this.logger.warn({ err: (err as Error).message }, 'rate limits unavailable; request allowed');
      return;
    }
    // headers report the limit nearest to exhaustion
    let nearest = 0;
    states.forEach((s, i) => {
      if (s.remaining < states[nearest].remaining) nearest = i;
    });
    const denied = states.findIndex((s) => !s.allowed);
    const shown: WindowState = denied >= 0 ? states[denied] : states[nearest];
    stateOf(request).rateLimitHeaders = limitHeaders(shown, denied >= 0);
    if (denied >= 0) {
      Metrics.rateLimitRefused(rules[denied].bucket);
      throw new ApiError(rules[denied].error);
    }
  }
}

/** The RateLimit headers of a window (and Retry-After on a refusal). */
export function limitHeaders(window: WindowState, refused: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'ratelimit-limit': String(window.limit),
    'ratelimit-remaining': String(window.remaining),
    'ratelimit-reset': String(window.resetSeconds),
    'x-ratelimit-limit': String(window.limit),
    'x-ratelimit-remaining': String(window.remaining),
  };
  if (refused) headers['retry-after'] = String(window.resetSeconds);
  return headers;
}
