import { ApiError } from '@plaza/contracts';
import { Metrics } from '@plaza/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AccessPolicy } from '../access/access-policy';
import { ANONYMOUS_PRINCIPAL, Principal } from '../auth/principal';
import { TokenVerifier } from '../auth/token-verifier';
import { EndpointDefinition } from '../endpoints/endpoint-table';
import { sendApiError } from '../http/error-body';
import { etagMatches } from '../http/etag';
import { applyFields } from '../http/fields';
import { readFields, readPaging } from '../http/query-params';
import { stateOf } from '../http/request-context';
import { RateLimitPolicy } from '../rate-limit/rate-limit.policy';
import { cacheKeyFor, cacheTargetOf } from './cache-key';
import { CachedReadLane } from './cached-read.lane';
import { CachedAnswer, ResponseCache } from './response-cache';

export interface FastPathDependencies {
  policy: AccessPolicy;
  tokens: TokenVerifier;
  rateLimits: RateLimitPolicy;
  cache: ResponseCache;
  /** Learns the URLs answered plainly here, to answer their repeats before fastify. */
  lane?: CachedReadLane;
}

/**
 * Repeated catalogue reads answered before Nest's router pipeline: the hottest path of the API
 * (docs/PERFORMANCE.md, "Warm reads: the cached-read lane"). It applies the same access rules as the guard (`AccessPolicy`, rate limits included),
 * and steps aside — leaving the request to the normal path, which answers it or reports the
 * precise error — whenever anything is not plainly allowed: a rule fails, the token was not
 * verified before, an apikey is involved, the caller is a user, or the answer is not cached.
 *
 * It runs on `onRequest`, the first hook that knows the route (after the security and CORS
 * headers are set, before multipart's hook; fastify never parses a GET body): an answer from here
 * skips the later hooks and Nest's handler, and is sent without a promise when no rate limit
 * applies, so a cached read costs no microtask turn of its own.
 */
export function registerCachedReadFastPath(fastify: FastifyInstance, deps: FastPathDependencies): void {
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    const outcome = answerFromCache(request, reply, deps);
    if (outcome === STEP_ASIDE) return done();
    if (outcome === ANSWERED) return;
    // an error while sending goes to the error handler (the error shape of docs/api/README.md, "Errors"), never unhandled
    outcome.then((answered) => (answered ? undefined : done()), (err: Error) => done(err));
  });
}

const STEP_ASIDE = 0;
const ANSWERED = 1;

function answerFromCache(request: FastifyRequest, reply: FastifyReply, deps: FastPathDependencies): typeof STEP_ASIDE | typeof ANSWERED | Promise<boolean> {
  if (request.method !== 'GET') return STEP_ASIDE;
  const endpoint = (request.routeOptions.config as { endpoint?: EndpointDefinition } | undefined)?.endpoint;
  if (!endpoint?.cache) return STEP_ASIDE;
  const state = stateOf(request);
  const generation = deps.cache.generation;
  try {
    deps.policy.checkCallback(request, state);
    const hasBearer = deps.policy.hasBearer(request);
    deps.policy.checkScheme(request, hasBearer);
    let principal: Principal | undefined = ANONYMOUS_PRINCIPAL;
    if (hasBearer) {
      const token = deps.policy.bearerToken(request);
      principal = token ? deps.tokens.cachedPrincipal(token) : undefined;
    } else if ((request.query as Record<string, unknown>)?.apikey !== undefined) {
      principal = undefined;
    }
    if (!principal || principal.caller.userId) return stepAside(request, generation);
    deps.policy.checkEndpoint(endpoint, principal, hasBearer);
    const caller = principal.caller;
    if (endpoint.paging) state.page = readPaging(request, endpoint.paging);
    const target = cacheTargetOf(request);
    const answer = deps.cache.answer(cacheKeyFor(caller.tier, target));
    if (!answer) {
      Metrics.cacheEvent('miss');
      return stepAside(request, generation);
    }
    Metrics.cacheEvent('hit');
    // a spent fair share is the guard's to answer (429 with its headers)
    if (!endpoint.unlimited && !deps.rateLimits.takeFairShare(caller)) return stepAside(request, generation);

    state.endpoint = endpoint;
    state.caller = caller;
    if (!deps.rateLimits.isLimited(endpoint, caller, hasBearer)) {
      if (send(request, reply, endpoint, answer) === PLAIN) deps.lane?.learn(request.url, endpoint, target);
      return ANSWERED;
    }
    // counted once, here: from this point on the fast path answers, even with a 429
    return deps.rateLimits.enforce(request, endpoint, caller, hasBearer).then(
      () => {
        send(request, reply, endpoint, answer);
        return true;
      },
      (err: unknown) => {
        if (!(err instanceof ApiError)) {
          stepAside(request, generation);
          return false;
        }
        sendApiError(request, reply, err);
        return true;
      },
    );
  } catch {
    return stepAside(request, generation);
  }
}

const SHAPED = 0;
const PLAIN = 1;

function send(request: FastifyRequest, reply: FastifyReply, endpoint: EndpointDefinition, answer: CachedAnswer): typeof SHAPED | typeof PLAIN {
  const fields = readFields(request);
  reply.code(200).header('content-type', 'application/json; charset=utf-8');
  // shaped answers (fields, JSONP) are text, made per request; the wire hook adds their ETag
  if (fields) {
    reply.send(JSON.stringify(applyFields(answer.body, fields, endpoint.listKey)));
    return SHAPED;
  }
  if (stateOf(request).jsonpCallback) {
    reply.send(answer.json);
    return SHAPED;
  }
  reply.header('etag', answer.etag);
  if (etagMatches(request.headers['if-none-match'], answer.etag)) reply.code(304).send();
  else reply.send(answer.bytes);
  return PLAIN;
}

/** Forget what the fast path learnt (the guard starts from nothing), keeping when the request began. */
function stepAside(request: FastifyRequest, generation: number): typeof STEP_ASIDE {
  request.plaza = { cacheGeneration: generation };
  return STEP_ASIDE;
}
