import { randomUUID } from 'node:crypto';
import { tokenFor } from '../support/auth';
import { Users } from '../support/fixtures';
import { ExtraGateway, startGateway } from '../support/gateways';
import { expectError, get } from '../support/http';

/** Any endpoint counted against the anonymous limit; what the service answers does not matter here. */
const COUNTED = '/v2/book/2100002';
const LIMIT = 4;

/**
 * TRUST_PROXY as a list of proxies (docs/DECISIONS.md, "Limits"): the client address is the nearest
 * X-Forwarded-For entry that is not a trusted proxy, and X-Forwarded-Proto counts only from a
 * trusted peer. The test client connects over loopback, so `loopback` makes it a trusted proxy and
 * a range without it makes it a client like any other.
 */
describe('trusted proxies (TRUST_PROXY=<addresses>)', () => {
  let behindLoopback: ExtraGateway;
  let behindOthers: ExtraGateway;
  let token: string;

  beforeAll(async () => {
    const env = (name: string) => ({
      RATE_LIMIT_NAMESPACE: `${name}-${randomUUID().slice(0, 8)}`,
      RATE_LIMIT_ANON_PER_HOUR: String(LIMIT),
      REQUIRE_HTTPS: 'true',
    });
    [behindLoopback, behindOthers] = await Promise.all([
      startGateway({ ...env('proxy-lo'), TRUST_PROXY: 'loopback' }),
      startGateway({ ...env('proxy-net'), TRUST_PROXY: '192.0.2.0/24, 198.51.100.7' }),
    ]);
    token = await tokenFor(Users.alice);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([behindLoopback?.stop(), behindOthers?.stop()]);
  });

  const statusesOf = async (baseUrl: string, forwardedFor: (i: number) => string, count = LIMIT + 2) => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) statuses.push((await get(COUNTED, { baseUrl, headers: { 'x-forwarded-for': forwardedFor(i) } })).status);
    return statuses;
  };

  it('counts the address the trusted proxy saw, whatever the client wrote before it', async () => {
    // a proxy that appends: the client chose the first entry, the proxy wrote the last
    const statuses = await statusesOf(behindLoopback.baseUrl, (i) => `203.0.113.${i}, 10.9.0.1`);
    expect(statuses.slice(0, LIMIT).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(LIMIT)).toEqual([429, 429]);
    expectError(await get(COUNTED, { baseUrl: behindLoopback.baseUrl, headers: { 'x-forwarded-for': '10.9.0.1' } }), 429, 112);
    // another client behind the same proxy has its own window
    expect((await get(COUNTED, { baseUrl: behindLoopback.baseUrl, headers: { 'x-forwarded-for': '10.9.0.2' } })).status).toBe(200);
  });

  it('walks back over every trusted hop: a loopback entry is a proxy, not the client', async () => {
    const statuses = await statusesOf(behindLoopback.baseUrl, (i) => `203.0.113.${i}, 10.9.0.3, 127.0.0.1`);
    expect(statuses.slice(LIMIT)).toEqual([429, 429]);
    expectError(await get(COUNTED, { baseUrl: behindLoopback.baseUrl, headers: { 'x-forwarded-for': '10.9.0.3' } }), 429, 112);
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    // every request names another address, and all are counted as the peer's own
    const statuses = await statusesOf(behindOthers.baseUrl, (i) => `10.8.0.${i}`);
    expect(statuses.slice(0, LIMIT).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(LIMIT)).toEqual([429, 429]);
  });

  it('believes X-Forwarded-Proto only from a trusted proxy', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    expect((await get(COUNTED, { baseUrl: behindLoopback.baseUrl, token, headers: https })).status).toBe(200);
    expectError(await get(COUNTED, { baseUrl: behindLoopback.baseUrl, token }), 400, 100);
    expectError(await get(COUNTED, { baseUrl: behindOthers.baseUrl, token, headers: https }), 400, 100);
  });
});
