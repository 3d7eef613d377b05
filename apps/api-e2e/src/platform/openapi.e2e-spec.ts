import { expectError, get, post } from '../support/http';

/** The OpenAPI document and the API explorer (docs/ARCHITECTURE.md, "OpenAPI document and explorer"), served by the running gateway. */
describe('OpenAPI document and explorer', () => {
  it('serves the OpenAPI 3 document of the whole /v2 API at /v2/openapi.json', async () => {
    const res = await get('/v2/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\.0\./);
    expect(doc.paths['/v2/book/{id}'].get.operationId).toBe('bookGet');
    expect(doc.paths['/v2/book/{id}/collection'].post.requestBody.content).toHaveProperty('application/x-www-form-urlencoded');
    expect(doc.paths['/v2/notes'].post.requestBody.content).toHaveProperty('multipart/form-data');
    expect(doc.paths['/auth2/token'].post.responses['200']).toBeDefined();
    expect(doc.components.schemas.Error.required).toEqual(['msg', 'code', 'request']);
    // built once: a second request gets the same bytes (and a 304 with its ETag)
    const again = await get('/v2/openapi.json', { headers: { 'if-none-match': res.headers.get('etag') ?? '' } });
    expect(again.status).toBe(304);
  });

  it('lists every route the gateway answers under /v2 and /auth2, each with a success status', async () => {
    const doc = (await get('/v2/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    expect(operations.length).toBeGreaterThanOrEqual(60);
    expect(operations).toEqual(expect.arrayContaining(['POST /auth2/token', 'POST /auth2/revoke', 'GET /v2/picture/{name}', 'GET /v2/event/list']));
  });

  it('describes the routes client apps start with: users, IMDb look-ups and event search, with their parameters', async () => {
    const doc = (await get('/v2/openapi.json')).body;
    /** An operation's parameters as `in:name`, required ones marked `!`. */
    const paramsOf = (path: string) => {
      const op = doc.paths[path]?.get;
      expect(op).toBeDefined();
      return (op.parameters as Array<{ name: string; in: string; required?: boolean }>).map((p) => `${p.in}:${p.name}${p.required ? '!' : ''}`);
    };
    expect(paramsOf('/v2/user/~me')).toEqual(expect.arrayContaining(['query:fields', 'query:callback']));
    expect(paramsOf('/v2/user/{name}')).toEqual(expect.arrayContaining(['path:name!', 'query:fields']));
    expect(paramsOf('/v2/user')).toEqual(expect.arrayContaining(['query:q!', 'query:start', 'query:count']));
    expect(paramsOf('/v2/movie/imdb/{imdb}')).toEqual(expect.arrayContaining(['path:imdb!', 'query:fields', 'query:apikey']));
    expect(paramsOf('/v2/event/search')).toEqual(expect.arrayContaining(['query:q!', 'query:start', 'query:count', 'query:loc', 'query:day_type', 'query:type']));
    // ~me needs the user's scope; /v2/user/{name} may also be called without a token (docs/api/user.md)
    expect(doc.paths['/v2/user/~me'].get.security).toEqual([{ oauth2: ['service_basic_common'] }]);
    expect(doc.paths['/v2/user/{name}'].get.security).toEqual([{}, { oauth2: ['service_basic_common'] }]);
    expect(doc.components.securitySchemes.oauth2.flows.password.scopes.service_basic_common).toContain('/v2/user/~me');
  });

  it('serves Swagger UI from the local swagger-ui-dist, with a policy that lets only its own files run', async () => {
    const page = await get('/v2/explorer');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('/v2/explorer/swagger-ui-bundle.js');
    expect(page.text).not.toMatch(/https?:\/\//);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');

    const bundle = await get('/v2/explorer/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    expect(bundle.text.length).toBeGreaterThan(100_000);
    const init = await get('/v2/explorer/explorer.js');
    expect(init.text).toContain("url: '/v2/openapi.json'");
    expect((await get('/v2/explorer/swagger-ui.css')).status).toBe(200);
  });

  it('keeps the strict policy on API answers, and unknown explorer files are 404/1001', async () => {
    const res = await get('/v2/book/1');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('content-security-policy')).not.toContain('connect-src');
    expectError(await get('/v2/explorer/index.html'), 404, 1001);
    expectError(await get('/v2/explorer/..%2Fpackage.json'), 404, 1001);
    expectError(await post('/v2/openapi.json'), 400, 1014);
  });
});
