import { Metrics, nameServerSpan, requestTraceIds, secondsSince, tracingActive } from '@plaza/platform';
import { LRUCache } from 'lru-cache';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { AccessPolicy } from '../access/access-policy';
import { ANONYMOUS_PRINCIPAL, Principal } from '../auth/principal';
import { TokenVerifier } from '../auth/token-verifier';
import { EndpointDefinition } from '../endpoints/endpoint-table';
import { etagMatches } from '../http/etag';
import { requestIdOf } from '../http/request-id';
import { RateLimitPolicy } from '../rate-limit/rate-limit.policy';
import { cacheKeyFor } from './cache-key';
import { ResponseCache } from './response-cache';

export interface LaneDependencies {
  policy: AccessPolicy;
  tokens: TokenVerifier;
  rateLimits: RateLimitPolicy;
  cache: ResponseCache;
  /** Writes the access log line fastify's onResponse hook writes for every other request. */
  accessLog?: Logger;
}

/** What the fast path learnt about a URL: it does not depend on who asks or when. */
interface KnownRead {
  endpoint: EndpointDefinition;
  /** The cache key without the caller's tier (`cacheTargetOf`). */
  target: string;
  /** The cache key per tier, made once: a string reused keeps its hash, so a lookup does not rehash it. */
  keys: Record<string, string>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
/**
 * Longer URLs are not learnt: hot reads are short, and any number of URLs may name one cached
 * answer (`_`, `fields=all`), so without a cap the table could hold the cache's entry count in
 * 16 KiB URLs.
 */
export const MAX_LEARNT_URL_LENGTH = 512;

/**
 * Repeat reads of cached catalogue answers, served on Node's `request` event before fastify
 * builds its request and reply (docs/PERFORMANCE.md, "Warm reads: the cached-read lane"): the gateway's own cost of a warm
 * read was most of a request, and it grew most when the machine was not busy.
 *
 * It answers only what the fastify fast path (cached-read.fast-path.ts) already answered plainly
 * for the same URL — so routing, parameter checks, `fields`, JSONP and `apikey` were all decided
 * there, and depend only on the URL — and it re-applies the rules that depend on the request: the
 * caller (anonymous, or an app token verified before; never a user), the endpoint's tier and scope,
 * rate limits (any limit sends the request to fastify, which counts it), the scheme rule, and the
 * cache entry itself (an invalidated answer is gone). Anything else, and every request once the
 * gateway drains, goes to fastify untouched. The answer carries the same headers as fastify's.
 */
export class CachedReadLane {
  private readonly known: LRUCache<string, KnownRead>;
  private deps?: LaneDependencies;
  private open = false;

  /**
   * @param headersBeforeId security headers, as fastify's first onRequest hook sets them
   * @param headersAfterId the CORS headers every answer carries (the lane stays off without them)
   */
  constructor(
    maxUrls: number,
    private readonly headersBeforeId: Record<string, string>,
    private readonly headersAfterId: Record<string, string>,
  ) {
    this.known = new LRUCache<string, KnownRead>({ max: Math.max(1, maxUrls) });
  }

  /** Starts answering, once the gateway's access rules exist. */
  enable(deps: LaneDependencies): void {
    this.deps = deps;
    this.open = true;
  }

  /** While the gateway drains, fastify answers everything (it closes keep-alive connections). */
  close(): void {
    this.open = false;
  }

  /** Called by the fast path after it answered `url` plainly from the cache. */
  learn(url: string, endpoint: EndpointDefinition, target: string): void {
    if (this.open && url.length <= MAX_LEARNT_URL_LENGTH && !this.known.has(url)) this.known.set(url, { endpoint, target, keys: {} });
  }

  /** Answers the request and returns true, or returns false having touched nothing. */
  tryAnswer(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.open || req.method !== 'GET') return false;
    const known = this.known.get(req.url ?? '');
    if (!known) return false;
    try {
      return this.answer(req, res, known, this.deps as LaneDependencies);
    } catch {
      // a rule that throws (the endpoint's tier or scope) is fastify's to report, with its error;
      // nothing was written then
      return res.headersSent;
    }
  }

  private answer(req: IncomingMessage, res: ServerResponse, known: KnownRead, deps: LaneDependencies): boolean {
    const started = performance.now();
    const hasBearer = deps.policy.hasBearer(req);
    const principal = this.principalOf(req, hasBearer, deps);
    if (!principal) return false;
    if (deps.policy.schemeMatters(hasBearer)) return false;
    deps.policy.checkEndpoint(known.endpoint, principal, hasBearer);
    const caller = principal.caller;
    if (deps.rateLimits.isLimited(known.endpoint, caller, hasBearer)) return false;
    const cached = deps.cache.answer((known.keys[caller.tier] ??= cacheKeyFor(caller.tier, known.target)));
    if (!cached) return false;
    if (!known.endpoint.unlimited && !deps.rateLimits.takeFairShare(caller)) return false;

    Metrics.cacheEvent('hit');
    const traced = tracingActive();
    if (traced) nameServerSpan(req, 'GET', known.endpoint.path);
    const requestId = requestIdOf(req.headers);
    const headers: string[] = [];
    pushAll(headers, this.headersBeforeId);
    headers.push('x-request-id', requestId);
    pushAll(headers, this.headersAfterId);
    headers.push('content-type', JSON_TYPE, 'etag', cached.etag);
    if (etagMatches(req.headers['if-none-match'] as string | undefined, cached.etag)) {
      res.writeHead(304, headers).end();
    } else {
      headers.push('content-length', String(cached.bytes.length));
      res.writeHead(200, headers).end(cached.bytes);
    }
    const seconds = secondsSince(started);
    Metrics.httpRequest(known.endpoint.path, 'GET', res.statusCode, seconds);
    if (deps.accessLog) {
      const path = (req.url ?? '/').split('?', 1)[0];
      const ms = Math.round(seconds * 10000) / 10;
      deps.accessLog.info({ ...(traced ? requestTraceIds(req) : undefined), reqId: requestId, method: 'GET', path, status: res.statusCode, ms, app: caller.clientId, lane: true }, 'request');
    }
    return true;
  }

  /** Anonymous without an Authorization header; an app whose token was verified before; else none. */
  private principalOf(req: IncomingMessage, hasBearer: boolean, deps: LaneDependencies): Principal | undefined {
    if (req.headers.authorization === undefined) return ANONYMOUS_PRINCIPAL;
    if (!hasBearer) return undefined;
    const token = deps.policy.bearerToken(req);
    const principal = token ? deps.tokens.cachedPrincipal(token) : undefined;
    return principal && !principal.caller.userId ? principal : undefined;
  }
}

function pushAll(headers: string[], values: Record<string, string>): void {
  for (const name in values) headers.push(name, values[name]);
}
