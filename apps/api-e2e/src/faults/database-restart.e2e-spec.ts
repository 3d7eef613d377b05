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

    await stack.startEngine('mongo');
    const recovered = await until('/ready 200', async () => (await readyStatus(stack)).status === 200, 30_000);

    // writes acknowledged before the outage are all there, and each works exactly once
    for (const r of before) {
      expect((await timed(stack, 'POST', '/auth2/token', refreshRequest(r.body.refresh_token))).status).toBe(200);
      expect((await timed(stack, 'POST', '/auth2/token', refreshRequest(r.body.refresh_token))).status).toBe(400);
    }
    expect((await timed(stack, 'POST', '/auth2/token', passwordGrantRequest())).status).toBe(200);
    report('database stopped', { downStatus: down.status, downMs: down.ms, readyTurned503Ms: ready, readyAfterRestartMs: recovered, acknowledged: before.length, lost: 0 });
  });
});
