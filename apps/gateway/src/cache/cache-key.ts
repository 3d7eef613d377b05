import type { FastifyRequest } from 'fastify';
import { pathOf } from '../http/request-context';

/** Query parameters that shape a response but do not change what the service answers. */
const PRESENTATION_PARAMS = new Set(['callback', 'fields', 'apikey', '_']);

/** Cache key of a read: the caller's tier (fields differ by tier), then `cacheTargetOf` the request. */
export function cacheKeyOf(request: FastifyRequest, tier: string): string {
  return cacheKeyFor(tier, cacheTargetOf(request));
}

export function cacheKeyFor(tier: string, target: string): string {
  return `${tier} ${target}`;
}

/** What a read asks for, whoever asks: the path and the meaningful parameters, sorted. */
export function cacheTargetOf(request: FastifyRequest): string {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const parts = Object.keys(query)
    .filter((k) => !PRESENTATION_PARAMS.has(k))
    .sort()
    .map((k) => `${k}=${JSON.stringify(query[k])}`);
  return `${pathOf(request)}?${parts.join('&')}`;
}
