import { readFileSync } from 'node:fs';
import { waitFor } from '@plaza/stack';
import { clientToken, tokenFor } from '../support/auth';
import { Apps, PASSWORD } from '../support/fixtures';
import { ExtraGateway, startGateway } from '../support/gateways';
import { ApiResponse, get, post } from '../support/http';
import { BookUsers } from './book-support';

/** How long `untilLane` keeps reading before it decides the lane never answers. */
const LANE_BUDGET_MS = 20_000;

/**
 * Repeat reads of a cached answer are served before fastify (apps/gateway/src/cache/cached-read.lane.ts).
 * A replica of its own, logging every request, shows which answers came from the lane; every
 * answer must be the one fastify would have given.
 */
describe('cached reads answered before fastify (the lane)', () => {
  const book = '2200012';
  const path = `/v2/book/${book}`;
  let gateway: ExtraGateway;
  let appToken: string;

  beforeAll(async () => {
    // the limits of the shared stack (global-setup.ts): other suites' anonymous calls share the counter
    gateway = await startGateway({ LOG_LEVEL: 'info', RATE_LIMIT_ANON_PER_HOUR: '1000000' });
    appToken = await clientToken();
  }, 60_000);
  afterAll(() => gateway?.stop());

  const read = (token: string | undefined = appToken, headers: Record<string, string> = {}) => get(path, { token, headers, baseUrl: gateway.baseUrl });
  const logLines = () =>
    readFileSync(gateway.process.spec.logFile, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"msg":"request"'))
      .map((line) => JSON.parse(line) as { reqId: string; status: number; lane?: boolean; app?: string });
  /** Whether the answer was the lane's, from the access log (which fastify writes too, without `lane`). */
  const fromLane = async (res: ApiResponse) => {
    const id = res.headers.get('x-request-id') as string;
    let line: { lane?: boolean } | undefined;
    await waitFor(`access log line of ${id}`, async () => (line = logLines().find((l) => l.reqId === id)) !== undefined, 5_000);
    return line?.lane === true;
  };
  /**
   * Reads until the lane answers: suites run in parallel on the shared stack, and another one's
   * book import or write of this book may empty this replica's cache between two reads, or keep an
   * answer from being stored (an invalidation of its area or tags that arrives while a read is in
   * flight does: ResponseCache). Returns
   * the answer before the lane's (fastify's, unless the first read was already the lane's) and the
   * lane's.
   */
  const untilLane = async (token: string = appToken, headers: Record<string, string> = {}): Promise<[ApiResponse, ApiResponse]> => {
    // a time budget rather than a number of reads: how long other suites' writes keep
    // invalidating depends on the machine's speed, not on how many reads this suite makes
    const deadline = Date.now() + LANE_BUDGET_MS;
    let reads = 1;
    let previous = await read(token, headers);
    while (Date.now() < deadline) {
      const res = await read(token, headers);
      reads++;
      if (await fromLane(res)) return [previous, res];
      previous = res;
    }
    throw new Error(`no answer from the lane in ${reads} reads of ${path} over ${LANE_BUDGET_MS / 1000} s`);
  };
  const withoutPerRequestHeaders = (res: ApiResponse) => [...res.headers.entries()].filter(([name]) => name !== 'x-request-id' && name !== 'date');

  it('answers a repeat read with the same status, headers and bytes as fastify gave the read before', async () => {
    const first = await read();
    expect(first.status).toBe(200);
    expect(await fromLane(first)).toBe(false);
    // the third read when nothing empties the cache between them: the second fills the lane's table
    const [second, third] = await untilLane();
    expect(await fromLane(second)).toBe(false);
    expect([second.status, third.status]).toEqual([200, 200]);
    expect(third.text).toBe(second.text);
    expect(third.body).toMatchObject({ id: book, title: '收藏测试之书 Collectable 12' });
    expect(withoutPerRequestHeaders(third)).toEqual(withoutPerRequestHeaders(second));
    expect(third.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    // JSON text is UTF-8, not \u escapes (DECISIONS.md): in the service's answer (the first read of a
    // replica just started) and in the lane's, from the cache
    for (const res of [first, third]) {
      expect(res.text).toContain('"title":"收藏测试之书 Collectable 12"');
      expect(res.text).not.toMatch(/\\u[0-9a-fA-F]{4}/);
    }
    // a client's own request id is kept, as fastify keeps it
    const [, traced] = await untilLane(appToken, { 'x-request-id': 'lane-trace-1' });
    expect(traced.headers.get('x-request-id')).toBe('lane-trace-1');
  });

  it('answers If-None-Match with 304 and the ETag, no body', async () => {
    const etag = (await read()).headers.get('etag') as string;
    const [, res] = await untilLane(appToken, { 'if-none-match': etag });
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe(etag);
    expect(res.text).toBe('');
  });

  it('leaves fields and JSONP answers to fastify, which gives them their own ETag and 304', async () => {
    const trimmed = () => get(path, { token: appToken, query: { fields: 'id,title' }, baseUrl: gateway.baseUrl });
    await trimmed();
    await trimmed();
    const cached = await trimmed();
    expect(cached.body).toEqual({ id: book, title: '收藏测试之书 Collectable 12' });
    expect(await fromLane(cached)).toBe(false);
    const etag = cached.headers.get('etag') as string;
    expect(etag).toMatch(/^"/);
    expect(etag).not.toBe((await read()).headers.get('etag'));
    const notModified = await get(path, { token: appToken, query: { fields: 'id,title' }, headers: { 'if-none-match': etag }, baseUrl: gateway.baseUrl });
    expect(notModified.status).toBe(304);
    const jsonp = await get(path, { token: appToken, query: { callback: 'cb' }, baseUrl: gateway.baseUrl });
    expect(jsonp.text.startsWith('/**/cb({')).toBe(true);
    expect(await fromLane(jsonp)).toBe(false);
  });

  it('leaves users, anonymous callers (rate-limited) and bad tokens to fastify, which answers each as before', async () => {
    await read();
    await read();
    const userToken = await tokenFor(BookUsers.laner);
    await read(userToken); // its token is known (verified) from here on
    const asUser = await read(userToken);
    expect(asUser.status).toBe(200);
    expect(await fromLane(asUser)).toBe(false);
    const anonymous = await get(path, { baseUrl: gateway.baseUrl });
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get('ratelimit-limit')).toBeTruthy();
    expect(await fromLane(anonymous)).toBe(false);
    const badToken = await read('not-a-token');
    expect(badToken.status).toBe(401);
    expect(badToken.body).toMatchObject({ code: 103 });
  });

  it("refuses an app token without the book scope, once its token is known and the answer cached: 403/109", async () => {
    await untilLane();
    // the gateway keeps a token's scopes beside its caller (DECISIONS.md, "Scopes are checked at the gateway");
    // the first read verifies this token, the next ones find it verified, as the lane and the fast path do
    const unscoped = await clientToken(undefined, 'movie_basic_r');
    for (let i = 0; i < 3; i++) {
      const refused = await read(unscoped);
      expect([refused.status, (refused.body as { code?: number }).code]).toEqual([403, 109]);
      expect(await fromLane(refused)).toBe(false);
    }
    expect((await read()).status).toBe(200);
  });

  it('writes access lines of their fixed fields only: no token, query string, password or secret (they skip the redaction)', async () => {
    // docs/PERFORMANCE.md, "Access log": the access logger does not redact, so what a line may carry is this list
    const allowed = ['level', 'time', 'pid', 'service', 'name', 'reqId', 'method', 'path', 'status', 'ms', 'user', 'app', 'lane', 'trace_id', 'span_id', 'msg'];
    const userToken = await tokenFor(BookUsers.laner);
    const [, fromTheLane] = await untilLane();
    const asUser = await read(userToken, {});
    const withQuery = await get(`${path}?fields=id,title&apikey=${Apps.premium.clientId}`, { baseUrl: gateway.baseUrl });
    const login = await post('/auth2/token', {
      baseUrl: gateway.baseUrl,
      form: { grant_type: 'password', client_id: Apps.premium.clientId, client_secret: Apps.premium.secret, username: BookUsers.laner.uid, password: PASSWORD },
    });
    expect([asUser.status, withQuery.status, login.status]).toEqual([200, 200, 200]);
    const issued = (login.body as { access_token: string }).access_token;
    for (const res of [fromTheLane, asUser, withQuery, login]) await fromLane(res);
    const raw = readFileSync(gateway.process.spec.logFile, 'utf8').split('\n');
    const ids = [fromTheLane, asUser, withQuery, login].map((res) => res.headers.get('x-request-id') as string);
    const lines = ids.map((id) => raw.find((line) => line.includes(`"reqId":"${id}"`) && line.includes('"msg":"request"')) as string);
    for (const line of lines) {
      expect(Object.keys(JSON.parse(line)).filter((key) => !allowed.includes(key))).toEqual([]);
      for (const secret of [userToken, appToken, issued, PASSWORD, Apps.premium.secret as string, '?', 'apikey']) expect(line).not.toContain(secret);
    }
    expect(lines.map((line) => (JSON.parse(line) as { path: string }).path)).toEqual([path, path, path, '/auth2/token']);
  });

  it('never serves an answer a write has changed, nor a shared answer to a user', async () => {
    const [, before] = await untilLane();
    const numRaters = (before.body as { rating: { numRaters: number } }).rating.numRaters;
    const userToken = await tokenFor(BookUsers.laner);
    // the write goes through the shared gateway; this replica hears the invalidation over NATS
    expect((await post(`${path}/collection`, { token: userToken, form: { status: 'read', rating: 4 } })).status).toBe(201);
    let after: ApiResponse | undefined;
    await waitFor('the replica to drop the old answer', async () => ((after = await read()).body as { rating: { numRaters: number } }).rating.numRaters === numRaters + 1, 5_000);
    expect(await fromLane(after as ApiResponse)).toBe(false);
    // the user's own read carries their collection, which the shared answer has not
    const mine = await read(userToken);
    expect(mine.body).toMatchObject({ current_user_collection: expect.objectContaining({ status: 'read' }) });
    const [, again] = await untilLane();
    expect(again.body).not.toHaveProperty('current_user_collection');
    expect((again.body as { rating: { numRaters: number } }).rating.numRaters).toBe(numRaters + 1);
  });
});
