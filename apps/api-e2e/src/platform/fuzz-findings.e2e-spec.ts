import { tokenFor } from '../support/auth';
import { Users } from '../support/fixtures';
import { api, expectError, get, post } from '../support/http';

/**
 * Regression tests for what the API fuzzer found (docs/RELIABILITY-fuzz.md, "Findings"): each
 * case is the request schemathesis sent, reduced.
 */
describe('fuzzer findings', () => {
  const longId = '0'.repeat(201);

  // Finding 1: a path parameter longer than the router's maxParamLength (200) was answered by
  // fastify itself, 414 with {error, code: "FST_ERR_MAX_PARAM_LENGTH", message, statusCode}.
  it('answers an over-long path parameter with 404/1001 in the error format, JSONP included', async () => {
    expectError(await get(`/v2/book/${longId}`), 404, 1001, `GET /v2/book/${longId}`);
    expectError(await api('DELETE', `/v2/note/${longId}/like`), 404, 1001);
    const wrapped = await get(`/v2/event/${longId}/wishers`, { query: { callback: 'cb' } });
    expect(wrapped.status).toBe(404);
    expect(wrapped.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(wrapped.text).toBe(`/**/cb({"msg":"uri_not_found","code":1001,"request":"GET /v2/event/${longId}/wishers"});`);
    expectError(await get(`/v2/book/${longId}`, { query: { callback: 'a-b' } }), 400, 1015);
    expect((await get(`/v2/book/${longId}`)).headers.get('x-content-type-options')).toBe('nosniff');
  });

  // Finding 1 too: a URL that cannot be decoded took the same road (fastify's FST_ERR_BAD_URL body).
  it('answers an undecodable URL with 404/1001 in the error format', async () => {
    expectError(await get('/v2/book/%E0%A4%A'), 404, 1001, 'GET /v2/book/%E0%A4%A');
  });

  // Finding 2: an OPTIONS request that is no CORS preflight got @fastify/cors's text/plain
  // "Invalid Preflight Request" (400); it is now any other method no route has.
  it('answers OPTIONS without preflight headers like a method no route has', async () => {
    expectError(await api('OPTIONS', '/v2/book/1'), 400, 1014, 'OPTIONS /v2/book/1');
    expectError(await api('OPTIONS', '/v2/nothing/here'), 404, 1001);
    expectError(await api('OPTIONS', '/v2/book/1', { headers: { origin: 'http://example.test' } }), 400, 1014);
    const preflight = await api('OPTIONS', '/v2/book/1', {
      headers: { origin: 'http://example.test', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });

  // Finding 3: a multipart body busboy cannot parse (no boundary; cut short) was a 500
  // ("Multipart: Boundary not found", "Unexpected end of multipart data").
  it('answers a malformed multipart body with 400/1016, not 500', async () => {
    const token = await tokenFor(Users.alice);
    const noBoundary = await fetchRaw('PUT', '/v2/book/1/collection', token, 'multipart/form-data', 'status=wish');
    expect({ status: noBoundary.status, code: noBoundary.body.code }).toEqual({ status: 400, code: 1016 });
    const cutShort = await fetchRaw('POST', '/v2/note/1', token, 'multipart/form-data; boundary=XyZ', '--XyZ\r\nNone--XyZ--\r\n');
    expect({ status: cutShort.status, code: cutShort.body.code }).toEqual({ status: 400, code: 1016 });
    expect(cutShort.body.request).toBe('POST /v2/note/1');
  });

  // Finding 4 (the document was wrong): these two answer 404 for a book or city that does not
  // exist, which the OpenAPI document did not list.
  it('documents the 404 of a review of a missing book and of events in a missing city', async () => {
    const doc = (await get('/v2/openapi.json')).body;
    expect(doc.paths['/v2/book/reviews'].post.responses).toHaveProperty('404');
    expect(doc.paths['/v2/event/list'].get.responses).toHaveProperty('404');
    const token = await tokenFor(Users.alice);
    const review = await post('/v2/book/reviews', { token, form: { book: '9999999', title: 't', content: 'x'.repeat(160) } });
    expectError(review, 404, 6000);
    expectError(await get('/v2/event/list', { query: { loc: 'atlantis' } }), 404, 1001);
  });
});

/** A request with a body of the given media type, exactly as written (fetch would re-encode a FormData). */
async function fetchRaw(method: string, path: string, token: string, contentType: string, body: string) {
  const { stackInfo } = await import('../support/stack-info');
  const response = await fetch(new URL(path, stackInfo().baseUrl), {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    body,
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as { msg: string; code: number; request: string } };
}
