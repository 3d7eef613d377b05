import type { Stack } from '@plaza/stack';
import { expectNoInternals } from '../security/security-support';
import { passwordGrantRequest, readyStatus, refreshRequest, report, startFaultStack, stopPrivateStack, timed, until } from './fault-support';

describe('the database stopped and restarted', () => {
  let stack: Stack;
  beforeAll(async () => (stack = await startFaultStack()), 120_000);
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
    expect((await timed(stack, 'POST', '/auth2/token', passwordGrantRequest())).status).toBe(200);
    report('database stopped', { downStatus: down.status, downMs: down.ms, readyTurned503Ms: ready, readyAfterRestartMs: recovered, acknowledged: before.length, lost: 0 });
  });
});
