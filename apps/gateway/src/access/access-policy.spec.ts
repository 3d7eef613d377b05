import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { ANONYMOUS, ApiError, Caller } from '@plaza/contracts';
import type { FastifyRequest } from 'fastify';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApikeyResolver } from '../auth/apikey-resolver';
import { BearerStrategy } from '../auth/bearer.strategy';
import { Principal } from '../auth/principal';
import { TokenVerifier } from '../auth/token-verifier';
import { GatewayConfig } from '../config/gateway.config';
import { EndpointDefinition, Endpoints } from '../endpoints/endpoint-table';
import { InFlightLimit } from '../rate-limit/in-flight';
import { RateLimitPolicy } from '../rate-limit/rate-limit.policy';
import { AccessGuard } from './access.guard';
import { AccessPolicy } from './access-policy';

// What counts as a Bearer credential (docs/DECISIONS.md, "Authentication and tokens"; `Bearer` with no token was once taken for an anonymous
// call). Through the real stack: apps/api-e2e/src/security/empty-bearer.e2e-spec.ts.

const config = Object.assign(new GatewayConfig(), { PICTURE_SIGNING_KEY: 'x'.repeat(16) });
const policy = new AccessPolicy(config);
const withAuthorization = (authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization } });

describe('AccessPolicy: Bearer credentials', () => {
  it.each([
    ['Bearer abc.def-ghi', true, 'abc.def-ghi'],
    ['bearer   abc==', true, 'abc=='],
    ['BEARER\tabc', true, 'abc'],
    // no token, or only spaces (Node strips the trailing ones, a test double may not): a Bearer credential with a malformed token
    ['Bearer', true, undefined],
    ['Bearer ', true, undefined],
    ['Bearer    ', true, undefined],
    ['bearer', true, undefined],
    ['Bearer two tokens', true, undefined],
    ['Bearer ab!c', true, undefined],
    // not the Bearer scheme: not a Bearer credential (Basic and the rest are ignored on /v2, DECISIONS.md)
    ['Basic dTpw', false, undefined],
    ['Bearerabc', false, undefined],
    ['', false, undefined],
    [undefined, false, undefined],
  ])('%j: hasBearer %s, token %s', (authorization, has, token) => {
    const request = withAuthorization(authorization);
    expect(policy.hasBearer(request)).toBe(has);
    expect(policy.bearerToken(request)).toBe(token);
  });
});

describe('AccessGuard: a Bearer credential without a well-formed token is 401/103, never anonymous', () => {
  const app: Caller = { clientId: 'app', tier: 'premium' };
  const principal: Principal = { caller: app, scopes: ['book_basic_r', 'book_basic_w'] };
  const verifier = { verify: jest.fn(async (token: string) => (token === 'good' ? principal : Promise.reject(new ApiError('invalid_access_token')))) };
  // registers the 'bearer' strategy with passport, as the gateway module does
  new BearerStrategy(verifier as unknown as TokenVerifier);
  const rateLimits = { enforce: jest.fn(async () => undefined) };
  const apikeys = { resolve: jest.fn() };
  const ADDRESS = '198.51.100.1';

  async function callerOf(endpoint: EndpointDefinition, authorization?: string, raw: object = {}): Promise<Caller | undefined> {
    const reflector = { get: () => endpoint } as unknown as Reflector;
    const guard = new AccessGuard(reflector, policy, apikeys as unknown as ApikeyResolver, rateLimits as unknown as RateLimitPolicy);
    const request = { ...withAuthorization(authorization), query: {}, protocol: 'http', url: '/', method: 'GET', ip: ADDRESS, raw } as unknown as FastifyRequest;
    const context = {
      getHandler: () => callerOf,
      getClass: () => AccessGuard,
      switchToHttp: () => ({ getRequest: () => request, getResponse: () => ({}), getNext: () => undefined }),
    } as unknown as ExecutionContext;
    await guard.canActivate(context);
    return request.plaza.caller;
  }

  it.each(['Bearer', 'Bearer ', 'Bearer    ', 'bearer'])('%j on a public read and on a user endpoint: 401/103, and no token is verified', async (authorization) => {
    verifier.verify.mockClear();
    for (const endpoint of [Endpoints.bookGet, Endpoints.annotationCreate]) {
      await expect(callerOf(endpoint, authorization)).rejects.toMatchObject({ code: 103, status: 401 });
    }
    expect(verifier.verify).not.toHaveBeenCalled();
  });

  it('a well-formed token is verified; another scheme, or none, is anonymous as before', async () => {
    expect(await callerOf(Endpoints.bookGet, 'Bearer   good')).toEqual(app);
    await expect(callerOf(Endpoints.bookGet, 'Bearer bad')).rejects.toMatchObject({ code: 103 });
    expect(await callerOf(Endpoints.bookGet, 'Basic dTpw')).toEqual(ANONYMOUS);
    expect(await callerOf(Endpoints.bookGet)).toEqual(ANONYMOUS);
    await expect(callerOf(Endpoints.annotationCreate, 'Basic dTpw')).rejects.toMatchObject({ code: 1000, status: 403 });
  });

  it("moves a request of a token verified here for the first time to its caller's in-flight share, and refuses it 429/111 when that share is full", async () => {
    // one request at once per caller; the gateway had never verified the token, so it counted by address
    const limit = new InFlightLimit(1, () => ADDRESS, {}, {});
    limit.enable({
      policy,
      tokens: { cachedPrincipal: () => undefined } as unknown as TokenVerifier,
      rateLimits: { spentFairShare: () => undefined } as unknown as RateLimitPolicy,
    });
    const arriving = () => {
      const raw = { url: '/v2/book/1', method: 'GET', headers: { authorization: 'Bearer good' }, socket: { remoteAddress: ADDRESS } } as unknown as IncomingMessage;
      const res = new EventEmitter() as unknown as ServerResponse;
      expect(limit.admit(raw, res)).toBe(false);
      return { raw, res };
    };
    const first = arriving();
    expect(await callerOf(Endpoints.bookGet, 'Bearer good', first.raw)).toEqual(app);
    // the address's place is free again: the next request is admitted, and the app's share is full
    const second = arriving();
    rateLimits.enforce.mockClear();
    await expect(callerOf(Endpoints.bookGet, 'Bearer good', second.raw)).rejects.toMatchObject({ msg: 'rate_limit_exceeded1', code: 111, status: 429 });
    expect(rateLimits.enforce).not.toHaveBeenCalled();
    // once the first has been answered, its share takes the next
    first.res.emit('close');
    second.res.emit('close');
    expect(await callerOf(Endpoints.bookGet, 'Bearer good', arriving().raw)).toEqual(app);
  });
});
