import { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { AccessPolicy } from '../access/access-policy';
import { Principal } from '../auth/principal';
import { TokenVerifier } from '../auth/token-verifier';
import { GatewayConfig } from '../config/gateway.config';
import { Endpoints } from '../endpoints/endpoint-table';
import { httpServerWith } from '../http/http-server';
import { RateLimitPolicy } from '../rate-limit/rate-limit.policy';
import { RateLimiter } from '../rate-limit/rate-limiter';
import { cacheKeyFor } from './cache-key';
import { CachedReadLane, MAX_LEARNT_URL_LENGTH } from './cached-read.lane';
import { ResponseCache } from './response-cache';

// The lane in front of a stand-in for fastify (which answers "fallback"): what it answers itself,
// and what it leaves untouched. Through the real stack: apps/api-e2e/src/book/cached-read-lane.e2e-spec.ts.

const logger = { warn: jest.fn(), info: jest.fn() } as never;
const BOOK = { id: '42', title: '书' };
const TARGET = '/v2/book/42?';
const app: Principal = { caller: { clientId: 'app', tier: 'premium' }, scopes: ['book_basic_r'] };
const user: Principal = { caller: { userId: '7', clientId: 'app', tier: 'premium' }, scopes: ['book_basic_r'] };
const unscoped: Principal = { caller: { clientId: 'app', tier: 'premium' }, scopes: [] };
const basicApp: Principal = { caller: { clientId: 'b', tier: 'basic' }, scopes: ['book_basic_r'] };

interface Setup {
  url: string;
  lane: CachedReadLane;
  cache: ResponseCache;
  server: Server;
  fallbacks: number;
}

async function setup(configChanges: Partial<GatewayConfig> = {}): Promise<Setup> {
  const config = Object.assign(new GatewayConfig(), { PICTURE_SIGNING_KEY: 'x'.repeat(16), RATE_LIMIT_ENABLED: true, ...configChanges });
  const cache = new ResponseCache({ maxEntries: 100, maxBytes: 1 << 20 }, logger);
  cache.set(cacheKeyFor('premium', TARGET), BOOK, 'book', ['book:42'], 60, cache.generation);
  cache.set(cacheKeyFor('basic', TARGET), BOOK, 'book', ['book:42'], 60, cache.generation);
  const tokens = new Map<string, Principal>([['app-token', app], ['user-token', user], ['unscoped-token', unscoped], ['basic-token', basicApp]]);
  const lane = new CachedReadLane(100, { 'x-frame-options': 'DENY' }, { 'access-control-allow-origin': '*' });
  lane.enable({
    policy: new AccessPolicy(config),
    tokens: { cachedPrincipal: (t: string) => tokens.get(t) } as unknown as TokenVerifier,
    rateLimits: new RateLimitPolicy(config, {} as RateLimiter, logger),
    cache,
  });
  const state: Setup = { url: '', lane, cache, server: undefined as unknown as Server, fallbacks: 0 };
  const factory = httpServerWith((req, res) => lane.tryAnswer(req, res));
  state.server = factory(
    (_req, res) => {
      state.fallbacks++;
      res.end('fallback');
    },
    { keepAliveTimeout: 5000, requestTimeout: 0, connectionTimeout: 0, maxRequestsPerSocket: 0 },
  );
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  return state;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('the cached-read lane', () => {
  let s: Setup;
  afterEach(() => new Promise<void>((resolve) => s.server.close(() => resolve())));

  it('answers only URLs the fast path taught it, with the cached bytes and the same headers', async () => {
    s = await setup();
    expect(await (await fetch(`${s.url}/v2/book/42`, { headers: bearer('app-token') })).text()).toBe('fallback');
    s.lane.learn('/v2/book/42', Endpoints.bookGet, TARGET);
    const res = await fetch(`${s.url}/v2/book/42`, { headers: { ...bearer('app-token'), 'x-request-id': 'trace-1' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(BOOK);
    expect([...res.headers.keys()]).toEqual(expect.arrayContaining(['x-frame-options', 'x-request-id', 'access-control-allow-origin', 'content-type', 'etag', 'content-length']));
    expect(res.headers.get('x-request-id')).toBe('trace-1');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('etag')).toBe(s.cache.answer(cacheKeyFor('premium', TARGET))?.etag);
    // another URL of the same book (a query the fast path has not seen) is not the lane's
    expect(await (await fetch(`${s.url}/v2/book/42?fields=id`, { headers: bearer('app-token') })).text()).toBe('fallback');
    expect(s.fallbacks).toBe(2);
  });

  it('does not learn long URLs (any number of them may name one cached answer)', async () => {
    s = await setup();
    const long = `/v2/book/42?_=${'x'.repeat(MAX_LEARNT_URL_LENGTH)}`;
    s.lane.learn(long, Endpoints.bookGet, TARGET);
    expect(await (await fetch(`${s.url}${long}`, { headers: bearer('app-token') })).text()).toBe('fallback');
  });

  it('answers a matching If-None-Match with 304 and no body', async () => {
    s = await setup();
    s.lane.learn('/v2/book/42', Endpoints.bookGet, TARGET);
    const etag = s.cache.answer(cacheKeyFor('premium', TARGET))?.etag as string;
    const res = await fetch(`${s.url}/v2/book/42`, { headers: { ...bearer('app-token'), 'if-none-match': `"other", W/${etag}` } });
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe(etag);
    expect(await res.text()).toBe('');
  });

  it('leaves to fastify users, unverified tokens, other schemes, missing scopes, limited callers and other methods', async () => {
    s = await setup();
    s.lane.learn('/v2/book/42', Endpoints.bookGet, TARGET);
    const steppedAside = async (init: RequestInit) => {
      const before = s.fallbacks;
      await (await fetch(`${s.url}/v2/book/42`, init)).arrayBuffer();
      return s.fallbacks === before + 1;
    };
    expect(await steppedAside({ headers: bearer('user-token') })).toBe(true);
    expect(await steppedAside({ headers: bearer('never-verified') })).toBe(true);
    expect(await steppedAside({ headers: { authorization: 'Basic dTpw' } })).toBe(true);
    expect(await steppedAside({ headers: bearer('unscoped-token') })).toBe(true);
    // without a token, callers are limited per address (or apikey): fastify counts them
    expect(await steppedAside({})).toBe(true);
    expect(await steppedAside({ method: 'HEAD', headers: bearer('app-token') })).toBe(true);
    expect(await steppedAside({ method: 'DELETE', headers: bearer('app-token') })).toBe(true);
    // a basic app's token is not limited on book reads (only on movie reads)
    expect(await steppedAside({ headers: bearer('basic-token') })).toBe(false);
  });

  it('serves anonymous callers when no limit applies to them', async () => {
    s = await setup({ RATE_LIMIT_ENABLED: false });
    s.lane.learn('/v2/book/42', Endpoints.bookGet, TARGET);
    expect(await (await fetch(`${s.url}/v2/book/42`)).json()).toEqual(BOOK);
    expect(s.fallbacks).toBe(0);
  });

  it('steps aside once the answer is invalidated, and for everything once closed', async () => {
    s = await setup();
    s.lane.learn('/v2/book/42', Endpoints.bookGet, TARGET);
    expect(await (await fetch(`${s.url}/v2/book/42`, { headers: bearer('app-token') })).json()).toEqual(BOOK);
    s.cache.invalidate({ tags: ['book:42'] });
    expect(await (await fetch(`${s.url}/v2/book/42`, { headers: bearer('app-token') })).text()).toBe('fallback');
    s.cache.set(cacheKeyFor('premium', TARGET), BOOK, 'book', ['book:42'], 60, s.cache.generation);
    s.lane.close();
    expect(await (await fetch(`${s.url}/v2/book/42`, { headers: bearer('app-token') })).text()).toBe('fallback');
    expect(s.fallbacks).toBe(2);
  });

  it('checks the scheme rule like the guard: with https required, token calls go to fastify', async () => {
    s = await setup({ REQUIRE_HTTPS: true });
    s.lane.learn('/v2/book/42', Endpoints.bookGet, TARGET);
    expect(await (await fetch(`${s.url}/v2/book/42`, { headers: bearer('app-token') })).text()).toBe('fallback');
  });
});
