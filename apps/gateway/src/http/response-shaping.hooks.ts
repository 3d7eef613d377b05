import type { FastifyInstance, FastifyRequest } from 'fastify';
import { cacheKeyOf } from '../cache/cache-key';
import { ResponseCache } from '../cache/response-cache';
import { applyFields } from './fields';
import { readFields } from './query-params';
import { stateOf } from './request-context';

/**
 * Response shaping of every endpoint answer, on fastify's preSerialization hook (the object,
 * before it becomes bytes): store cacheable reads in the response cache, then apply `fields`.
 * A Nest interceptor would do the same, but Nest wraps every intercepted request in an
 * AsyncResource and rxjs streams, which cost a quarter of the gateway's time per request.
 * (JSONP and the ETag work on the bytes, in the onSend hook, since they must also cover errors.)
 */
export function registerResponseShaping(fastify: FastifyInstance, cache: ResponseCache | undefined): void {
  fastify.addHook('preSerialization', (request: FastifyRequest, _reply, payload: unknown, done: (err: null, value: unknown) => void) => {
    const state = stateOf(request);
    const endpoint = state.endpoint;
    if (!endpoint || endpoint.method !== 'GET') return done(null, payload);
    const policy = endpoint.cache;
    if (cache && policy && state.cacheGeneration !== undefined && !state.caller?.userId) {
      const params = (request.params ?? {}) as Record<string, string>;
      cache.set(cacheKeyOf(request, state.caller?.tier ?? 'basic'), payload, policy.area, policy.tags?.(params, payload) ?? [], policy.ttlSeconds, state.cacheGeneration);
    }
    done(null, applyFields(payload, readFields(request), endpoint.listKey));
  });
}
