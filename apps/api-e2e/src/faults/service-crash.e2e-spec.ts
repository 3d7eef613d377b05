import type { Stack } from '@plaza/stack';
import { expectNoInternals } from '../security/security-support';
import { passwordGrantRequest, readyStatus, report, startFaultStack, statusCounts, stopPrivateStack, timed, until } from './fault-support';

/** REQUEST_TIMEOUT_MS of the private stack, plus scheduling slack on a loaded 2-core machine. */
const ANSWER_WITHIN_MS = 2000 + 1500;

describe('a service killed while requests are in flight', () => {
  let stack: Stack;
  beforeAll(async () => (stack = await startFaultStack()), 120_000);
  afterAll(() => stopPrivateStack(stack));

  it('answers in-flight requests with the error shape, keeps other areas up, and recovers by itself', async () => {
    const inFlight = Array.from({ length: 20 }, (_, i) => timed(stack, 'POST', '/auth2/token', passwordGrantRequest(i % 2 ? 'alice' : 'bob')));
    await new Promise((r) => setTimeout(r, 30));
    await stack.app('identity').kill();
    const answers = await Promise.all(inFlight);
    for (const a of answers) {
      expect(a.ms).toBeLessThan(ANSWER_WITHIN_MS);
      if (a.status !== 200) {
        expect([503, 504]).toContain(a.status);
        expect([1101, 1102]).toContain(a.body.code);
        expect(a.body.request).toBe('POST /auth2/token');
        expectNoInternals(a.text);
      }
    }
    // new requests fail fast while nobody serves identity (no responders: 503 at once)
    const meanwhile = await timed(stack, 'POST', '/auth2/token', passwordGrantRequest());
    expect(meanwhile.status).toBe(503);
    expect(meanwhile.body.code).toBe(1101);
    // the RFC 6749 description names no message subject (before: "no instance answers identity.v1.token.issue")
    expect(meanwhile.body.error_description).toBe('service_unavailable');
    expectNoInternals(meanwhile.text);
    expect(meanwhile.ms).toBeLessThan(ANSWER_WITHIN_MS);

    // the other areas keep answering
    const ready = await readyStatus(stack);
    expect(ready.status).toBe(503);
    expect(ready.checks.identity).toBe('down');
    for (const other of ['book', 'movie', 'note', 'event']) expect(ready.checks[other]).toBe('up');
    expect((await timed(stack, 'GET', '/health')).status).toBe(200);

    // restart: the same request succeeds with no operator action on the gateway
    await stack.restartApp('identity');
    const recoveredMs = await until('identity back', async () => (await readyStatus(stack)).status === 200);
    const after = await timed(stack, 'POST', '/auth2/token', passwordGrantRequest());
    expect(after.status).toBe(200);
    report('identity killed', {
      inFlight: statusCounts(answers), slowestMs: Math.max(...answers.map((a) => a.ms)), meanwhileMs: meanwhile.ms, readyAfterRestartMs: recoveredMs,
    });
  });
});
