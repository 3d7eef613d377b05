import type { FastifyCorsOptions } from '@fastify/cors';

/** What a browser script may read of an answer: validators, rate-limit state, the request id. */
const EXPOSED_HEADERS = ['ETag', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'Retry-After', 'X-Request-Id'];

export function corsOptions(origins: string): FastifyCorsOptions {
  return {
    origin: origins === '*' ? '*' : origins.split(',').map((o) => o.trim()),
    credentials: false,
    // the plugin's default (GET, HEAD, POST) made browsers refuse every PUT and DELETE of the API
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    maxAge: 600,
    exposedHeaders: EXPOSED_HEADERS,
  };
}

/**
 * The CORS headers @fastify/cors puts on every non-preflight answer when any origin is allowed,
 * in its order; undefined for an origin list, where they depend on the request's Origin (and
 * add `Vary: Origin`).
 */
export function constantCorsHeaders(origins: string): Record<string, string> | undefined {
  if (origins !== '*') return undefined;
  return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED_HEADERS.join(', ') };
}
