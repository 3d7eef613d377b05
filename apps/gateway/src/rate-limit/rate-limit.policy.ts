import { Inject, Injectable } from '@nestjs/common';
import { ApiError, Caller } from '@plaza/contracts';
import { LOGGER, Logger, Metrics } from '@plaza/platform';
import type { FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, GatewayConfig } from '../config/gateway.config';
import { EndpointDefinition } from '../endpoints/endpoint-table';
import { stateOf } from '../http/request-context';
import { RateLimiter, WindowState } from './rate-limiter';

interface Rule {
  bucket: string;
  subject: string;
  limit: number;
  windowSeconds: number;
  /** 112 for limits per client address, 111 for per app or user. */
  error: 'rate_limit_exceeded1' | 'rate_limit_exceeded2';
}

/**
 * Which limits apply to a request (CONTRACT.md section 3; docs/DECISIONS.md):
 * - premium apps: none;
 * - public calls without a token: 150/hour per client address, or 500/hour per apikey;
 * - movie endpoints in the basic tier: 40/minute per app (per address for anonymous callers).
 * Calls with a token are limited only by the movie rule.
 */
@Injectable()
export class RateLimitPolicy {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

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
    const headers: Record<string, string> = {
      'ratelimit-limit': String(shown.limit),
      'ratelimit-remaining': String(shown.remaining),
      'ratelimit-reset': String(shown.resetSeconds),
      'x-ratelimit-limit': String(shown.limit),
      'x-ratelimit-remaining': String(shown.remaining),
    };
    if (denied >= 0) headers['retry-after'] = String(shown.resetSeconds);
    stateOf(request).rateLimitHeaders = headers;
    if (denied >= 0) {
      Metrics.rateLimitRefused(rules[denied].bucket);
      throw new ApiError(rules[denied].error);
    }
  }
}
