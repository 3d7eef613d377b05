import { craftToken, foreignKey, unsignedToken } from '../support/tokens';
import { expectError, get } from '../support/http';

/** A public endpoint that exists: any token sent to it is checked before anything else. */
const PUBLIC = '/v2/picture/note-0123456789abcdef0123456789abcdef.jpg';

describe('access tokens at the gateway', () => {
  it('accepts a well-formed token signed by identity', async () => {
    expect((await get(PUBLIC, { token: await craftToken() })).status).toBe(404);
  });

  it('rejects an expired token with 401/106', async () => {
    const now = Math.floor(Date.now() / 1000);
    expectError(await get(PUBLIC, { token: await craftToken({ iat: now - 7200, exp: now - 3600 }) }), 401, 106);
  });

  it.each([
    ['garbage', async () => 'not-a-token'],
    ['a wrong signature', async () => craftToken({ key: foreignKey() })],
    ['alg none', async () => unsignedToken()],
    ['a wrong audience', async () => craftToken({ aud: 'some-other-api' })],
    ['a wrong issuer', async () => craftToken({ iss: 'someone-else' })],
    ['an unknown key id', async () => craftToken({ key: foreignKey(), kid: 'k99999999999999' })],
    ['an unknown tier', async () => craftToken({ tier: 'platinum' })],
  ])('rejects %s with 401/103, on public endpoints too', async (_, make) => {
    expectError(await get(PUBLIC, { token: await make() }), 401, 103, `GET ${PUBLIC}`);
  });

  it('ignores tokens in the query string (only the Authorization header counts)', async () => {
    const res = await get(PUBLIC, { query: { access_token: 'not-a-token' } });
    expect(res.status).toBe(404);
  });
});
