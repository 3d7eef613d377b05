import type { Stack } from '@plaza/stack';
import { expectNoInternals } from '../security/security-support';
import { passwordGrantRequest, readyStatus, refreshRequest, report, startFaultStack, statusCounts, stopPrivateStack, timed, TimedResponse, until } from './fault-support';

describe('NATS restarted under load', () => {
  let stack: Stack;
  beforeAll(async () => (stack = await startFaultStack()), 120_000);
  afterAll(() => stopPrivateStack(stack));

  it('reconnects everything by itself, never hangs a request, and keeps every acknowledged write', async () => {
    const acknowledged: string[] = [];
    const answers: TimedResponse[] = [];
    let running = true;
    const load = (async () => {
      while (running) {
        const res = await timed(stack, 'POST', '/auth2/token', passwordGrantRequest());
        answers.push(res);
        if (res.status === 200) acknowledged.push(res.body.refresh_token);
      }
    })();

    await new Promise((r) => setTimeout(r, 1000));
    await stack.stopEngine('nats');
    await new Promise((r) => setTimeout(r, 2000));
    await stack.startEngine('nats');
    const recovered = await until('the stack ready again', async () => (await readyStatus(stack)).status === 200, 30_000);
    await new Promise((r) => setTimeout(r, 1000));
    running = false;
    await load;

    expect(recovered).toBeLessThan(30_000);
    // no request hung: each was answered within the request timeout plus slack
    for (const a of answers) expect(a.ms).toBeLessThan(2000 + 1500);
    const failures = answers.filter((a) => a.status !== 200);
    for (const f of failures) {
      expect([503, 504]).toContain(f.status);
      expectNoInternals(f.text);
    }
    expect(failures.length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(5);

    // every token pair the client was given is still valid: nothing acknowledged was lost
    let lost = 0;
    for (const refreshToken of acknowledged) {
      const res = await timed(stack, 'POST', '/auth2/token', refreshRequest(refreshToken));
      if (res.status !== 200) lost++;
    }
    expect(lost).toBe(0);
    report('NATS restarted', {
      requests: answers.length, answers: statusCounts(answers), slowestMs: Math.max(...answers.map((a) => a.ms)),
      readyAfterRestartMs: recovered, acknowledged: acknowledged.length, lost,
    });
  });
});
