import { randomUUID } from 'node:crypto';
import { clientToken, tokenFor } from '../support/auth';
import { Apps, Users } from '../support/fixtures';
import { startGateway, ExtraGateway } from '../support/gateways';
import { ApiResponse, expectError, get } from '../support/http';

/** Any endpoint counted against the limits; what the service answers does not matter here. */
const COUNTED = '/v2/book/1';
const MOVIE = '/v2/movie/subject/1';
/** A read the gateway answers from its response cache once it has seen it. */
const CACHED = '/v2/loc/108296';

describe('rate limits across two gateway replicas (docs/api/README.md, "Tiers and scopes")', () => {
  let g1: ExtraGateway;
  let g2: ExtraGateway;

  beforeAll(async () => {
    // a namespace of their own: the shared test gateway (with huge limits) counts elsewhere
    const env = {
      RATE_LIMIT_NAMESPACE: `rl-${randomUUID().slice(0, 8)}`,
      TRUST_PROXY: 'true',
      RATE_LIMIT_ANON_PER_HOUR: '6',
      RATE_LIMIT_APIKEY_PER_HOUR: '5',
      RATE_LIMIT_MOVIE_BASIC_PER_MIN: '4',
    };
    [g1, g2] = await Promise.all([startGateway(env), startGateway(env)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([g1?.stop(), g2?.stop()]);
  });

  const from = (address: string) => ({ 'x-forwarded-for': address });

  it('counts anonymous calls per client address across replicas, then 429/112', async () => {
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let i = 0; i < 8; i++) {
      const gateway = i % 2 === 0 ? g1 : g2;
      const res = await get(COUNTED, { baseUrl: gateway.baseUrl, headers: from('10.1.0.1') });
      statuses.push(res.status);
      remaining.push(res.headers.get('ratelimit-remaining') ?? '');
      expect(res.headers.get('ratelimit-limit')).toBe('6');
      expect(res.headers.get('x-ratelimit-limit')).toBe('6');
    }
    expect(statuses.slice(0, 6).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(6)).toEqual([429, 429]);
    expect(remaining).toEqual(['5', '4', '3', '2', '1', '0', '0', '0']);

    const limited = await get(COUNTED, { baseUrl: g2.baseUrl, headers: from('10.1.0.1') });
    expectError(limited, 429, 112);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(Number(limited.headers.get('ratelimit-reset'))).toBe(retryAfter);

    // another address has its own window
    expect((await get(COUNTED, { baseUrl: g1.baseUrl, headers: from('10.1.0.2') })).status).not.toBe(429);
  });

  it('never lets concurrent requests on two replicas pass the limit', async () => {
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => get(COUNTED, { baseUrl: (i % 2 ? g1 : g2).baseUrl, headers: from('10.1.0.3') })),
    );
    expect(results.filter((r) => r.status !== 429)).toHaveLength(6);
  });

  it('limits calls with an apikey per app: 429/111', async () => {
    const statuses = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await get(COUNTED, { baseUrl: (i % 2 ? g1 : g2).baseUrl, query: { apikey: Apps.advance.clientId }, headers: from(`10.2.0.${i}`) })).status);
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    expectError(await get(COUNTED, { baseUrl: g1.baseUrl, query: { apikey: Apps.advance.clientId } }), 429, 111);
  });

  it('rejects an unknown apikey with 400/104 and a blocked one with 400/105', async () => {
    expectError(await get(COUNTED, { baseUrl: g1.baseUrl, query: { apikey: 'no-such-app' } }), 400, 104);
    expectError(await get(COUNTED, { baseUrl: g1.baseUrl, query: { apikey: Apps.blocked.clientId } }), 400, 105);
  });

  it('limits the movie basic tier per app and minute, and never the premium tier', async () => {
    const basic = await tokenFor(Users.carol, Apps.basic);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await get(MOVIE, { baseUrl: (i % 2 ? g1 : g2).baseUrl, token: basic })).status);
    expect(statuses.slice(4)).toEqual([429, 429]);
    const limited = await get(MOVIE, { baseUrl: g1.baseUrl, token: basic });
    expectError(limited, 429, 111);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);

    const premium = await tokenFor(Users.carol, Apps.premium);
    for (let i = 0; i < 8; i++) {
      const res = await get(MOVIE, { baseUrl: g2.baseUrl, token: premium });
      expect(res.status).not.toBe(429);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
  });

  it('counts reads answered from the response cache like any other, then 429/112 from the cache too', async () => {
    const answers = [];
    // one replica: the first read fills its cache, the next ones are answered from it
    for (let i = 0; i < 8; i++) answers.push(await get(CACHED, { baseUrl: g1.baseUrl, headers: from('10.4.0.1') }));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    expect(answers.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['5', '4', '3', '2', '1', '0', '0', '0']);
    const etag = answers[0].headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    for (const ok of answers.slice(0, 6)) expect(ok.headers.get('etag')).toBe(etag);
    expectError(answers[7], 429, 112);
    expect(Number(answers[7].headers.get('retry-after'))).toBeGreaterThan(0);
    // a conditional read is counted as well: still 429, never a 304 past the limit
    const conditional = await get(CACHED, { baseUrl: g1.baseUrl, headers: { ...from('10.4.0.1'), 'if-none-match': etag } });
    expectError(conditional, 429, 112);
  });

  it('never limits the premium tier on cached reads, and its ETags still answer 304', async () => {
    const premium = await clientToken(Apps.premium);
    const answers: ApiResponse[] = [];
    for (let i = 0; i < 8; i++) answers.push(await get(CACHED, { baseUrl: g1.baseUrl, token: premium, headers: from('10.4.0.2') }));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(answers.every((r) => r.headers.get('ratelimit-limit') === null)).toBe(true);
    const etag = answers[0].headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    expect(answers.every((r) => r.headers.get('etag') === etag && r.text === answers[0].text)).toBe(true);
    const unchanged = await get(CACHED, { baseUrl: g1.baseUrl, token: premium, headers: { 'if-none-match': etag } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
  });

  it('does not count /health, /ready or /auth2', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await get('/health', { baseUrl: g1.baseUrl, headers: from('10.1.0.9') })).status).toBe(200);
    }
    expect((await get(COUNTED, { baseUrl: g1.baseUrl, headers: from('10.1.0.9') })).headers.get('ratelimit-remaining')).toBe('5');
  });

  it('can be switched off', async () => {
    const open = await startGateway({ RATE_LIMIT_ENABLED: 'false', RATE_LIMIT_ANON_PER_HOUR: '1' });
    try {
      for (let i = 0; i < 4; i++) {
        const res = await get(COUNTED, { baseUrl: open.baseUrl });
        expect(res.status).not.toBe(429);
        expect(res.headers.get('ratelimit-limit')).toBeNull();
      }
    } finally {
      await open.stop();
    }
  }, 60_000);
});

describe("a signed-in user's fair share (docs/DECISIONS.md, \"Limits\")", () => {
  let gateway: ExtraGateway;

  beforeAll(async () => {
    gateway = await startGateway({ RATE_LIMIT_NAMESPACE: `fs-${randomUUID().slice(0, 8)}`, RATE_LIMIT_USER_PER_MIN: '3' });
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
  });

  it('refuses the user with 429/111 and the RateLimit headers once the minute is spent, on every endpoint it counts, and no one else', async () => {
    // the share is a fixed minute: start where the whole test fits in one
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
    const token = await tokenFor(Users.carol);
    const read = (path: string, query?: Record<string, string>) => get(path, { baseUrl: gateway.baseUrl, token, query });
    for (let i = 0; i < 3; i++) expect((await read(COUNTED)).status).not.toBe(429);

    // refused before fastify, and by the guard (a JSONP answer is the guard's): the same answer
    const refusals = [await read(COUNTED), await read(MOVIE, { fields: 'id' })];
    for (const refused of refusals) {
      expectError(refused, 429, 111);
      expect(refused.headers.get('ratelimit-limit')).toBe('3');
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.headers.get('ratelimit-reset')).toBe(String(retryAfter));
      expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
      expect(refused.headers.get('x-request-id')).toBeTruthy();
    }
    const jsonp = await read(COUNTED, { callback: 'cb' });
    expect(jsonp.status).toBe(429);
    expect(jsonp.text).toBe('/**/cb({"msg":"rate_limit_exceeded1","code":111,"request":"GET /v2/book/1"});');
    expect(jsonp.headers.get('ratelimit-remaining')).toBe('0');

    // not counted: the OpenAPI document, picture bytes (whatever they answer), a path no endpoint has
    expect((await read('/v2/openapi.json')).status).toBe(200);
    expect((await read('/v2/picture/none.png')).status).not.toBe(429);
    expectError(await read('/v2/nothing'), 404, 1001);
    // and another user has a share of their own
    expect((await get(COUNTED, { baseUrl: gateway.baseUrl, token: await tokenFor(Users.dave) })).status).not.toBe(429);
  });
});
