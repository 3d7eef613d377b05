import type { FastifyRequest } from 'fastify';
import { pathOf } from '../http/request-context';

/** Query parameters that shape a response but do not change what the service answers. */
const PRESENTATION_PARAMS = new Set(['callback', 'fields', 'apikey', '_']);

/** Cache key of a read: the caller's tier (fields differ by tier), the path, the meaningful parameters. */
export function cacheKeyOf(request: FastifyRequest, tier: string): string {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const parts = Object.keys(query)
    .filter((k) => !PRESENTATION_PARAMS.has(k))
    .sort()
    .map((k) => `${k}=${JSON.stringify(query[k])}`);
  return `${tier} ${pathOf(request)}?${parts.join('&')}`;
}
