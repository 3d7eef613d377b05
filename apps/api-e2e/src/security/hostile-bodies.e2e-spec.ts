import { tokenFor } from '../support/auth';
import { api, ApiResponse, get, post, put, RequestBody } from '../support/http';
import { stackInfo } from '../support/stack-info';
import { expectCleanError, expectSecurityHeaders, rawRequest, SecBooks, SecUsers, timed } from './security-support';

/**
 * Hostile request bytes (docs/DECISIONS.md, "Hostile input"): bodies, URLs and headers over the limits, JSON
 * too deep or too wide, invalid UTF-8 and NUL bytes, media types the API does not take,
 * malformed and bomb-like multipart bodies, bytes that are not HTTP at all. Every answer is
 * the error shape with the security headers, or a normal answer that treats the bytes as text;
 * never a 5xx, never fastify's or Node's own error format, and always quick.
 */
const BOOK = SecBooks.hostile;
/** The gateway's JSON/form body limit (BODY_LIMIT_BYTES default). */
const BODY_LIMIT = 1024 * 1024;
/** An answer to hostile input within this, on a loaded 2-core machine. */
const QUICK_MS = 2000;

let token: string;
beforeAll(async () => {
  token = await tokenFor(SecUsers.hostile);
});

/** A request with a body sent as the given bytes and type, with the hostile user's token. */
const send = (method: string, path: string, body: RequestBody, type: string, headers: Record<string, string> = {}) =>
  api(method, path, { token, headers: { 'content-type': type, ...headers }, body });

function expectRefused(res: ApiResponse, status: number, code: number): void {
  expectCleanError(res, status, code);
  expectSecurityHeaders(res.headers);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
}

describe('bodies over the limit: 413/1103', () => {
  const big = 'a'.repeat(BODY_LIMIT + 1);

  it.each([
    ['JSON', 'application/json', JSON.stringify({ title: 't', content: big })],
    ['form', 'application/x-www-form-urlencoded', `title=t&content=${big}`],
  ])('%s to a write', async (_, type, body) => {
    const { ms, res } = await timed(() => send('POST', '/v2/notes', body, type));
    expectRefused(res, 413, 1103);
    expect(res.body.request).toBe('POST /v2/notes');
    expect(ms).toBeLessThan(QUICK_MS);
  });

  it('in a media type the API does not take: 415/1104, before the body is read', async () => {
    expectRefused(await send('POST', '/v2/notes', `<note>${big}</note>`, 'application/xml'), 415, 1104);
  });

  it('to the token endpoint, with the OAuth fields', async () => {
    const res = await send('POST', '/auth2/token', `grant_type=password&username=${big}`, 'application/x-www-form-urlencoded');
    expectRefused(res, 413, 1103);
    expect(res.body.error).toBe('invalid_request');
  });

  it('streamed without a Content-Length (chunked) is cut off at the limit too', async () => {
    const chunk = `10000\r\n${'a'.repeat(0x10000)}\r\n`;
    const res = await rawRequest(
      `POST /v2/notes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
        `${chunk.repeat(24)}0\r\n\r\n`,
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ msg: 'request_too_large', code: 1103, request: 'POST /v2/notes' });
  });
});

describe('URLs, parameters and headers over the limits', () => {
  it('a 20 000-character query string: 413/1103 in the error shape (not Node\'s 431 body)', async () => {
    const res = await get('/v2/book/search', { query: { q: 'x'.repeat(20_000) } });
    expectRefused(res, 413, 1103);
    expect(res.body.request).toBe('GET /v2/book/search');
  });

  it('a 20 KiB header: 413/1103', async () => {
    expectRefused(await get('/v2/loc/list', { headers: { 'x-padding': 'p'.repeat(20 * 1024) } }), 413, 1103);
  });

  it('a path parameter longer than any id (300 digits): 404/1001 in the error shape (not fastify\'s 414 body)', async () => {
    for (const path of [`/v2/book/${'1'.repeat(300)}`, `/v2/book/user/${'u'.repeat(300)}/collections`, `/v2/note/${'9'.repeat(300)}`]) {
      const res = await get(path, { token });
      expectRefused(res, 404, 1001);
      expect(res.body.request).toBe(`GET ${path}`);
    }
  });

  it.each([
    ['a 150-digit book id', `/v2/book/${'1'.repeat(150)}`],
    ['a 150-digit note id', `/v2/note/${'1'.repeat(150)}`],
    ['a 150-digit comment id', `/v2/note/1/comment/${'1'.repeat(150)}`],
    ['a 150-character user name', `/v2/book/user/${'u'.repeat(150)}/annotations`],
    ['a 150-character ISBN', `/v2/book/isbn/${'9'.repeat(150)}`],
    ['a 150-digit event id', `/v2/event/${'1'.repeat(150)}/wishers`],
  ])('%s: a clean 4xx', async (_, path) => {
    expectCleanError(await get(path, { token }));
  });

  it.each([
    ['q of 10 000 characters', '/v2/book/search', { q: 'q'.repeat(10_000) }],
    ['tag of 5 000 characters', '/v2/book/search', { tag: 't'.repeat(5_000) }],
    ['movie q of 10 000 characters', '/v2/movie/search', { q: 'q'.repeat(10_000) }],
    ['loc of 10 000 characters', '/v2/event/list', { loc: '1'.repeat(10_000) }],
    ['city of 10 000 characters', '/v2/movie/in_theaters', { city: '北'.repeat(1_000) }],
    ['user_id of 10 000 characters', `/v2/book/${BOOK}/collection`, { user_id: 'u'.repeat(10_000) }],
  ])('%s: 400/1016', async (_, path, query) => {
    expectRefused(await get(path, { query }), 400, 1016);
  });

  it('start and count of 100 digits are integers like any (docs/api/README.md): an empty page, a cut count', async () => {
    const far = await get('/v2/loc/list', { query: { start: '9'.repeat(100) } });
    expect(far.status).toBe(200);
    expect(far.body).toMatchObject({ count: 0, locs: [] });
    expect(far.body.total).toBeGreaterThan(0);
    expect((await get('/v2/loc/list', { query: { count: '9'.repeat(100) } })).body.count).toBeLessThanOrEqual(100);
  });

  it('2 000 unknown query parameters are ignored, quickly', async () => {
    const query = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`p${i}`, 'x']));
    const { ms, res } = await timed(() => get('/v2/loc/list', { query }));
    expect(res.status).toBe(200);
    expect(res.body.locs.length).toBeGreaterThan(0);
    expect(ms).toBeLessThan(QUICK_MS);
  });
});

describe('JSON too deep or too wide', () => {
  const deepArrays = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
  const deepObjects = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
  const WRITES: Array<[string, string]> = [
    ['POST', '/v2/notes'],
    ['PUT', '/v2/note/1'],
    ['POST', '/v2/book/reviews'],
    ['POST', `/v2/book/${BOOK}/collection`],
    ['POST', `/v2/book/${BOOK}/annotations`],
    ['POST', '/v2/event/60001/participants'],
    ['POST', '/auth2/token'],
    ['POST', '/auth2/revoke'],
    ['POST', '/auth2/auth'],
  ];

  // before: the token, revoke and consent endpoints answered these with 500 (the validation
  // pipe's recursion overflowed the stack)
  it.each(WRITES)('10 000 nested arrays, and objects, as the body of %s %s: 400/1016', async (method, path) => {
    for (const body of [deepArrays, deepObjects, `{"title":${deepArrays}}`]) {
      const { ms, res } = await timed(() => send(method, path, body, 'application/json'));
      expectRefused(res, 400, 1016);
      expect(ms).toBeLessThan(QUICK_MS);
    }
  });

  it('the nesting the API takes (a tags array) is not refused', async () => {
    // (creates the entry the NUL test below changes)
    const res = await post(`/v2/book/${BOOK}/collection`, { token, json: { status: 'wish', tags: ['one', 'two'] } });
    expect(res.status).toBe(201);
    expect(res.body.tags).toEqual(['one', 'two']);
  });

  // before: 50 000 keys in 1 MiB kept the gateway busy for about 2 s per request
  it.each(['application/json', 'application/x-www-form-urlencoded'])('50 000 fields in one %s body: 413/1103, quickly', async (type) => {
    const fields = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, '1']));
    const body = type === 'application/json' ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
    for (const path of ['/v2/notes', '/auth2/token', `/v2/book/${BOOK}/collection`]) {
      const { ms, res } = await timed(() => send('POST', path, body, type));
      expectRefused(res, 413, 1103);
      expect(ms).toBeLessThan(QUICK_MS);
    }
  });

  it('an array of 100 000 numbers as the body: 413/1103', async () => {
    expectRefused(await send('POST', '/v2/notes', JSON.stringify(new Array(100_000).fill(1)), 'application/json'), 413, 1103);
  });

  it('a body of 1 MiB in one string field is an ordinary (too long) value: 400/1016', async () => {
    expectRefused(await send('POST', '/v2/notes', JSON.stringify({ title: 't', content: 'c'.repeat(BODY_LIMIT - 100) }), 'application/json'), 400, 1016);
  });

  it('__proto__ and constructor keys are refused (400/1016) and pollute nothing', async () => {
    expectRefused(await send('POST', '/v2/notes', '{"title":"t","content":"c","__proto__":{"isAdmin":true}}', 'application/json'), 400, 1016);
    expectRefused(await send('POST', '/auth2/token', '{"constructor":{"prototype":{"isAdmin":true}},"grant_type":"password"}', 'application/json'), 400, 1016);
    const after = await post('/v2/notes', { token, json: { title: 'after', content: 'c' } });
    expect(after.status).toBe(201);
    expect(after.body.isAdmin).toBeUndefined();
  });
});

describe('invalid UTF-8 and NUL bytes', () => {
  const INVALID = Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]);

  it.each([
    ['a lone continuation byte', '%ff%fe'],
    ['a broken two-byte sequence', '%c3%28'],
    ['an encoded surrogate', '%ed%a0%80'],
    ['a truncated sequence', '%e4%b8'],
    ['a NUL byte', 'a%00b'],
    ['a bare %', '%'],
    ['a malformed escape', '%zz'],
  ])('%s in a search is searched for as text: 200, no match', async (_, encoded) => {
    for (const path of ['/v2/book/search', '/v2/movie/search']) {
      const res = await fetch(`${stackInfo().baseUrl}${path}?q=${encoded}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { total: number };
      expect(body.total).toBe(0);
    }
  });

  it('invalid UTF-8 in a JSON, a form and a multipart body is text with replacement characters', async () => {
    const json = await send('POST', '/v2/notes', Buffer.concat([Buffer.from('{"title":"'), INVALID, Buffer.from('","content":"x"}')]), 'application/json');
    const form = await send('POST', '/v2/notes', Buffer.concat([Buffer.from('title='), INVALID, Buffer.from('&content=%ff%fe')]), 'application/x-www-form-urlencoded');
    const boundary = 'b0undary';
    const multipart = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n`), INVALID,
      Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="content"\r\n\r\nx\r\n--${boundary}--\r\n`),
    ]);
    const parts = await send('POST', '/v2/notes', multipart, `multipart/form-data; boundary=${boundary}`);
    for (const res of [json, form, parts]) {
      expect(res.status).toBe(201);
      expect(res.body.title).toContain('\ufffd');
    }
  });

  it('NUL bytes in the text of every kind of write are stored as text or refused, never a 5xx', async () => {
    const nul = 'a\u0000b';
    const answers = [
      await post('/v2/notes', { token, json: { title: nul, content: nul } }),
      await post('/v2/notes', { token, form: { title: nul, content: nul } }),
      await put(`/v2/book/${BOOK}/collection`, { token, form: { status: 'wish', comment: nul, tags: nul } }),
      await post(`/v2/book/${BOOK}/annotations`, { token, json: { content: `${nul}${'长'.repeat(20)}`, chapter: nul } }),
      await post('/v2/book/reviews', { token, json: { book: BOOK, title: nul, content: `${nul}${'长'.repeat(200)}` } }),
    ];
    for (const res of answers) {
      expect(res.status).toBeLessThan(500);
      if (res.status >= 400) expectCleanError(res);
    }
    // what was stored reads back
    const stored = await get(`/v2/book/${BOOK}/collection`, { token });
    expect(stored.status).toBe(200);
  });

  it.each([
    ['/v2/book/1%00'],
    ['/v2%00/book/1'],
    ['/v2/book/user/a%00b/collections'],
    ['/v2/loc/108288%00'],
    ['/v2/picture/note-0123456789abcdef0123456789abcdef.jpg%00.png'],
  ])('a NUL byte in the path %s: 404/1001', async (path) => {
    expectRefused(await get(path), 404, 1001);
  });

  it.each([
    ['start', { start: '%00' }], ['count', { count: '1%00' }], ['loc', { loc: '108288%00' }],
  ])('a NUL byte in %s: 400/1016', async (_, raw) => {
    const [[name, value]] = Object.entries(raw);
    const res = await fetch(`${stackInfo().baseUrl}/v2/event/list?loc=108288&${name}=${value}`);
    expect({ status: res.status, code: ((await res.json()) as { code: number }).code }).toEqual({ status: 400, code: 1016 });
  });

  it.each([['/v2/book/user/%zz/collections'], ['/v2/book/isbn/%ff'], ['/v2/note/%E4%B8/comments']])(
    'a malformed escape in the path %s: 404/1001 in the error shape (not fastify\'s)',
    async (path) => {
      const res = await get(path);
      expectRefused(res, 404, 1001);
      expect(res.headers.get('x-request-id')).toBeTruthy();
    },
  );
});

describe('bytes that are not HTTP (answered by the gateway\'s client-error handler)', () => {
  it.each([
    ['a raw 0xFF byte in the path', Buffer.concat([Buffer.from('GET /v2/'), Buffer.from([0xff, 0x01]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]), 'GET /v2/%FF%01'],
    ['a control character in a header', 'GET /v2/loc/list HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n', ''],
    ['a line that is not HTTP', 'HELLO WORLD\r\n\r\n', ''],
    ['a Content-Length that is not a number', 'POST /v2/notes HTTP/1.1\r\nHost: x\r\nContent-Length: 12abc\r\n\r\n', ''],
    ['two Content-Lengths (request smuggling)', 'POST /v2/notes HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab', ''],
    ['Content-Length beside chunked (request smuggling)', 'POST /v2/notes HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', ''],
  ])('%s: 400/1016 in the error shape, with the security headers', async (_, bytes, requestLine) => {
    const res = await rawRequest(bytes);
    expect(res.status).toBe(400);
    const body = JSON.parse(res.body);
    expect({ msg: body.msg, code: body.code }).toEqual({ msg: 'invalid_args', code: 1016 });
    if (requestLine) expect(body.request).toBe(requestLine);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  });
});

describe('media types and malformed bodies', () => {
  it.each([['text/plain'], ['application/xml'], ['image/png'], ['application/octet-stream']])('%s: 415/1104', async (type) => {
    // before: text/plain went to fastify's built-in text parser and came out as 400/1016
    expectRefused(await send('POST', '/v2/notes', 'title=t&content=c', type), 415, 1104);
  });

  it.each([
    ['JSON with a syntax error', 'application/json', '{"title": '],
    ['a JSON string', 'application/json', '"title"'],
    ['a JSON array', 'application/json', '["title", "content"]'],
    ['multipart without a boundary', 'multipart/form-data', '--x\r\nContent-Disposition: form-data; name="title"\r\n\r\nt\r\n--x--\r\n'],
    // before: busboy's plain errors for these two came out as 500
    ['multipart cut off before its end', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="title"\r\n\r\nt\r\n'],
    ['multipart whose boundary never appears', 'multipart/form-data; boundary=nowhere', 'just some bytes'],
  ])('%s: 400/1016', async (_, type, body) => {
    expectRefused(await send('POST', '/v2/notes', body, type), 400, 1016);
  });

  it.each([['application/json'], ['application/x-www-form-urlencoded'], ['multipart/form-data; boundary=x']])(
    'an empty body declared %s is an empty body, sent with a length of 0 or chunked: the answer of no body at all (before: 400/1016 for JSON)',
    async (type) => {
      const none = await api('POST', '/v2/notes', { token });
      const empty = await send('POST', '/v2/notes', '', type);
      expect({ status: empty.status, code: empty.body.code }).toEqual({ status: none.status, code: none.body.code });
      expect(empty.body.code).not.toBe(1016);
      // the same empty body streamed chunked, no Content-Length: known empty only once read
      const chunked = await rawRequest(
        `POST /v2/notes HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: ${type}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`,
      );
      expect({ status: chunked.status, code: JSON.parse(chunked.body).code }).toEqual({ status: none.status, code: none.body.code });
    },
  );

  it('Basic client credentials with a malformed %-escape: 400/1016 (before: 500)', async () => {
    const basic = Buffer.from('%E0%A4%A:secret').toString('base64');
    const res = await api('POST', '/auth2/token', { form: { grant_type: 'client_credentials' }, headers: { authorization: `Basic ${basic}` } });
    expectRefused(res, 400, 1016);
    expect(res.body.error).toBe('invalid_request');
  });
});

describe('multipart bombs', () => {
  const boundary = 'bomb';
  const part = (name: string, value: string, extraHeaders = '') =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n${extraHeaders}\r\n${value}\r\n`;
  const file = (name: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="p.png"\r\nContent-Type: image/png\r\n\r\nnot-a-png\r\n`;
  const end = `--${boundary}--\r\n`;
  const sendParts = (body: string, path = '/v2/notes') => timed(() => send('POST', path, body, `multipart/form-data; boundary=${boundary}`));

  it('5 000 parts: 413/1103, quickly', async () => {
    const { ms, res } = await sendParts(Array.from({ length: 5000 }, (_, i) => part(`f${i}`, 'x')).join('') + end);
    expectRefused(res, 413, 1103);
    expect(ms).toBeLessThan(QUICK_MS);
  });

  it('50 files: 400/1016 (at most 10 files reach the picture checks)', async () => {
    const { res } = await sendParts(part('title', 't') + part('content', 'c') + Array.from({ length: 50 }, (_, i) => file(`image_${i + 1}`)).join('') + end);
    expectRefused(res, 400, 1016);
  });

  it('thousands of headers in one part, and a 200 KB part header, are bounded: a normal answer, quickly', async () => {
    const manyHeaders = Array.from({ length: 5000 }, (_, i) => `X-H${i}: v\r\n`).join('');
    for (const headers of [manyHeaders, `X-Junk: ${'j'.repeat(200_000)}\r\n`]) {
      const { ms, res } = await sendParts(part('title', 'bounded', headers) + part('content', 'c') + end);
      expect(res.status).toBeLessThan(500);
      expect(ms).toBeLessThan(QUICK_MS);
    }
  });

  it('a 100 000-character part name and a 5 MB field: a clean 4xx', async () => {
    expectCleanError((await sendParts(part('n'.repeat(100_000), 't') + part('content', 'c') + end)).res);
    expectRefused((await sendParts(part('title', 't') + part('content', 'c'.repeat(5_000_000)) + end)).res, 400, 1016);
  });

  it('a multipart body on a route that takes no pictures is still bounded', async () => {
    const { res } = await sendParts(Array.from({ length: 5000 }, (_, i) => part(`f${i}`, 'x')).join('') + end, `/v2/book/${BOOK}/collection`);
    expectRefused(res, 413, 1103);
  });
});
