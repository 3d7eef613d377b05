import { tokenFor } from '../support/auth';
import { Users } from '../support/fixtures';
import { expectError, get, post, api } from '../support/http';

describe('errors and routing (docs/api/README.md, "Errors")', () => {
  it('answers an unknown path with 404/1001 and the request line without the query', async () => {
    expectError(await get('/v2/nothing/here', { query: { a: 1 } }), 404, 1001, 'GET /v2/nothing/here');
  });

  it('applies the wildcard rules: :id is digits only', async () => {
    expectError(await get('/v2/book/abc'), 404, 1001, 'GET /v2/book/abc');
    expectError(await get('/v2/movie/subject/12x'), 404, 1001);
  });

  it('answers a long but well-formed id or name (up to 200 characters) like any that is not there', async () => {
    const token = await tokenFor(Users.alice);
    const longId = '9'.repeat(200);
    const pairs = [
      [`/v2/book/${longId}`, '/v2/book/99999999'],
      [`/v2/book/${longId}/collection`, '/v2/book/99999999/collection'],
      [`/v2/movie/subject/${longId}`, '/v2/movie/subject/99999999'],
      [`/v2/movie/celebrity/${longId}`, '/v2/movie/celebrity/99999999'],
      [`/v2/event/${longId}`, '/v2/event/99999999'],
      [`/v2/note/${longId}`, '/v2/note/99999999'],
      [`/v2/book/user/${'u'.repeat(200)}/collections`, '/v2/book/user/nobody_here/collections'],
    ];
    for (const [long, short] of pairs) {
      const [a, b] = await Promise.all([get(long, { token }), get(short, { token })]);
      expect(b.status).toBeGreaterThanOrEqual(400);
      expect(b.body.code).not.toBe(1016);
      expect({ path: long, status: a.status, code: a.body.code }).toEqual({ path: long, status: b.status, code: b.body.code });
    }
  });

  it('answers a known path under another method with 400/1014', async () => {
    expectError(await post('/v2/picture/note-0123456789abcdef0123456789abcdef.jpg'), 400, 1014);
    expectError(await get('/auth2/token'), 400, 1014, 'GET /auth2/token');
    expectError(await api('DELETE', '/health'), 400, 1014);
  });

  it('wraps errors in JSONP, keeping the status', async () => {
    const res = await get('/v2/nothing', { query: { callback: 'handle_it' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.text).toBe('/**/handle_it({"msg":"uri_not_found","code":1001,"request":"GET /v2/nothing"});');
  });

  it.each([[''], ['a-b'], ['x'.repeat(51)], ['alert(1)'], ['a.b']])('rejects callback %j with 400/1015', async (callback) => {
    const res = await get('/v2/nothing', { query: { callback } });
    expectError(res, 400, 1015);
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('accepts a 50-character callback', async () => {
    const res = await get('/v2/nothing', { query: { callback: 'A'.repeat(50) } });
    expect(res.text.startsWith(`/**/${'A'.repeat(50)}(`)).toBe(true);
  });

  it('sends security headers and a request id on every response', async () => {
    const res = await get('/v2/nothing', { headers: { 'x-request-id': 'trace-me-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-me-123');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('answers malformed JSON bodies with 400/1016, never 500', async () => {
    const res = await fetch(new URL('/auth2/token', (await import('../support/stack-info')).stackInfo().baseUrl), {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"grant_type": ',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: number }).code).toBe(1016);
  });
});

describe('health', () => {
  it('/health answers while the process is up', async () => {
    const res = await get('/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });

  it('/ready lists every dependency as up', async () => {
    const res = await get('/ready');
    expect(res.status).toBe(200);
    expect(res.body.checks).toEqual({
      nats: 'up', token_keys: 'up', revocations: 'up', rate_limits: 'up', identity: 'up', book: 'up', movie: 'up', note: 'up', event: 'up',
    });
  });
});
