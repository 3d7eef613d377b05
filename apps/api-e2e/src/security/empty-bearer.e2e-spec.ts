import { clientToken } from '../support/auth';
import { Apps } from '../support/fixtures';
import { api, ApiResponse, get } from '../support/http';
import { expectCleanError, rawRequest, SecBooks, SecUsers } from './security-support';

/**
 * `Authorization: Bearer` with no token (docs/DECISIONS.md, "Authentication and tokens"). A Bearer credential whose token is missing is
 * a malformed token, 401/103 invalid_access_token, on every endpoint, never an anonymous call
 * (before: anonymous, so 200 on public reads and 403/1000 on notes). Node strips trailing
 * whitespace from header values, so `Bearer `, `Bearer    ` and `Bearer` all reach the gateway as
 * `Bearer`; the wire forms are sent as raw bytes, since fetch trims them before sending.
 * Another scheme (Basic, ...) on a /v2 endpoint is still ignored: the call is anonymous.
 */
const PUBLIC = `/v2/book/${SecBooks.hostile}`;
const NOTES_OF = `/v2/note/user_created/${SecUsers.hostile.id}`;

const WIRE_FORMS: Array<[string, string]> = [
  ['`Bearer ` (one space, no token)', 'Bearer '],
  ['`Bearer` alone', 'Bearer'],
  ['`Bearer    ` (only spaces)', 'Bearer    '],
  ['`bearer` in lower case', 'bearer'],
];

/** A request with exactly these header bytes, parsed like an ApiResponse. */
async function rawWith(method: string, path: string, authorization: string, body?: string): Promise<ApiResponse> {
  const head = [`${method} ${path} HTTP/1.1`, 'Host: plaza.test', `Authorization: ${authorization}`, 'Connection: close'];
  if (body !== undefined) head.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
  const res = await rawRequest(`${head.join('\r\n')}\r\n\r\n${body ?? ''}`);
  return { status: res.status, headers: new Headers(res.headers), body: JSON.parse(res.body), text: res.body };
}

function refused(res: ApiResponse): void {
  expectCleanError(res, 401, 103);
}

describe('an empty Bearer credential is a malformed token: 401/103', () => {
  it.each(WIRE_FORMS)('%s on a public read: 401/103 (before: 200, anonymous)', async (_, authorization) => {
    refused(await rawWith('GET', PUBLIC, authorization));
  });

  it.each(WIRE_FORMS)('%s on notes (a read and a write): 401/103 (before: 403/1000)', async (_, authorization) => {
    refused(await rawWith('GET', NOTES_OF, authorization));
    refused(await rawWith('POST', '/v2/notes', authorization, JSON.stringify({ title: 'Empty bearer', content: 'Never written.' })));
  });

  it('as a client library sends it (fetch trims `Bearer ` to `Bearer`): 401/103 on a public read and on notes', async () => {
    for (const authorization of ['Bearer ', 'Bearer']) {
      refused(await get(PUBLIC, { headers: { authorization } }));
      refused(await get(NOTES_OF, { headers: { authorization } }));
      refused(await api('POST', '/v2/notes', { headers: { authorization }, json: { title: 'Empty bearer', content: 'Never written.' } }));
    }
  });

  it('on a cached public read, anonymous and with an app token before it: the cached-read fast path and lane leave it to the guard', async () => {
    const appToken = await clientToken(Apps.premium);
    // anonymous reads fill the cache (the fast path answers the repeats); app-token reads teach the lane the URL
    for (let i = 0; i < 3; i++) {
      expect((await get(PUBLIC)).status).toBe(200);
      expect((await get(PUBLIC, { token: appToken })).status).toBe(200);
    }
    for (const [, authorization] of WIRE_FORMS) refused(await rawWith('GET', PUBLIC, authorization));
    refused(await get(PUBLIC, { headers: { authorization: 'Bearer' } }));
    // and the cached answer still goes to the callers it is for
    expect((await get(PUBLIC, { token: appToken })).status).toBe(200);
    expect((await get(PUBLIC)).status).toBe(200);
  });

  it('a token with characters RFC 6750 does not allow, or two tokens, is refused the same way', async () => {
    refused(await get(PUBLIC, { headers: { authorization: 'Bearer not!a$token' } }));
    refused(await get(PUBLIC, { headers: { authorization: 'Bearer two tokens' } }));
  });

  it('another scheme keeps its behaviour (DECISIONS.md: only the Bearer header carries a token): anonymous, 200 on a public read, 403/1000 on notes', async () => {
    const basic = `Basic ${Buffer.from('someone:secret').toString('base64')}`;
    expect((await get(PUBLIC, { headers: { authorization: basic } })).status).toBe(200);
    expectCleanError(await get(NOTES_OF, { headers: { authorization: basic } }), 403, 1000);
    expect((await get(PUBLIC, { headers: { authorization: 'Bearertoken' } })).status).toBe(200);
  });
});
