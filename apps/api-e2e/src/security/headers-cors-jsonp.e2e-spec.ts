import { tokenFor } from '../support/auth';
import { Apps } from '../support/fixtures';
import { exclusive } from '../support/exclusive';
import { api, ApiResponse, del, expectError, get, post } from '../support/http';
import { expectSecurityHeaders, pictureForm, PNG, rawRequest, SecBooks, SecUsers } from './security-support';

/**
 * Security headers on every kind of answer, CORS as docs/DECISIONS.md describes it (any origin,
 * no credentials, PUT and DELETE allowed), and JSONP that cannot carry private data cross-site:
 * a token counts only in the Authorization header, which a <script src> cannot set, never in the
 * query, a body field or a cookie (docs/DECISIONS.md "Authentication and tokens").
 */
const BOOK = SecBooks.hostile;
const me = SecUsers.headers;
let token: string;
/** A public picture of the headers user, and its ETag. */
let picture: string;

beforeAll(async () => {
  token = await tokenFor(me);
  const created = await exclusive('book-pictures', () =>
    api('POST', `/v2/book/${BOOK}/annotations`, {
      token, multipart: pictureForm({ content: '<图片1>一张公开的图片，这段内容足够长。', page: '2' }, { '1': { bytes: PNG, name: 'p.png', type: 'image/png' } }),
    }),
  );
  if (created.status !== 201) throw new Error(`setup: ${created.status} ${created.text}`);
  picture = new URL(created.body.photos['1']).pathname;
  // a private collection entry: the book then carries current_user_collection for this user only
  const collected = await post(`/v2/book/${BOOK}/collection`, { token, form: { status: 'reading', comment: 'mine', privacy: 'private' } });
  if (collected.status !== 201) throw new Error(`setup: ${collected.status} ${collected.text}`);
});

describe('security headers on every kind of answer', () => {
  const ownNote = async () => (await post('/v2/notes', { token, json: { title: 'headers', content: 'c' } })).body as { id: string };
  const etagOf = async (path: string) => (await get(path)).headers.get('etag')!;

  it.each<[string, () => Promise<ApiResponse>, number]>([
    ['a 200 JSON answer', () => get('/v2/loc/108288'), 200],
    ['a 200 answer from the response cache', async () => {
      await get('/v2/loc/108296');
      return get('/v2/loc/108296');
    }, 200],
    ['a 304', async () => get('/v2/loc/108288', { headers: { 'if-none-match': await etagOf('/v2/loc/108288') } }), 304],
    ['a HEAD', () => api('HEAD', '/v2/loc/108288'), 200],
    ['a JSONP answer', () => get('/v2/loc/108288', { query: { callback: 'cb' } }), 200],
    ['a JSONP error', () => get('/v2/nothing', { query: { callback: 'cb' } }), 404],
    ['a 201 write', () => post('/v2/notes', { token, json: { title: 'headers', content: 'c' } }), 201],
    ['a 202 write', async () => post(`/v2/note/${(await ownNote()).id}/like`, { token }), 202],
    ['a 204 write', async () => {
      const note = await ownNote();
      const comment = await post(`/v2/note/${note.id}/comments`, { token, json: { content: 'to be deleted' } });
      return del(`/v2/note/${note.id}/comment/${comment.body.id}`, { token });
    }, 204],
    ['a 400 error', () => get('/v2/loc/list', { query: { start: '-1' } }), 400],
    ['a 401 error', () => get('/v2/loc/list', { token: 'not-a-token' }), 401],
    ['a 403 error', () => get('/v2/note/user_created/7031'), 403],
    ['a 404 error', () => get('/v2/nothing'), 404],
    ['a 400/1014 wrong method', () => api('PATCH', '/v2/loc/list'), 400],
    ['a 413 body', () => post('/v2/notes', { token, json: { content: 'x'.repeat(1_100_000) } }), 413],
    ['a 415 body', () => api('POST', '/v2/notes', { token, body: 'x', headers: { 'content-type': 'text/csv' } }), 415],
    ['a router error (malformed %-escape)', () => get('/v2/book/user/%zz/tags'), 404],
    ['a picture', () => get(picture), 200],
    ['a picture 304', async () => get(picture, { headers: { 'if-none-match': (await get(picture)).headers.get('etag')! } }), 304],
    ['a picture that does not exist', () => get('/v2/picture/book-0123456789abcdef0123456789abcdef.png'), 404],
    ['the sign-in page', () => get('/auth2/auth', { query: { client_id: Apps.premium.clientId, redirect_uri: Apps.premium.redirectUri, response_type: 'code' }, headers: { accept: 'text/html' } }), 200],
    ['the sign-in error page', () => get('/auth2/auth', { query: { client_id: 'nobody' }, headers: { accept: 'text/html' } }), 400],
    ['a token answer', () => post('/auth2/token', { form: { grant_type: 'client_credentials', client_id: Apps.premium.clientId, client_secret: Apps.premium.secret } }), 200],
    ['a CORS preflight', () => api('OPTIONS', '/v2/note/1', { headers: { origin: 'https://app.example', 'access-control-request-method': 'PUT' } }), 204],
    ['/health', () => get('/health'), 200],
    ['/ready', () => get('/ready'), 200],
  ])('%s', async (_, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expectSecurityHeaders(res.headers);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it("answers of Node's HTTP parser (no request exists yet, so no request id) carry them too", async () => {
    const cases: Array<[string, number]> = [
      ['GET /v2/loc/list HTTP/1.1\r\nHost: x\r\nX-Bad: \u0001\r\n\r\n', 400],
      [`GET /v2/loc/list?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 413],
    ];
    for (const [bytes, status] of cases) {
      const res = await rawRequest(bytes);
      expect(res.status).toBe(status);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    }
  });

  it('the sign-in page cannot be framed (clickjacking) and is not cached; token answers are not cached', async () => {
    const page = await get('/auth2/auth', { query: { client_id: Apps.premium.clientId, redirect_uri: Apps.premium.redirectUri, response_type: 'code' } });
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');
    // its own policy: its inline styles and its form posting back (then redirected to the app's own
    // origin: browsers hold the redirect to form-action too), no script, no other origin
    const directives = page.headers.get('content-security-policy')!.split(/;\s*/);
    expect(directives).toEqual(expect.arrayContaining(["default-src 'none'", "style-src 'unsafe-inline'", `form-action 'self' ${new URL(Apps.premium.redirectUri).origin}`, "base-uri 'none'"]));
    expect(directives.filter((d) => d.startsWith('script-src'))).toEqual([]);
    const tokenAnswer = await post('/auth2/token', { form: { grant_type: 'client_credentials', client_id: Apps.premium.clientId, client_secret: Apps.premium.secret } });
    expect(tokenAnswer.headers.get('cache-control')).toBe('no-store');
  });

  it("API answers load nothing: their CSP is default-src 'none' and frame-ancestors 'none', nothing that loosens it", async () => {
    for (const res of [await get('/v2/loc/108288'), await get('/v2/loc/108288', { query: { callback: 'cb' } }), await get('/v2/nothing')]) {
      expect(res.headers.get('content-security-policy')?.split(/;\s*/).sort()).toEqual(["default-src 'none'", "frame-ancestors 'none'"]);
    }
  });

  it('JSON and JSONP answers say exactly what they are', async () => {
    expect((await get('/v2/loc/108288')).headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await get('/v2/loc/108288', { query: { callback: 'cb' } })).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await get(picture)).headers.get('content-type')).toBe('image/png');
  });
});

describe('CORS (docs/DECISIONS.md: any origin, no credentials)', () => {
  it.each(['GET', 'POST', 'PUT', 'DELETE'])('a preflight for %s from any origin is allowed, with the Authorization header', async (method) => {
    // before: the plugin's default methods (GET, HEAD, POST) made browsers refuse PUT and DELETE
    const res = await api('OPTIONS', '/v2/note/1', {
      headers: { origin: 'https://some-app.example', 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')?.split(/,\s*/)).toContain(method);
    expect(res.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('an OPTIONS that is no preflight (no Origin) is a method the path lacks: 400/1014 in the error shape, not a plain-text 400', async () => {
    const res = await api('OPTIONS', '/v2/loc/list');
    expectError(res, 400, 1014, 'OPTIONS /v2/loc/list');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers and errors are readable cross-origin, never with credentials, exposing the documented headers', async () => {
    for (const res of [await get('/v2/loc/list', { headers: { origin: 'https://some-app.example' } }), await get('/v2/nothing', { headers: { origin: 'https://some-app.example' } })]) {
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      const exposed = res.headers.get('access-control-expose-headers')?.split(/,\s*/);
      expect(exposed).toEqual(expect.arrayContaining(['ETag', 'RateLimit-Remaining', 'Retry-After', 'X-Request-Id']));
    }
  });
});

describe('JSONP cannot read private data cross-site', () => {
  const PRIVATE = `/v2/note/user_created/${me.id}`;

  it('with the token in the Authorization header (which a <script src> cannot send), a JSONP answer is the caller\'s own', async () => {
    const res = await get(PRIVATE, { token, query: { callback: 'cb' } });
    expect(res.status).toBe(200);
    expect(res.text.startsWith('/**/cb({')).toBe(true);
  });

  it('a valid token in the query string counts for nothing: 403/1000, wrapped', async () => {
    for (const name of ['access_token', 'token', 'bearer', 'oauth_token']) {
      const res = await get(PRIVATE, { query: { callback: 'cb', [name]: token } });
      expect(res.status).toBe(403);
      expect(res.text).toBe(`/**/cb({"msg":"need_permission","code":1000,"request":"GET ${PRIVATE}"});`);
    }
  });

  it('a valid token in a cookie counts for nothing', async () => {
    const cookie = `access_token=${token}; token=${token}; Authorization=Bearer%20${token}`;
    const res = await get(PRIVATE, { query: { callback: 'cb' }, headers: { cookie } });
    expect(res.status).toBe(403);
    expect((await get(`/v2/book/${BOOK}/collection`, { headers: { cookie } })).status).toBe(403);
  });

  it('a valid token in a form field counts for nothing (a cross-site form POST stays anonymous)', async () => {
    const res = await post('/v2/notes', { form: { access_token: token, title: 'csrf', content: 'csrf' } });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 1000 });
    const notes = await get(PRIVATE, { token, query: { count: 100 } });
    expect(notes.body.notes.map((n: { title: string }) => n.title)).not.toContain('csrf');
  });

  it("a JSONP answer made for a token holder is never served to anyone else from the response cache, in either order", async () => {
    const path = `/v2/book/${BOOK}`;
    const mine = await get(path, { token, query: { callback: 'cached' } });
    expect(mine.text).toContain('"current_user_collection"');
    const anonymous = await get(path, { query: { callback: 'cached' } });
    expect(anonymous.status).toBe(200);
    expect(anonymous.text).not.toContain('current_user_collection');
    expect(anonymous.text).not.toContain(me.id);
    // and an anonymous (cacheable) answer is never what the token holder gets
    expect((await get(path, { token, query: { callback: 'cached' } })).text).toContain('"current_user_collection"');
  });
});
