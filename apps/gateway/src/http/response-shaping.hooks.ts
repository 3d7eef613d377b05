import { ServiceJson } from '@plaza/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cacheKeyOf } from '../cache/cache-key';
import { ResponseCache } from '../cache/response-cache';
import { applyFields } from './fields';
import { readFields } from './query-params';
import { stateOf } from './request-context';

// fastify's types want a serializer to return text; what it returns goes to onSend and out as a
// Buffer body just as well (fastify/lib/reply.js, onSendEnd)
const bytesOf = (payload: ServiceJson): string => payload.bytes as unknown as string;

/**
 * Response shaping of every endpoint answer, on fastify's preSerialization hook (the object,
 * before it becomes bytes): store cacheable reads in the response cache, then apply `fields`.
 * A Nest interceptor would do the same, but Nest wraps every intercepted request in an
 * AsyncResource and rxjs streams, which cost a quarter of the gateway's time per request.
 * An answer forwarded as the service's bytes (ServiceJson) is sent as those bytes unless one of
 * the two needs it as an object.
 * (JSONP and the ETag work on the bytes, in the onSend hook, since they must also cover errors.)
 */
export function registerResponseShaping(fastify: FastifyInstance, cache: ResponseCache | undefined): void {
  fastify.addHook('preSerialization', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, value: unknown) => void) => {
    const state = stateOf(request);
    const endpoint = state.endpoint;
    const reading = endpoint?.method === 'GET';
    const policy = reading ? endpoint.cache : undefined;
    const storing = Boolean(cache && policy && state.cacheGeneration !== undefined && !state.caller?.userId);
    const fields = reading ? readFields(request) : undefined;
    if (payload instanceof ServiceJson) {
      if (!storing && !fields) {
        state.sendsJsonBytes = true;
        reply.serializer(bytesOf);
        return done(null, payload);
      }
      payload = payload.value();
    }
    if (!reading) return done(null, payload);
    if (storing && cache && policy) {
      const params = (request.params ?? {}) as Record<string, string>;
      cache.set(cacheKeyOf(request, state.caller?.tier ?? 'basic'), payload, policy.area, policy.tags?.(params, payload) ?? [], policy.ttlSeconds, state.cacheGeneration as number);
    }
    done(null, applyFields(payload, fields, endpoint.listKey));
  });
}
