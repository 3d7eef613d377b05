import { accessLoggerOf, createLogger } from './logger';

/** A destination that keeps each line written to it, parsed. */
function lines(): { write(line: string): void; parsed: Array<Record<string, unknown>> } {
  const parsed: Array<Record<string, unknown>> = [];
  return { write: (line: string) => parsed.push(JSON.parse(line)), parsed };
}

describe('createLogger', () => {
  it('redacts credentials wherever they appear in a logged object, one level down included', () => {
    const out = lines();
    const logger = createLogger('gateway', 'info', 'json', out);
    logger.info({ password: 'p1', client_secret: 's1', body: { refresh_token: 'r1', code_verifier: 'v1' }, req: { headers: { authorization: 'Bearer t1', host: 'h' } } }, 'login');
    const [line] = out.parsed;
    expect(line).toMatchObject({
      service: 'gateway',
      password: '[redacted]',
      client_secret: '[redacted]',
      body: { refresh_token: '[redacted]', code_verifier: '[redacted]' },
      req: { headers: { authorization: '[redacted]', host: 'h' } },
    });
    expect(JSON.stringify(out.parsed)).not.toMatch(/p1|s1|r1|v1|t1/);
  });
});

describe('accessLoggerOf', () => {
  const access = { reqId: 'r-1', method: 'GET', path: '/v2/book/1', status: 200, ms: 1.5, user: '100001', app: 'demo-premium' };

  it("writes an access line with the logger's bindings, to its destination", () => {
    const out = lines();
    const logger = createLogger('gateway', 'info', 'json', out);
    accessLoggerOf(logger).info(access, 'request');
    expect(out.parsed).toEqual([expect.objectContaining({ ...access, service: 'gateway', name: 'gateway', pid: process.pid, level: 30, msg: 'request' })]);
  });

  it("keeps the logger's level: nothing below it is written", () => {
    const out = lines();
    accessLoggerOf(createLogger('gateway', 'warn', 'json', out)).info(access, 'request');
    expect(out.parsed).toEqual([]);
  });

  it('leaves the redaction of the logger it came from in place', () => {
    const out = lines();
    const logger = createLogger('gateway', 'info', 'json', out);
    accessLoggerOf(logger);
    logger.info({ token: 'secret' }, 'after');
    expect(out.parsed[0].token).toBe('[redacted]');
  });
});
