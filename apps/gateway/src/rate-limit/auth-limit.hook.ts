import { ApiError } from '@plaza/contracts';
import { Metrics } from '@plaza/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendApiError } from '../http/error-body';
import { stateOf } from '../http/request-context';
import { limitHeaders, RateLimitPolicy } from './rate-limit.policy';

/**
 * The per-address limit of `/auth2/*` (docs/DECISIONS.md, "Limits"): counted on onRequest, so a
 * refused request costs no body parsing and no message to identity; every answer of those
 * endpoints carries the RateLimit headers, a refusal 429/112 with Retry-After.
 */
export function registerAuthLimit(fastify: FastifyInstance, policy: RateLimitPolicy): void {
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (request.method === 'OPTIONS' || !request.url.startsWith('/auth2/')) return done();
    const window = policy.takeAuthShare(request);
    if (!window) return done();
    stateOf(request).rateLimitHeaders = limitHeaders(window, !window.allowed);
    if (window.allowed) return done();
    Metrics.rateLimitRefused('auth');
    sendApiError(request, reply, new ApiError('rate_limit_exceeded2', 'too many requests from this address'));
  });
}
