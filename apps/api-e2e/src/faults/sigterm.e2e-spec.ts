import type { Stack } from '@plaza/stack';
import { passwordGrantRequest, readyStatus, report, startFaultStack, statusCounts, stopPrivateStack, timed, until } from './fault-support';

describe('SIGTERM: stop taking work, finish what is in flight, exit 0', () => {
  let stack: Stack;
  beforeAll(async () => (stack = await startFaultStack()), 120_000);
  afterAll(() => stopPrivateStack(stack));

  it('identity finishes the requests it already has, then exits 0', async () => {
    const inFlight = Array.from({ length: 12 }, () => timed(stack, 'POST', '/auth2/token', passwordGrantRequest()));
    await new Promise((r) => setTimeout(r, 40));
    const identity = stack.app('identity');
    identity.signal('SIGTERM');
    const [answers, code] = await Promise.all([Promise.all(inFlight), identity.exited()]);
    expect(code).toBe(0);
    // every request either completed, or arrived after the drain and was refused cleanly
    for (const a of answers) expect([200, 503]).toContain(a.status);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    report('SIGTERM identity', { exitCode: code, inFlight: statusCounts(answers) });
    await stack.restartApp('identity');
    await until('identity back', async () => (await readyStatus(stack)).status === 200);
  });

  it.each(['book', 'movie', 'note', 'event'])('%s exits 0 within the grace period', async (name) => {
    const started = Date.now();
    const proc = stack.app(name);
    proc.signal('SIGTERM');
    expect(await proc.exited()).toBe(0);
    const exitedMs = Date.now() - started;
    expect(exitedMs).toBeLessThan(10_000);
    report(`SIGTERM ${name}`, { exitCode: 0, exitedMs });
    await stack.restartApp(name);
    await until(`${name} back`, async () => (await readyStatus(stack)).status === 200);
  });

  it('the gateway answers its in-flight requests before exiting 0', async () => {
    const inFlight = Array.from({ length: 10 }, () => timed(stack, 'POST', '/auth2/token', passwordGrantRequest()));
    await new Promise((r) => setTimeout(r, 40));
    const gateway = stack.app('gateway');
    gateway.signal('SIGTERM');
    const [answers, code] = await Promise.all([Promise.all(inFlight), gateway.exited()]);
    expect(code).toBe(0);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    report('SIGTERM gateway', { exitCode: code, inFlight: statusCounts(answers) });
  });
});
