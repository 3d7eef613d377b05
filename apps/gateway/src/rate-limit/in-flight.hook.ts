import { ApiError } from '@plaza/contracts';
import { Metrics } from '@plaza/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AccessPolicy } from '../access/access-policy';
import { TokenVerifier } from '../auth/token-verifier';
import { sendApiError } from '../http/error-body';
import { shareOf } from '../http/request-context';

/**
 * At most `limit` requests of one caller in this gateway at once (docs/DECISIONS.md, "Limits"):
 * a flood on many connections is refused here, on onRequest, before routing, Nest and NATS, so
 * it costs the gateway little and the areas nothing. The caller is known this early from a
 * token verified before (a new token counts by address until its first answer).
 */
export function registerInFlightLimit(fastify: FastifyInstance, deps: { policy: AccessPolicy; tokens: TokenVerifier; limit: number }): void {
  const held = new Map<string, number>();
  const release = (key: string) => {
    const n = (held.get(key) ?? 1) - 1;
    if (n > 0) held.set(key, n);
    else held.delete(key);
  };
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const token = deps.policy.hasBearer(request) ? deps.policy.bearerToken(request) : undefined;
    const key = shareOf(token ? deps.tokens.cachedCaller(token) : undefined, request.ip);
    const n = held.get(key) ?? 0;
    if (n >= deps.limit) {
      Metrics.rateLimitRefused('in-flight');
      sendApiError(request, reply, new ApiError(key.startsWith('addr:') ? 'rate_limit_exceeded2' : 'rate_limit_exceeded1', 'too many requests at once'));
      return;
    }
    held.set(key, n + 1);
    // 'close' comes once the answer is sent or the client went away, whichever ends the request
    reply.raw.once('close', () => release(key));
    done();
  });
}
