import type { Stack } from '@plaza/stack';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runImporter } from '../support/global-setup';
import { expectNoInternals } from '../security/security-support';
import { passwordGrantRequest, readyStatus, refreshRequest, report, startFaultStack, stopPrivateStack, timed, until } from './fault-support';

const BOOKS = Array.from({ length: 8 }, (_, i) => String(8200001 + i));

describe('the database stopped and restarted', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startFaultStack();
    // books to collect while the database is away
    const file = join(mkdtempSync(join(tmpdir(), 'plaza-db-restart-')), 'book.ndjson');
    writeFileSync(file, BOOKS.map((id) => `${JSON.stringify({ kind: 'book', id, title: `停机之书 ${id}`, author: ['守门人'] })}\n`).join(''));
    runImporter(stack, file);
  }, 120_000);
  afterAll(() => stopPrivateStack(stack));

  it('fails fast with 5xx JSON, turns /ready to 503 and back, and loses nothing', async () => {
    const before = await Promise.all(Array.from({ length: 5 }, () => timed(stack, 'POST', '/auth2/token', passwordGrantRequest())));
    expect(before.every((r) => r.status === 200)).toBe(true);

    await stack.stopEngine('mongo');
    const down = await timed(stack, 'POST', '/auth2/token', passwordGrantRequest());
    expect([503, 504]).toContain(down.status);
    expect([1101, 1102]).toContain(down.body.code);
    expectNoInternals(down.text);
    expect(down.ms).toBeLessThan(2000 + 1500);
    // writes that queue for the database (docs/ENGINES.md, DatabaseWrites) answer as fast as one:
    // those behind the first that found it unreachable fail with it, none waits out a timeout in turn
    const token = before[0].body.access_token as string;
    const writes = await Promise.all(BOOKS.map((book, i) =>
      timed(stack, 'POST', `/v2/book/${book}/collection`, { token, form: { status: 'wish', rating: String((i % 5) + 1) } })));
    for (const w of writes) {
      // the book service's own answer (503/1101) within one database timeout (MONGO_TIMEOUT_MS
      // 1500), not the gateway's 504 after 2 s: no write waited out a timeout behind another
      expect(w.status).toBe(503);
      expect(w.body.code).toBe(1101);
      expect(w.ms).toBeLessThan(2000);
    }
    const ready = await until('/ready 503', async () => (await readyStatus(stack)).status === 503, 10_000);
    expect(ready).toBeLessThan(10_000);
    // each service's own probe listener (HEALTH_PORT) says which dependency is missing, while the
    // process itself stays up
    const probe = async (path: string) => {
      const res = await fetch(`http://127.0.0.1:${stack.healthPort('book')}${path}`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    await until('book probe 503', async () => (await probe('/ready')).status === 503, 10_000);
    expect((await probe('/ready')).body).toMatchObject({ service: 'book', status: 'unavailable', checks: { nats: 'up', database: 'down' } });
    expect(await probe('/health')).toMatchObject({ status: 200, body: { status: 'ok', service: 'book' } });

    await stack.startEngine('mongo');
    const recovered = await until('/ready 200', async () => (await readyStatus(stack)).status === 200, 30_000);
    const back = await probe('/ready');
    expect(back).toMatchObject({ status: 200, body: { service: 'book', status: 'ok', checks: { nats: 'up', database: 'up' } } });
    expect(Object.values(back.body.checks as Record<string, string>).every((c) => c === 'up')).toBe(true);

    // writes acknowledged before the outage are all there, and each works exactly once
    for (const r of before) {
      expect((await timed(stack, 'POST', '/auth2/token', refreshRequest(r.body.refresh_token))).status).toBe(200);
      expect((await timed(stack, 'POST', '/auth2/token', refreshRequest(r.body.refresh_token))).status).toBe(400);
    }
    const fresh = await timed(stack, 'POST', '/auth2/token', passwordGrantRequest());
    expect(fresh.status).toBe(200);
    // and the writes refused during the outage can be made now, each once (the reused refresh
    // tokens above revoked the first token: a new one)
    for (const book of BOOKS) {
      const write = { token: fresh.body.access_token as string, form: { status: 'wish' } };
      expect((await timed(stack, 'POST', `/v2/book/${book}/collection`, write)).status).toBe(201);
      expect((await timed(stack, 'POST', `/v2/book/${book}/collection`, write)).status).toBe(409);
    }
    report('database stopped', { downStatus: down.status, downMs: down.ms, writesDownMs: Math.max(...writes.map((w) => w.ms)), readyTurned503Ms: ready, readyAfterRestartMs: recovered, acknowledged: before.length, lost: 0 });
  });
});
