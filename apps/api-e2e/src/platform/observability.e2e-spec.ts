import type { Stack } from '@plaza/stack';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runImporter } from '../support/global-setup';
import { api, RequestOptions } from '../support/http';
import { importFile } from '../support/import';
import { moved, OtlpReceiver, ReceivedSpan, scrape, series } from '../support/observability';
import { startPrivateStack, stopPrivateStack } from '../support/private-stack';

/**
 * Metrics and traces (docs/OPERATING.md) on a stack of its own, so that every counter moves by
 * exactly what this suite sends: tracing on, exported to an OTLP/HTTP receiver of the test's own.
 */
const FIXTURES = join(__dirname, '..', '..', 'fixtures');
const BOOK = '2100001';
const MISSING_BOOK = '2199999';
const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const GARBAGE_TOKEN = 'not-a-token-e2e-metrics';

const SERVER = 2;
const CLIENT = 3;

describe('metrics and traces through the real stack', () => {
  let stack: Stack;
  const receiver = new OtlpReceiver();
  const send = (method: string, path: string, options: RequestOptions = {}) => api(method, path, { ...options, baseUrl: stack.baseUrl });
  const serviceMetrics = (service: string) => scrape(`http://127.0.0.1:${stack.healthPort(service)}/metrics`);
  const gatewayMetrics = () => scrape(`${stack.adminUrl}/metrics`);

  beforeAll(async () => {
    const endpoint = await receiver.start();
    stack = await startPrivateStack({
      env: {
        // production's branch (docs/ENGINES.md): the local branch answers a book by id from the
        // book service's memory, so only this one shows the MongoDB spans and commands of a read
        DATABASE_MODE: 'mongodb',
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_TRACES_SAMPLER: 'always_on',
        // spans leave within a fifth of a second, so the test does not wait for the default 5 s
        OTEL_BSP_SCHEDULE_DELAY: '200',
        RATE_LIMIT_MOVIE_BASIC_PER_MIN: '2',
        LOGIN_LOCK_AFTER: '2',
        LOGIN_SLOWDOWN_AFTER: '5',
      },
    });
    runImporter(stack, join(FIXTURES, 'book.ndjson'));
    runImporter(stack, join(FIXTURES, 'movie.ndjson'));
  }, 120_000);
  afterAll(async () => {
    await stopPrivateStack(stack);
    await receiver.stop();
  });

  it('counts at the gateway exactly the requests sent, by route template, method and status, with cache hits and misses', async () => {
    const before = await gatewayMetrics();
    for (let i = 0; i < 3; i++) expect((await send('GET', `/v2/book/${BOOK}`)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await send('GET', `/v2/book/${MISSING_BOOK}`)).status).toBe(404);
    expect((await send('GET', '/v2/no/such/route')).status).toBe(404);
    const after = await gatewayMetrics();

    const http = (status: string) => series('plaza_http_request_duration_seconds_count', { service: 'gateway', route: '/v2/book/:id', method: 'GET', status });
    expect(moved(before, after, http('200'))).toBe(3);
    expect(moved(before, after, http('404'))).toBe(2);
    expect(moved(before, after, series('plaza_http_request_duration_seconds_count', { service: 'gateway', route: 'unmatched', method: 'GET', status: '404' }))).toBe(1);
    // the first read of the book and both reads of the missing one went to the service
    const cache = (event: string) => series('plaza_response_cache_events_total', { service: 'gateway', event });
    expect(moved(before, after, cache('hit'))).toBe(2);
    expect(moved(before, after, cache('miss'))).toBe(3);
    const client = (outcome: string) => series('plaza_nats_client_request_duration_seconds_count', { service: 'gateway', subject: 'book.v1.book.get', outcome });
    expect(moved(before, after, client('ok'))).toBe(1);
    expect(moved(before, after, client('6000'))).toBe(2);
  });

  it('counts on the service side the requests it handled and the database commands they made', async () => {
    const before = await serviceMetrics('book');
    expect((await send('GET', `/v2/book/${MISSING_BOOK}`)).status).toBe(404);
    expect((await send('GET', '/v2/book/2199998')).status).toBe(404);
    const after = await serviceMetrics('book');
    const handled = series('plaza_nats_handler_duration_seconds_count', { service: 'book', subject: 'book.v1.book.get', outcome: '6000' });
    expect(moved(before, after, handled)).toBe(2);
    const finds = series('plaza_mongodb_command_duration_seconds_count', { service: 'book', collection: 'books', command: 'find', outcome: 'ok' });
    expect(moved(before, after, finds)).toBeGreaterThanOrEqual(2);
  });

  it('counts token rejections by code, rate-limit refusals by limit and login lockouts', async () => {
    const before = await gatewayMetrics();
    expect((await send('GET', `/v2/book/${BOOK}`, { token: GARBAGE_TOKEN })).status).toBe(401);
    // the movie basic tier's per-minute limit of this stack is 2: the third anonymous read is refused
    const movieReads = [];
    for (let i = 0; i < 3; i++) movieReads.push((await send('GET', '/v2/movie/subject/2600001')).status);
    expect(movieReads).toEqual([200, 200, 429]);
    const after = await gatewayMetrics();
    expect(moved(before, after, series('plaza_token_rejections_total', { service: 'gateway', code: '103' }))).toBe(1);
    expect(moved(before, after, series('plaza_rate_limit_refusals_total', { service: 'gateway', limit: 'movie-anon' }))).toBe(1);

    const identityBefore = await serviceMetrics('identity');
    const wrong = { grant_type: 'password', client_id: 'test-premium', client_secret: 'test-premium-secret', username: 'mallory', password: 'wrong password' };
    // LOGIN_LOCK_AFTER is 2 here: the second failure locks the account, the third finds it locked
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await send('POST', '/auth2/token', { form: wrong })).body.code);
    expect(statuses).toEqual([120, 128, 128]);
    const identityAfter = await serviceMetrics('identity');
    expect(moved(identityBefore, identityAfter, series('plaza_login_lockouts_total', { service: 'identity' }))).toBe(2);
  });

  it('counts imported records by kind and outcome in the service that owns them', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'plaza-metrics-')), 'books.ndjson');
    const fixtureBook = readFileSync(join(FIXTURES, 'book.ndjson'), 'utf8').split('\n').find((l) => l.includes('"kind": "book"'))!;
    const book = { ...(JSON.parse(fixtureBook) as object), isbn10: undefined, isbn13: undefined };
    // two good books and one without a title
    const lines = [{ ...book, id: '2188001' }, { ...book, id: '2188002' }, { kind: 'book', id: '2188003' }];
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const before = await serviceMetrics('book');
    const run = importFile(file, stack.natsUrl);
    expect(run.status).not.toBe(0);
    const after = await serviceMetrics('book');
    expect(moved(before, after, series('plaza_imported_records_total', { service: 'book', kind: 'book', outcome: 'ok' }))).toBe(2);
    expect(moved(before, after, series('plaza_imported_records_total', { service: 'book', kind: 'book', outcome: 'error' }))).toBe(1);
  });

  it('keeps labels bounded (no raw path, id or token) and serves /metrics only on the admin and health listeners', async () => {
    const text = await (await fetch(`${stack.adminUrl}/metrics`)).text();
    // every label value of every series: a sample's value may hold any digits
    const labelValues = [...text.matchAll(/[a-z_]+="([^"]*)"/g)].map((m) => m[1]);
    expect(labelValues.filter((v) => v.includes(MISSING_BOOK) || v.includes(GARBAGE_TOKEN) || v.includes('/v2/no/such/route'))).toEqual([]);
    expect(text).toContain('process_cpu_user_seconds_total{service="gateway"}');
    for (const service of ['identity', 'book', 'movie', 'note', 'event']) {
      expect((await serviceMetrics(service)).has(`process_resident_memory_bytes{service="${service}"}`)).toBe(true);
    }
    const publicMetrics = await send('GET', '/metrics');
    expect(publicMetrics.status).toBe(404);
    expect(publicMetrics.body.code).toBe(1001);
  });

  it('makes one trace of a book read: gateway, NATS request, book handler and MongoDB, under the client traceparent', async () => {
    const traceparent = `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`;
    const read = await send('GET', '/v2/book/2100002', { headers: { traceparent } });
    expect(read.status).toBe(200);
    const requestId = read.headers.get('x-request-id');

    let trace: ReceivedSpan[] = [];
    const deadline = Date.now() + 15_000;
    const complete = () => trace.some((s) => s.scope.includes('mongodb')) && trace.some((s) => s.service === 'gateway' && s.kind === SERVER);
    while (Date.now() < deadline && !complete()) {
      await new Promise((r) => setTimeout(r, 200));
      trace = receiver.spans.filter((s) => s.traceId === CLIENT_TRACE);
    }
    const server = trace.find((s) => s.service === 'gateway' && s.kind === SERVER);
    const request = trace.find((s) => s.service === 'gateway' && s.name === 'send book.v1.book.get');
    const handler = trace.find((s) => s.service === 'book' && s.name === 'process book.v1.book.get');
    const database = trace.filter((s) => s.service === 'book' && s.scope.includes('mongodb'));
    expect(server).toMatchObject({ name: 'GET /v2/book/:id', parentSpanId: CLIENT_SPAN });
    expect(server!.attributes['http.route']).toBe('/v2/book/:id');
    expect(request).toMatchObject({ kind: CLIENT, parentSpanId: server!.spanId });
    expect(handler).toMatchObject({ kind: SERVER, parentSpanId: request!.spanId });
    expect(database.length).toBeGreaterThan(0);
    for (const span of database) expect(span.parentSpanId).toBe(handler!.spanId);

    // the gateway's access log line for that request carries the trace beside the request id
    const log = readFileSync(join(stack.options.dataDir, 'logs', 'gateway.log'), 'utf8').split('\n');
    const line = log.find((l) => l.includes(`"reqId":"${requestId}"`) && l.includes('"msg":"request"'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ trace_id: CLIENT_TRACE, span_id: server!.spanId });
  });
});
