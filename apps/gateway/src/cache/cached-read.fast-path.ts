import { ANONYMOUS, ApiError, Caller } from '@plaza/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AccessPolicy } from '../access/access-policy';
import { TokenVerifier } from '../auth/token-verifier';
import { EndpointDefinition } from '../endpoints/endpoint-table';
import { sendApiError } from '../http/error-body';
import { etagMatches } from '../http/etag';
import { applyFields } from '../http/fields';
import { readFields, readPaging } from '../http/query-params';
import { stateOf } from '../http/request-context';
import { RateLimitPolicy } from '../rate-limit/rate-limit.policy';
import { cacheKeyOf } from './cache-key';
import { ResponseCache } from './response-cache';

export interface FastPathDependencies {
  policy: AccessPolicy;
  tokens: TokenVerifier;
  rateLimits: RateLimitPolicy;
  cache: ResponseCache;
}

/**
 * Repeated catalogue reads answered before Nest's router pipeline: the hottest path of the API
 * (issue 8). It applies the same access rules as the guard (`AccessPolicy`, rate limits included),
 * and steps aside — leaving the request to the normal path, which answers it or reports the
 * precise error — whenever anything is not plainly allowed: a rule fails, the token was not
 * verified before, an apikey is involved, the caller is a user, or the answer is not cached.
 */
export function registerCachedReadFastPath(fastify: FastifyInstance, deps: FastPathDependencies): void {
  fastify.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'GET') return;
    const endpoint = (request.routeOptions.config as { endpoint?: EndpointDefinition } | undefined)?.endpoint;
    if (!endpoint?.cache) return;
    const state = stateOf(request);
    const generation = deps.cache.generation;
    try {
      deps.policy.checkCallback(request, state);
      const hasBearer = deps.policy.hasBearer(request);
      deps.policy.checkScheme(request, hasBearer);
      let caller: Caller | undefined = ANONYMOUS;
      if (hasBearer) {
        const token = deps.policy.bearerToken(request);
        caller = token ? deps.tokens.cachedCaller(token) : undefined;
      } else if ((request.query as Record<string, unknown>)?.apikey !== undefined) {
        caller = undefined;
      }
      if (!caller || caller.userId) return stepAside(request, generation);
      deps.policy.checkEndpoint(endpoint, caller, hasBearer);
      if (endpoint.paging) state.page = readPaging(request, endpoint.paging);
      const answer = deps.cache.answer(cacheKeyOf(request, caller.tier));
      if (!answer) return stepAside(request, generation);

      state.endpoint = endpoint;
      state.caller = caller;
      // counted once, here: from this point on the fast path answers, even with a 429
      const limited = await deps.rateLimits.enforce(request, endpoint, caller, hasBearer).then(() => undefined, (err: unknown) => err);
      if (limited instanceof ApiError) return sendApiError(request, reply, limited);
      if (limited) throw limited;
      const fields = readFields(request);
      reply.code(200).header('content-type', 'application/json; charset=utf-8');
      // shaped answers (fields, JSONP) are text, made per request; the wire hook adds their ETag
      if (fields) return reply.send(JSON.stringify(applyFields(answer.body, fields, endpoint.listKey)));
      if (state.jsonpCallback) return reply.send(answer.json);
      reply.header('etag', answer.etag);
      if (etagMatches(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
      return reply.send(answer.bytes);
    } catch {
      return stepAside(request, generation);
    }
  });
}

/** Forget what the fast path learnt (the guard starts from nothing), keeping when the request began. */
function stepAside(request: FastifyRequest, generation: number): void {
  request.plaza = { cacheGeneration: generation };
}
