import { randomUUID } from 'node:crypto';
import { clientToken, tokenFor } from '../support/auth';
import { Apps, PASSWORD, Users } from '../support/fixtures';
import { ExtraGateway, startGateway } from '../support/gateways';
import { expectError, get, post } from '../support/http';

/** A public read the gateway answers from its response cache once it has seen it. */
const CACHED = '/v2/loc/108288';

/**
 * REQUIRE_HTTPS (docs/api/README.md, "Authorization": endpoints that need authorization are called over https;
 * docs/CONFIGURATION.md: a Bearer token over plain http is 400/100, `/auth2/*` included; behind a
 * proxy, TRUST_PROXY makes X-Forwarded-Proto count). The test stack speaks plain http, so the
 * proxy's header stands for https.
 */
describe('https required (REQUIRE_HTTPS=true)', () => {
  let direct: ExtraGateway;
  let proxied: ExtraGateway;
  let token: string;
  let appToken: string;

  beforeAll(async () => {
    // limits of their own, as high as the shared stack's: other suites' anonymous calls count elsewhere
    const limits = { RATE_LIMIT_NAMESPACE: `https-${randomUUID().slice(0, 8)}`, RATE_LIMIT_ANON_PER_HOUR: '1000000', RATE_LIMIT_APIKEY_PER_HOUR: '1000000' };
    [direct, proxied] = await Promise.all([
      startGateway({ ...limits, REQUIRE_HTTPS: 'true' }),
      startGateway({ ...limits, REQUIRE_HTTPS: 'true', TRUST_PROXY: 'true' }),
    ]);
    [token, appToken] = await Promise.all([tokenFor(Users.alice), clientToken(Apps.premium)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([direct?.stop(), proxied?.stop()]);
  });

  it('refuses a Bearer token over plain http with 400/100, cached answers included', async () => {
    const baseUrl = direct.baseUrl;
    expectError(await get('/v2/book/2100002', { baseUrl, token }), 400, 100, 'GET /v2/book/2100002');
    expect((await get('/v2/book/2100002', { baseUrl, token })).body.msg).toBe('invalid_request_scheme');
    // the read is cached once an anonymous call has made it; a token still may not travel in clear
    for (let i = 0; i < 3; i++) expect((await get(CACHED, { baseUrl })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      expectError(await get(CACHED, { baseUrl, token: appToken }), 400, 100, `GET ${CACHED}`);
      expectError(await get(CACHED, { baseUrl, token }), 400, 100, `GET ${CACHED}`);
    }
    // a write is refused before anything is done
    expectError(await post('/v2/book/2100002/collection', { baseUrl, token, form: { status: 'wish' } }), 400, 100);
  });

  it('serves calls without a token over http', async () => {
    expect((await get('/v2/book/2100002', { baseUrl: direct.baseUrl })).status).toBe(200);
  });

  it('covers /auth2/* too', async () => {
    const grant = await post('/auth2/token', {
      baseUrl: direct.baseUrl,
      form: { grant_type: 'password', client_id: Apps.premium.clientId, client_secret: Apps.premium.secret, username: Users.alice.uid, password: PASSWORD },
    });
    expectError(grant, 400, 100, 'POST /auth2/token');
  });

  it('does not believe X-Forwarded-Proto unless TRUST_PROXY is set', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    expectError(await get('/v2/book/2100002', { baseUrl: direct.baseUrl, token, headers: https }), 400, 100);
    expect((await get('/v2/book/2100002', { baseUrl: proxied.baseUrl, token, headers: https })).status).toBe(200);
    expectError(await get('/v2/book/2100002', { baseUrl: proxied.baseUrl, token }), 400, 100);
    expectError(await get('/v2/book/2100002', { baseUrl: proxied.baseUrl, token, headers: { 'x-forwarded-proto': 'http' } }), 400, 100);
    const grant = await post('/auth2/token', {
      baseUrl: proxied.baseUrl,
      headers: https,
      form: { grant_type: 'client_credentials', client_id: Apps.premium.clientId, client_secret: Apps.premium.secret },
    });
    expect(grant.status).toBe(200);
  });
});
