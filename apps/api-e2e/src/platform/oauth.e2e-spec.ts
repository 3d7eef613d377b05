import { createHash, randomBytes } from 'node:crypto';
import { clientToken, passwordGrant, TokenBody } from '../support/auth';
import { Apps, PASSWORD, TestApp, Users } from '../support/fixtures';
import { expectError, get, post } from '../support/http';
import { importRecords } from '../support/import';
import { craftToken, foreignKey, unsignedToken } from '../support/tokens';

const PICTURE = '/v2/picture/note-0123456789abcdef0123456789abcdef.jpg';
const tokenForm = (form: Record<string, string | undefined>) => post<TokenBody & { error?: string; code?: number }>('/auth2/token', { form });

describe('OAuth token endpoint (docs/api/oauth.md)', () => {
  it('issues a token pair with the password grant to a trusted app', async () => {
    const res = await tokenForm({ grant_type: 'password', client_id: 'test-premium', client_secret: 'test-premium-secret', username: 'alice', password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, user_id: '1001', user_name: 'alice' });
    expect(res.body.access_token.split('.')).toHaveLength(3);
    expect(typeof res.body.refresh_token).toBe('string');
    expect(res.body.scope.split(' ')).toEqual(expect.arrayContaining(['book_basic_r', 'community_basic_note', 'event_basic_w']));
  });

  it('accepts a JSON body and a narrower scope given with commas', async () => {
    const res = await post<TokenBody>('/auth2/token', {
      json: { grant_type: 'password', client_id: 'test-premium', client_secret: 'test-premium-secret', username: 'bob', password: PASSWORD, scope: 'book_basic_r,book_basic_w' },
    });
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('book_basic_r book_basic_w');
  });

  it('accepts client credentials in HTTP Basic', async () => {
    const basic = Buffer.from('test-premium:test-premium-secret').toString('base64');
    const res = await post<TokenBody>('/auth2/token', { form: { grant_type: 'client_credentials' }, headers: { authorization: `Basic ${basic}` } });
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBeUndefined();
    expect(res.body.refresh_token).toBeUndefined();
  });

  it.each([
    ['no grant_type', { client_id: 'test-premium', client_secret: 'test-premium-secret' }, 113, 'invalid_request'],
    ['an unknown grant_type', { grant_type: 'magic', client_id: 'test-premium', client_secret: 'test-premium-secret' }, 114, 'unsupported_grant_type'],
    ['no client_id', { grant_type: 'password', username: 'alice', password: PASSWORD }, 113, 'invalid_request'],
    ['an unknown client', { grant_type: 'password', client_id: 'nobody', client_secret: 'x', username: 'alice', password: PASSWORD }, 104, 'invalid_client'],
    ['a wrong client secret', { grant_type: 'password', client_id: 'test-premium', client_secret: 'wrong', username: 'alice', password: PASSWORD }, 116, 'invalid_client'],
    ['a wrong password', { grant_type: 'password', client_id: 'test-premium', client_secret: 'test-premium-secret', username: 'carol', password: 'nope' }, 120, 'invalid_grant'],
    ['an unknown user', { grant_type: 'password', client_id: 'test-premium', client_secret: 'test-premium-secret', username: 'nobody', password: 'x' }, 120, 'invalid_grant'],
    ['an untrusted app using the password grant', { grant_type: 'password', client_id: 'test-untrusted', client_secret: 'test-untrusted-secret', username: 'alice', password: PASSWORD }, 114, 'unsupported_grant_type'],
    ['a scope the app may not have', { grant_type: 'password', client_id: 'test-book-only', client_secret: 'test-book-only-secret', username: 'alice', password: PASSWORD, scope: 'book_basic_w' }, 125, 'invalid_scope'],
    ['a blocked app', { grant_type: 'client_credentials', client_id: 'test-blocked', client_secret: 'test-blocked-secret' }, 105, 'unauthorized_client'],
    ['a public client asking for client credentials', { grant_type: 'client_credentials', client_id: 'test-public' }, 116, 'invalid_client'],
    ['a missing password', { grant_type: 'password', client_id: 'test-premium', client_secret: 'test-premium-secret', username: 'alice' }, 113, 'invalid_request'],
  ])('rejects %s', async (_, form, code, oauthError) => {
    const res = await tokenForm(form as Record<string, string>);
    expectError(res, 400, code, 'POST /auth2/token');
    expect(res.body.error).toBe(oauthError);
  });

  it('rotates refresh tokens: a refresh token works once', async () => {
    const first = await passwordGrant(Users.dave);
    const refreshed = await tokenForm({ grant_type: 'refresh_token', client_id: 'test-premium', client_secret: 'test-premium-secret', refresh_token: first.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
    expect(refreshed.body.user_id).toBe(Users.dave.id);
    const replay = await tokenForm({ grant_type: 'refresh_token', client_id: 'test-premium', client_secret: 'test-premium-secret', refresh_token: first.refresh_token });
    expectError(replay, 400, 119);
  });

  it('takes a replayed refresh token for a stolen one: the whole grant is revoked, the rotated tokens too (RFC 9700 4.14.2)', async () => {
    const refresh = (token: string | undefined) => tokenForm({ grant_type: 'refresh_token', client_id: 'test-premium', client_secret: 'test-premium-secret', refresh_token: token });
    const first = await passwordGrant(Users.erin);
    const otherSignIn = await passwordGrant(Users.erin);
    const rotated = await refresh(first.refresh_token);
    expect(rotated.status).toBe(200);
    expect((await get(PICTURE, { token: rotated.body.access_token })).status).toBe(404);

    expectError(await refresh(first.refresh_token), 400, 119);
    await new Promise((r) => setTimeout(r, 200));
    expectError(await get(PICTURE, { token: rotated.body.access_token }), 401, 103);
    expectError(await get(PICTURE, { token: first.access_token }), 401, 103);
    expectError(await refresh(rotated.body.refresh_token), 400, 119);
    expect((await refresh(otherSignIn.refresh_token)).status).toBe(200);
  });

  it('takes a used refresh token sent to /auth2/revoke for the same replay: 200, and the grant is revoked', async () => {
    const refresh = (token: string | undefined) => tokenForm({ grant_type: 'refresh_token', client_id: 'test-premium', client_secret: 'test-premium-secret', refresh_token: token });
    const first = await passwordGrant(Users.erin);
    const rotated = await refresh(first.refresh_token);
    expect(rotated.status).toBe(200);
    expect((await post('/auth2/revoke', { form: { token: first.refresh_token!, client_id: 'test-premium', client_secret: 'test-premium-secret' } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expectError(await get(PICTURE, { token: rotated.body.access_token }), 401, 103);
    expectError(await refresh(rotated.body.refresh_token), 400, 119);
  });

  it('does not widen scopes through the refresh grant', async () => {
    const narrow = await passwordGrant(Users.dave, Apps.premium, 'book_basic_r');
    const wider = await tokenForm({ grant_type: 'refresh_token', client_id: 'test-premium', client_secret: 'test-premium-secret', refresh_token: narrow.refresh_token, scope: 'book_basic_r book_basic_w' });
    expectError(wider, 400, 125);
    const same = await tokenForm({ grant_type: 'refresh_token', client_id: 'test-premium', client_secret: 'test-premium-secret', refresh_token: narrow.refresh_token });
    expect(same.status).toBe(200);
    expect(same.body.scope).toBe('book_basic_r');
  });

  it("refuses another app's refresh token", async () => {
    const grant = await passwordGrant(Users.dave, Apps.premium);
    const res = await tokenForm({ grant_type: 'refresh_token', client_id: 'test-advance', client_secret: 'test-advance-secret', refresh_token: grant.refresh_token });
    expectError(res, 400, 119);
    // and the victim's token still works
    const ok = await tokenForm({ grant_type: 'refresh_token', client_id: 'test-premium', client_secret: 'test-premium-secret', refresh_token: grant.refresh_token });
    expect(ok.status).toBe(200);
  });
});

describe('revocation (RFC 7009)', () => {
  it('revokes an access token everywhere at once', async () => {
    const grant = await passwordGrant(Users.erin);
    expect((await get(PICTURE, { token: grant.access_token })).status).toBe(404);
    const revoked = await post('/auth2/revoke', { form: { token: grant.access_token, client_id: 'test-premium', client_secret: 'test-premium-secret' } });
    expect(revoked.status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expectError(await get(PICTURE, { token: grant.access_token }), 401, 103);
  });

  it('revokes a refresh token, with client credentials in HTTP Basic', async () => {
    const grant = await passwordGrant(Users.erin);
    const basic = Buffer.from('test-premium:test-premium-secret').toString('base64');
    expect((await post('/auth2/revoke', { form: { token: grant.refresh_token }, headers: { authorization: `Basic ${basic}` } })).status).toBe(200);
    expectError(await tokenForm({ grant_type: 'refresh_token', client_id: 'test-premium', client_secret: 'test-premium-secret', refresh_token: grant.refresh_token }), 400, 119);
  });

  it('revokes with a refresh token the access tokens of its grant, those issued before each rotation too, and no other grant (RFC 7009 2.1)', async () => {
    const grant = await passwordGrant(Users.erin);
    const rotated = await tokenForm({ grant_type: 'refresh_token', client_id: 'test-premium', client_secret: 'test-premium-secret', refresh_token: grant.refresh_token });
    expect(rotated.status).toBe(200);
    const otherSignIn = await passwordGrant(Users.erin);
    for (const token of [grant.access_token, rotated.body.access_token, otherSignIn.access_token]) expect((await get(PICTURE, { token })).status).toBe(404);

    expect((await post('/auth2/revoke', { form: { token: rotated.body.refresh_token!, client_id: 'test-premium', client_secret: 'test-premium-secret' } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expectError(await get(PICTURE, { token: grant.access_token }), 401, 103);
    expectError(await get(PICTURE, { token: rotated.body.access_token }), 401, 103);
    expectError(await tokenForm({ grant_type: 'refresh_token', client_id: 'test-premium', client_secret: 'test-premium-secret', refresh_token: rotated.body.refresh_token }), 400, 119);
    // the same user's other sign-in goes on
    expect((await get(PICTURE, { token: otherSignIn.access_token })).status).toBe(404);
    expect((await tokenForm({ grant_type: 'refresh_token', client_id: 'test-premium', client_secret: 'test-premium-secret', refresh_token: otherSignIn.refresh_token })).status).toBe(200);
  });

  it("does not let one app revoke another app's token", async () => {
    const grant = await passwordGrant(Users.erin);
    expect((await post('/auth2/revoke', { form: { token: grant.access_token, client_id: 'test-advance', client_secret: 'test-advance-secret' } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect((await get(PICTURE, { token: grant.access_token })).status).toBe(404);
  });

  it('changes nothing for a token it did not sign, even one naming a real token (200, as RFC 7009 says)', async () => {
    const grant = await passwordGrant(Users.erin);
    const { jti } = JSON.parse(Buffer.from(grant.access_token.split('.')[1], 'base64url').toString());
    const forged = [
      // unsigned, with the real token's id
      unsignedToken({ jti }),
      // our key's id and the real token's id, signed by another key
      await craftToken({ jti, key: foreignKey() }),
      // an id no revocation list may hold (it was a 500)
      await craftToken({ jti: 'a b*', key: foreignKey() }),
    ];
    for (const token of forged) {
      expect((await post('/auth2/revoke', { form: { token, client_id: 'test-premium', client_secret: 'test-premium-secret' } })).status).toBe(200);
    }
    await new Promise((r) => setTimeout(r, 200));
    expect((await get(PICTURE, { token: grant.access_token })).status).toBe(404);
  });

  it("revokes every token of a user whose password changes, and the codes approved before", async () => {
    const before = await passwordGrant(Users.grace);
    expect((await get(PICTURE, { token: before.access_token })).status).toBe(404);
    const { verifier, challenge } = pkcePair();
    const approve = await post('/auth2/auth', {
      form: {
        client_id: 'test-public', redirect_uri: REDIRECT, response_type: 'code', scope: 'book_basic_r', code_challenge: challenge, code_challenge_method: 'S256',
        username: 'grace', password: PASSWORD, decision: 'approve',
      },
    });
    const code = new URL(approve.headers.get('location')!).searchParams.get('code')!;
    expect(code).toBeTruthy();
    expect(importRecords([{ kind: 'user', id: Users.grace.id, uid: 'grace', name: 'Grace', password: 'a brand new password' }]).status).toBe(0);
    await new Promise((r) => setTimeout(r, 200));
    expectError(await get(PICTURE, { token: before.access_token }), 401, 103);
    expectError(await tokenForm({ grant_type: 'refresh_token', client_id: 'test-premium', client_secret: 'test-premium-secret', refresh_token: before.refresh_token }), 400, 119);
    expectError(await tokenForm({ grant_type: 'password', client_id: 'test-premium', client_secret: 'test-premium-secret', username: 'grace', password: PASSWORD }), 400, 120);
    expectError(await tokenForm({ grant_type: 'authorization_code', client_id: 'test-public', code, redirect_uri: REDIRECT, code_verifier: verifier }), 400, 118);
    const after = await passwordGrant(Users.grace, Apps.premium, undefined, 'a brand new password');
    expect((await get(PICTURE, { token: after.access_token })).status).toBe(404);
  });
});

describe('bodies and headers of the OAuth endpoints', () => {
  it('takes a multipart body on /auth2/token and /auth2/revoke, as every POST does', async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ grant_type: 'password', client_id: 'test-premium', client_secret: 'test-premium-secret', username: 'erin', password: PASSWORD })) form.append(k, v);
    const issued = await post<TokenBody>('/auth2/token', { multipart: form });
    expect(issued.status).toBe(200);
    expect(issued.body.user_name).toBe('erin');
    const revoke = new FormData();
    for (const [k, v] of Object.entries({ token: issued.body.refresh_token!, client_id: 'test-premium', client_secret: 'test-premium-secret' })) revoke.append(k, v);
    expect((await post('/auth2/revoke', { multipart: revoke })).status).toBe(200);
    expectError(await tokenForm({ grant_type: 'refresh_token', client_id: 'test-premium', client_secret: 'test-premium-secret', refresh_token: issued.body.refresh_token }), 400, 119);
    // and answers a multipart body that lacks a parameter as it answers a form (113)
    const missing = new FormData();
    for (const [k, v] of Object.entries({ client_id: 'test-premium', client_secret: 'test-premium-secret', username: 'erin', password: PASSWORD })) missing.append(k, v);
    const refused = await post<TokenBody & { error?: string; code?: number }>('/auth2/token', { multipart: missing });
    expectError(refused, 400, 113, 'POST /auth2/token');
    expect(refused.body.error).toBe('invalid_request');
  });

  it('reads the token from the Authorization header alone: an access_token parameter beside it is ignored, extra spaces too', async () => {
    const token = (await passwordGrant(Users.erin)).access_token;
    expect((await get(PICTURE, { token, query: { access_token: 'not-a-token' } })).status).toBe(404);
    expect((await get(PICTURE, { headers: { authorization: `Bearer   ${token}` } })).status).toBe(404);
    const note = await post('/v2/notes', { token, json: { title: 'Header only', content: 'The body names a token too.', access_token: 'not-a-token' } });
    expect(note.status).toBe(201);
  });
});

describe('blocking an app (docs/api/oauth.md: 400/105)', () => {
  const BOOK = '/v2/book/2100002';
  const importApp = (blocked: boolean) => {
    const record = { kind: 'app', client_id: 'test-to-block', client_secret: 'test-to-block-secret', name: 'App to block', tier: 'premium', scopes: ['book_basic_r', 'community_basic_note'], redirect_uris: ['http://127.0.0.1:9/callback'], trusted: true, blocked };
    expect(importRecords([record]).status).toBe(0);
  };
  const toBlock: TestApp = { clientId: 'test-to-block', secret: 'test-to-block-secret', tier: 'premium', redirectUri: 'http://127.0.0.1:9/callback' };

  it('refuses the tokens it already holds and its apikey at once, and serves them again once unblocked', async () => {
    importApp(false);
    const appToken = await clientToken(toBlock);
    const userToken = (await passwordGrant(Users.dave, toBlock)).access_token;
    // twice each: the second read of the app token is answered from the response cache
    for (let i = 0; i < 2; i++) {
      expect((await get(BOOK, { token: appToken })).status).toBe(200);
      expect((await get(BOOK, { query: { apikey: 'test-to-block' } })).status).toBe(200);
    }
    expect((await get(PICTURE, { token: userToken })).status).toBe(404);

    importApp(true);
    await new Promise((r) => setTimeout(r, 200));
    expectError(await get(BOOK, { token: appToken }), 400, 105, `GET ${BOOK}`);
    expectError(await get(BOOK, { query: { apikey: 'test-to-block' } }), 400, 105, `GET ${BOOK}`);
    expectError(await get(PICTURE, { token: userToken }), 400, 105);
    expectError(await tokenForm({ grant_type: 'client_credentials', client_id: 'test-to-block', client_secret: 'test-to-block-secret' }), 400, 105);

    importApp(false);
    await new Promise((r) => setTimeout(r, 200));
    expect((await get(BOOK, { token: appToken })).status).toBe(200);
    expect((await get(BOOK, { query: { apikey: 'test-to-block' } })).status).toBe(200);
    expect((await get(PICTURE, { token: userToken })).status).toBe(404);
  });
});

describe('brute force on the password grant', () => {
  it('slows and then locks the account with 128 user_locked', async () => {
    const attempt = (password: string) =>
      tokenForm({ grant_type: 'password', client_id: 'test-premium', client_secret: 'test-premium-secret', username: 'mallory', password });
    const codes: (number | undefined)[] = [];
    const started = Date.now();
    for (let i = 0; i < 10; i++) codes.push((await attempt(`guess-${i}`)).body.code);
    expect(codes.slice(0, 9)).toEqual(Array(9).fill(120));
    expect(codes[9]).toBe(128);
    // failures after the third are answered slowly: 250 ms, 500 ms, ... for attempts 4-10
    expect(Date.now() - started).toBeGreaterThan(5000);
    // while locked, even the right password is refused
    const locked = await attempt(PASSWORD);
    expectError(locked, 400, 128);
    expect(locked.body.error).toBe('invalid_grant');
  }, 60_000);
});

function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

const REDIRECT = 'http://127.0.0.1:9/callback';

describe('authorization code with PKCE (/auth2/auth)', () => {
  const authorizeQuery = (extra: Record<string, string> = {}) => ({
    client_id: 'test-public', redirect_uri: REDIRECT, response_type: 'code', scope: 'book_basic_r', state: 's-123', ...extra,
  });

  it('shows a sign-in and consent page with everything escaped', async () => {
    const { challenge } = pkcePair();
    const res = await get('/auth2/auth', { query: authorizeQuery({ code_challenge: challenge, code_challenge_method: 'S256' }), headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toContain('Test public client &lt;b&gt;&amp;&lt;/b&gt;');
    expect(res.text).not.toContain('<b>&</b>');
    expect(res.text).toContain('name="code_challenge"');
  });

  it('issues a code for approval and exchanges it once, with the verifier', async () => {
    const { verifier, challenge } = pkcePair();
    const approve = await post('/auth2/auth', {
      form: { ...authorizeQuery({ code_challenge: challenge, code_challenge_method: 'S256' }), username: 'alice', password: PASSWORD, decision: 'approve' },
    });
    expect(approve.status).toBe(302);
    const location = new URL(approve.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('s-123');
    const code = location.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const wrong = await tokenForm({ grant_type: 'authorization_code', client_id: 'test-public', code, redirect_uri: REDIRECT, code_verifier: 'x'.repeat(43) });
    expectError(wrong, 400, 118);
    // the failed attempt consumed the code: a code is single-use whatever happens
    const exchange = await tokenForm({ grant_type: 'authorization_code', client_id: 'test-public', code, redirect_uri: REDIRECT, code_verifier: verifier });
    expectError(exchange, 400, 118);
  });

  it('exchanges a fresh code for tokens, and refuses a replay', async () => {
    const { verifier, challenge } = pkcePair();
    const approve = await post('/auth2/auth', {
      form: { ...authorizeQuery({ code_challenge: challenge, code_challenge_method: 'S256' }), username: 'bob', password: PASSWORD, decision: 'approve' },
    });
    const code = new URL(approve.headers.get('location')!).searchParams.get('code')!;
    const token = await tokenForm({ grant_type: 'authorization_code', client_id: 'test-public', code, redirect_uri: REDIRECT, code_verifier: verifier });
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({ user_id: Users.bob.id, user_name: 'bob', scope: 'book_basic_r' });
    expectError(await tokenForm({ grant_type: 'authorization_code', client_id: 'test-public', code, redirect_uri: REDIRECT, code_verifier: verifier }), 400, 118);
  });

  it('takes a replayed code for an intercepted one: 400/118, and the tokens of its first exchange are revoked (RFC 6749 4.1.2)', async () => {
    const { verifier, challenge } = pkcePair();
    const approveFor = async () => {
      const approve = await post('/auth2/auth', {
        form: { ...authorizeQuery({ code_challenge: challenge, code_challenge_method: 'S256', scope: 'community_basic_note' }), username: 'bob', password: PASSWORD, decision: 'approve' },
      });
      return new URL(approve.headers.get('location')!).searchParams.get('code')!;
    };
    const exchange = (code: string) => tokenForm({ grant_type: 'authorization_code', client_id: 'test-public', code, redirect_uri: REDIRECT, code_verifier: verifier });
    const refresh = (token: string | undefined) => tokenForm({ grant_type: 'refresh_token', client_id: 'test-public', refresh_token: token });
    const USER_ENDPOINT = `/v2/note/user_created/${Users.bob.id}`;

    const code = await approveFor();
    const first = await exchange(code);
    expect(first.status).toBe(200);
    // a code exchange always comes with a refresh token: there is no code-issued access token without a grant to revoke
    expect(typeof first.body.refresh_token).toBe('string');
    expect((await get(USER_ENDPOINT, { token: first.body.access_token })).status).toBe(200);
    const otherSignIn = await exchange(await approveFor());
    expect(otherSignIn.status).toBe(200);

    expectError(await exchange(code), 400, 118);
    await new Promise((r) => setTimeout(r, 200));
    expectError(await get(USER_ENDPOINT, { token: first.body.access_token }), 401, 103);
    expectError(await refresh(first.body.refresh_token), 400, 119);
    // the same user's other sign-in goes on
    expect((await get(USER_ENDPOINT, { token: otherSignIn.body.access_token })).status).toBe(200);
    expect((await refresh(otherSignIn.body.refresh_token)).status).toBe(200);
  });

  it('a replayed code revokes the tokens rotated from its first exchange too', async () => {
    const approve = await post('/auth2/auth', {
      form: { client_id: 'test-premium', redirect_uri: REDIRECT, response_type: 'code', scope: 'community_basic_note', username: 'bob', password: PASSWORD, decision: 'approve' },
    });
    const code = new URL(approve.headers.get('location')!).searchParams.get('code')!;
    const exchange = () => tokenForm({ grant_type: 'authorization_code', client_id: 'test-premium', client_secret: 'test-premium-secret', code, redirect_uri: REDIRECT });
    const refresh = (token: string | undefined) => tokenForm({ grant_type: 'refresh_token', client_id: 'test-premium', client_secret: 'test-premium-secret', refresh_token: token });
    const USER_ENDPOINT = `/v2/note/user_created/${Users.bob.id}`;

    const first = await exchange();
    expect(first.status).toBe(200);
    const rotated = await refresh(first.body.refresh_token);
    expect(rotated.status).toBe(200);
    expect((await get(USER_ENDPOINT, { token: rotated.body.access_token })).status).toBe(200);

    expectError(await exchange(), 400, 118);
    await new Promise((r) => setTimeout(r, 200));
    for (const token of [first.body.access_token, rotated.body.access_token]) expectError(await get(USER_ENDPOINT, { token }), 401, 103);
    expectError(await refresh(rotated.body.refresh_token), 400, 119);
  });

  it('requires the verifier when a challenge was given (no PKCE downgrade)', async () => {
    const { challenge } = pkcePair();
    const approve = await post('/auth2/auth', {
      form: { ...authorizeQuery({ code_challenge: challenge, code_challenge_method: 'S256' }), username: 'alice', password: PASSWORD, decision: 'approve' },
    });
    const code = new URL(approve.headers.get('location')!).searchParams.get('code')!;
    expectError(await tokenForm({ grant_type: 'authorization_code', client_id: 'test-public', code, redirect_uri: REDIRECT }), 400, 113);
  });

  it('refuses a public client without PKCE, and the plain method', async () => {
    const without = await get('/auth2/auth', { query: authorizeQuery() });
    expect(without.status).toBe(302);
    expect(new URL(without.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    const plain = await get('/auth2/auth', { query: authorizeQuery({ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }) });
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    // without a method RFC 7636 means plain: refused now, not at the exchange
    const noMethod = await get('/auth2/auth', { query: authorizeQuery({ code_challenge: 'a'.repeat(43) }) });
    expect(new URL(noMethod.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('shows 400/117 for a redirect_uri that is not registered, without redirecting', async () => {
    for (const redirect of ['http://evil.example/cb', `${REDIRECT}/../evil`, `${REDIRECT}?x=1`, 'http://127.0.0.1:9/callbackx']) {
      const res = await get('/auth2/auth', { query: authorizeQuery({ redirect_uri: redirect }) });
      expectError(res, 400, 117, 'GET /auth2/auth');
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('redirects with unsupported_response_type for a bad response_type', async () => {
    const res = await get('/auth2/auth', { query: authorizeQuery({ response_type: 'magic' }) });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('unsupported_response_type');
    expect(location.searchParams.get('state')).toBe('s-123');
  });

  it('redirects with access_denied when the user denies', async () => {
    const { challenge } = pkcePair();
    const res = await post('/auth2/auth', { form: { ...authorizeQuery({ code_challenge: challenge, code_challenge_method: 'S256' }), decision: 'deny' } });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('access_denied');
  });

  it('puts the token in the fragment for response_type=token', async () => {
    const res = await post('/auth2/auth', {
      form: { client_id: 'test-premium', redirect_uri: REDIRECT, response_type: 'token', scope: 'event_basic_w', state: 'abc', username: 'carol', password: PASSWORD, decision: 'approve' },
    });
    expect(res.status).toBe(302);
    const fragment = new URLSearchParams(new URL(res.headers.get('location')!).hash.slice(1));
    expect(fragment.get('token_type')).toBe('Bearer');
    expect(fragment.get('scope')).toBe('event_basic_w');
    expect(fragment.get('state')).toBe('abc');
    expect(fragment.get('access_token')?.split('.')).toHaveLength(3);
  });

  it('re-shows the page on a wrong password instead of redirecting', async () => {
    const { challenge } = pkcePair();
    const res = await post('/auth2/auth', {
      form: { ...authorizeQuery({ code_challenge: challenge, code_challenge_method: 'S256' }), username: 'alice', password: 'wrong', decision: 'approve' },
      headers: { accept: 'text/html' },
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Wrong user name or password');
  });
});
