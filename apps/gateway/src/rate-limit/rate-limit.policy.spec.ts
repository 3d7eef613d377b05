import { ANONYMOUS, Caller } from '@plaza/contracts';
import type { FastifyRequest } from 'fastify';
import { GatewayConfig } from '../config/gateway.config';
import { Endpoints, EndpointDefinition } from '../endpoints/endpoint-table';
import { RateLimitPolicy } from './rate-limit.policy';
import { RateLimiter } from './rate-limiter';

const config = Object.assign(new GatewayConfig(), { PICTURE_SIGNING_KEY: 'x'.repeat(16) });
const request = { ip: '10.0.0.1' } as FastifyRequest;
const policy = new RateLimitPolicy(config, {} as RateLimiter, { warn: jest.fn() } as never);
const rules = (endpoint: EndpointDefinition, caller: Caller, bearer = false) =>
  policy.rulesFor(request, endpoint, caller, bearer).map((r) => `${r.bucket}:${r.subject}:${r.limit}/${r.windowSeconds}:${r.error}`);

describe('which rate limits apply', () => {
  it('anonymous public calls: per address per hour (112)', () => {
    expect(rules(Endpoints.bookGet, ANONYMOUS)).toEqual(['anon:10.0.0.1:150/3600:rate_limit_exceeded2']);
  });

  it('apikey calls: per app per hour (111)', () => {
    expect(rules(Endpoints.bookGet, { clientId: 'app', tier: 'advance' })).toEqual(['apikey:app:500/3600:rate_limit_exceeded1']);
  });

  it('movie calls in the basic tier add a per-minute limit', () => {
    expect(rules(Endpoints.movieSubject, ANONYMOUS)).toEqual(['anon:10.0.0.1:150/3600:rate_limit_exceeded2', 'movie-anon:10.0.0.1:40/60:rate_limit_exceeded2']);
    expect(rules(Endpoints.movieSubject, { clientId: 'b', tier: 'basic' }, true)).toEqual(['movie:b:40/60:rate_limit_exceeded1']);
  });

  it('premium apps, token calls outside movies, and picture bytes are not limited', () => {
    expect(rules(Endpoints.movieSubject, { clientId: 'p', tier: 'premium' })).toEqual([]);
    expect(rules(Endpoints.bookGet, { userId: '1', clientId: 'b', tier: 'basic' }, true)).toEqual([]);
    expect(rules(Endpoints.pictureGet, ANONYMOUS)).toEqual([]);
  });

  it('isLimited says whether any rule applies, without the client address', () => {
    const callers: Caller[] = [ANONYMOUS, { clientId: 'app', tier: 'advance' }, { clientId: 'b', tier: 'basic' }, { clientId: 'p', tier: 'premium' }, { userId: '1', clientId: 'b', tier: 'basic' }];
    for (const endpoint of [Endpoints.bookGet, Endpoints.movieSubject, Endpoints.pictureGet]) {
      for (const caller of callers) {
        for (const bearer of [false, true]) expect(policy.isLimited(endpoint, caller, bearer)).toBe(rules(endpoint, caller, bearer).length > 0);
      }
    }
    const off = new RateLimitPolicy(Object.assign(new GatewayConfig(), { RATE_LIMIT_ENABLED: false }), {} as RateLimiter, { warn: jest.fn() } as never);
    expect(off.isLimited(Endpoints.movieSubject, ANONYMOUS, false)).toBe(false);
  });

  it('fails open when the limit store is unreachable', async () => {
    const failing = new RateLimitPolicy(config, { hit: jest.fn().mockRejectedValue(new Error('down')) } as unknown as RateLimiter, { warn: jest.fn() } as never);
    await expect(failing.enforce({ ip: '1.2.3.4' } as FastifyRequest, Endpoints.bookGet, ANONYMOUS, false)).resolves.toBeUndefined();
  });
});

describe('fair shares (docs/DECISIONS.md, "Limits")', () => {
  const small = Object.assign(new GatewayConfig(), { PICTURE_SIGNING_KEY: 'x'.repeat(16), RATE_LIMIT_USER_PER_MIN: 2, RATE_LIMIT_APP_PER_MIN: 3, RATE_LIMIT_AUTH_PER_MIN: 1 });
  const user: Caller = { userId: '7', clientId: 'p', tier: 'premium' };
  const app: Caller = { clientId: 'p', tier: 'premium' };

  it('limits a signed-in user and an app without a user, premium or not, each on its own count', async () => {
    const fair = new RateLimitPolicy(small, {} as RateLimiter, { warn: jest.fn() } as never);
    expect([fair.takeFairShare(user), fair.takeFairShare(user), fair.takeFairShare(user)]).toEqual([true, true, false]);
    // the user's calls are not the app's
    expect([fair.takeFairShare(app), fair.takeFairShare(app), fair.takeFairShare(app), fair.takeFairShare(app)]).toEqual([true, true, true, false]);
    // anonymous callers have the API's per-address limit instead (docs/api/README.md, "Rate limits")
    expect(fair.takeFairShare(ANONYMOUS)).toBe(true);
    const refused = { ip: '1.2.3.4' } as FastifyRequest;
    await expect(fair.enforce(refused, Endpoints.bookGet, user, true)).rejects.toMatchObject({ status: 429, code: 111 });
    expect(refused.plaza.rateLimitHeaders).toMatchObject({ 'ratelimit-limit': '2', 'ratelimit-remaining': '0' });
    expect(refused.plaza.rateLimitHeaders?.['retry-after']).toBeDefined();
  });

  it('counts /auth2 per client address, and nothing when limits are off', () => {
    const fair = new RateLimitPolicy(small, {} as RateLimiter, { warn: jest.fn() } as never);
    expect(fair.takeAuthShare({ ip: '10.0.0.9' } as FastifyRequest)).toMatchObject({ allowed: true, remaining: 0 });
    expect(fair.takeAuthShare({ ip: '10.0.0.9' } as FastifyRequest)).toMatchObject({ allowed: false });
    expect(fair.takeAuthShare({ ip: '10.0.0.10' } as FastifyRequest)).toMatchObject({ allowed: true });
    const off = new RateLimitPolicy(Object.assign(new GatewayConfig(), { ...small, RATE_LIMIT_ENABLED: false }), {} as RateLimiter, { warn: jest.fn() } as never);
    expect(off.takeAuthShare({ ip: '10.0.0.9' } as FastifyRequest)).toBeUndefined();
    expect(off.takeFairShare(user)).toBe(true);
  });
});
