import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AccessPolicy } from '../access/access-policy';
import { TokenVerifier } from '../auth/token-verifier';
import type { Caller } from '@plaza/contracts';
import { InFlightLimit, moveInFlightShare } from './in-flight';
import { RateLimitPolicy } from './rate-limit.policy';

class FakeResponse extends EventEmitter {
  status?: number;
  headers?: Record<string, string | number>;
  body?: string;
  writeHead(status: number, headers: Record<string, string | number>) {
    this.status = status;
    this.headers = headers;
    return this;
  }
  end(body?: string) {
    this.body = body;
    this.emit('close');
    return this;
  }
}

const request = (url: string, headers: Record<string, string> = {}, address = '198.51.100.1') =>
  ({ url, method: 'GET', headers, socket: { remoteAddress: address } }) as unknown as IncomingMessage;

describe('InFlightLimit', () => {
  const tokens = { cachedPrincipal: (token: string) => (token === 'alice-token' ? { caller: { userId: '7', clientId: 'app', tier: 'basic' }, scopes: [] } : undefined) } as unknown as TokenVerifier;
  const policy = {
    hasBearer: (r: IncomingMessage) => typeof r.headers.authorization === 'string',
    bearerToken: (r: IncomingMessage) => (r.headers.authorization as string).slice('Bearer '.length),
  } as unknown as AccessPolicy;
  let spentUsers = new Set<string>();
  const rateLimits = {
    spentFairShare: (caller: Caller) => (spentUsers.has(caller.userId ?? '') ? { state: { limit: 600, remaining: 0, resetSeconds: 42, allowed: false }, bucket: 'user' } : undefined),
  } as unknown as RateLimitPolicy;
  const make = (constantCors = true) => {
    const cors = constantCors ? { 'access-control-allow-origin': '*' } : undefined;
    const limit = new InFlightLimit(2, (req) => req.socket.remoteAddress ?? '', { 'x-content-type-options': 'nosniff' }, cors);
    limit.enable({ policy, tokens, rateLimits });
    return limit;
  };
  beforeEach(() => (spentUsers = new Set()));

  it("refuses a caller whose fair share is spent with 429/111 and the guard's RateLimit headers, on the endpoints the share counts", () => {
    const limit = make();
    spentUsers.add('7');
    const alice = (url: string) => request(url, { authorization: 'Bearer alice-token' });
    const refused = new FakeResponse();
    expect(limit.admit(alice('/v2/book/search?q=a'), refused as unknown as ServerResponse)).toBe(true);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body ?? '')).toEqual({ msg: 'rate_limit_exceeded1', code: 111, request: 'GET /v2/book/search' });
    expect(refused.headers).toMatchObject({ 'ratelimit-limit': '600', 'ratelimit-remaining': '0', 'ratelimit-reset': '42', 'retry-after': '42', 'access-control-allow-origin': '*' });
    // picture bytes, the OpenAPI document and explorer, /auth2/* and unknown paths are not counted
    // by the guard, so not here either; another user is not spent
    for (const url of ['/v2/picture/a.png', '/v2/openapi.json', '/v2/explorer', '/auth2/token', '/v2/book/not-an-id', '/v2/nothing']) {
      const passed = new FakeResponse();
      expect(limit.admit(alice(url), passed as unknown as ServerResponse)).toBe(false);
      passed.emit('close'); // answered: its in-flight place is free again
    }
    expect(limit.admit(alice('/v2/movie/subject/1/?fields=id'), new FakeResponse() as unknown as ServerResponse)).toBe(true);
    expect(limit.admit(request('/v2/book/1'), new FakeResponse() as unknown as ServerResponse)).toBe(false);
  });

  it('lets a caller have `limit` requests at once and refuses the next with 429/111 in the error shape', () => {
    const limit = make();
    const held = [new FakeResponse(), new FakeResponse()];
    const alice = () => request('/v2/book/search?q=a', { authorization: 'Bearer alice-token', 'x-request-id': 'r-1' });
    for (const res of held) expect(limit.admit(alice(), res as unknown as ServerResponse)).toBe(false);
    const refused = new FakeResponse();
    expect(limit.admit(alice(), refused as unknown as ServerResponse)).toBe(true);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body ?? '')).toEqual({ msg: 'rate_limit_exceeded1', code: 111, request: 'GET /v2/book/search' });
    expect(refused.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-request-id': 'r-1', 'access-control-allow-origin': '*', 'content-type': 'application/json; charset=utf-8' });
    // another caller, and the same caller once a request ended, are let through
    expect(limit.admit(request('/v2/book/1'), new FakeResponse() as unknown as ServerResponse)).toBe(false);
    held[0].emit('close');
    expect(limit.admit(alice(), new FakeResponse() as unknown as ServerResponse)).toBe(false);
  });

  it('counts callers without a known token by address (429/112)', () => {
    const limit = make();
    for (let i = 0; i < 2; i++) limit.admit(request('/v2/book/1', { authorization: 'Bearer unknown' }), new FakeResponse() as unknown as ServerResponse);
    const refused = new FakeResponse();
    expect(limit.admit(request('/v2/book/1'), refused as unknown as ServerResponse)).toBe(true);
    expect(JSON.parse(refused.body ?? '').code).toBe(112);
  });

  it("moves a new token's request from its address to its user once verified, and refuses the move when the user's share is full", () => {
    const limit = make();
    const fresh = () => request('/v2/book/1', { authorization: 'Bearer new-token' });
    const admitted = [fresh(), fresh()];
    const answers = admitted.map(() => new FakeResponse());
    admitted.forEach((req, i) => expect(limit.admit(req, answers[i] as unknown as ServerResponse)).toBe(false));
    // both counted by address: a third caller from that address is refused
    expect(limit.admit(request('/v2/book/1'), new FakeResponse() as unknown as ServerResponse)).toBe(true);
    // the guard verified the token: the first moves to the user, freeing its address's place
    expect(moveInFlightShare(admitted[0], 'user:7')).toBe(true);
    expect(moveInFlightShare(admitted[0], 'user:7')).toBe(true);
    const anonymous = new FakeResponse();
    expect(limit.admit(request('/v2/book/1'), anonymous as unknown as ServerResponse)).toBe(false);
    anonymous.emit('close');
    // the user's share holds the moved request; one more of the user's fills it
    const alice = new FakeResponse();
    expect(limit.admit(request('/v2/book/1', { authorization: 'Bearer alice-token' }), alice as unknown as ServerResponse)).toBe(false);
    expect(moveInFlightShare(admitted[1], 'user:7')).toBe(false);
    // the refused move left the second counted by address until it closes
    expect(limit.admit(request('/v2/book/1'), new FakeResponse() as unknown as ServerResponse)).toBe(false);
    answers[1].emit('close');
    alice.emit('close');
    // once closed, the moved request frees the user's place, not the address's
    answers[0].emit('close');
    const again = [new FakeResponse(), new FakeResponse()];
    for (const res of again) expect(limit.admit(request('/v2/book/1', { authorization: 'Bearer alice-token' }), res as unknown as ServerResponse)).toBe(false);
    expect(limit.admit(request('/v2/book/1', { authorization: 'Bearer alice-token' }), new FakeResponse() as unknown as ServerResponse)).toBe(true);
    // a request this limit never counted (rate limits off) moves nowhere and is let through
    expect(moveInFlightShare(request('/v2/book/1'), 'user:7')).toBe(true);
  });

  it('leaves to fastify the refusals whose answer needs its hooks: JSONP, /auth2/*, per-origin CORS, draining', () => {
    const cases: Array<[InFlightLimit, string]> = [
      [make(), '/v2/book/1?callback=cb'],
      [make(), '/auth2/token'],
      [make(false), '/v2/book/1'],
    ];
    const draining = make();
    draining.close();
    cases.push([draining, '/v2/book/1']);
    for (const [limit, url] of cases) {
      for (let i = 0; i < 2; i++) limit.admit(request(url), new FakeResponse() as unknown as ServerResponse);
      const res = new FakeResponse();
      const req = request(url);
      expect(limit.admit(req, res as unknown as ServerResponse)).toBe(false);
      expect(res.status).toBeUndefined();
      expect(Object.getOwnPropertySymbols(req)).toHaveLength(1);
    }
  });
});
