/**
 * What the gateway's access line costs, one a request at `info` (production's level): the
 * project's logger with its redaction against the access logger without it (`accessLoggerOf`),
 * writing the same line to /dev/null in alternating rounds after a warm-up
 * (docs/PERFORMANCE.md, "Access log").
 *
 *   node tools/bench/dist/access-log.js   (after npm run build)
 */
import { accessLoggerOf, createLogger } from '@plaza/platform';
import pino from 'pino';

const ROUNDS = 7;
const PER_ROUND = 50_000;

/** The fields of the gateway's access line (apps/gateway/src/http/wire-hooks.ts). */
const line = () => ({ reqId: '3f1c2a4e-1111-4222-8333-444455556666', method: 'GET', path: '/v2/book/user/reader4/collections', status: 200, ms: 12.3, user: '100004', app: 'demo-premium' });

function main(): void {
  const logger = createLogger('gateway', 'info', 'json', pino.destination({ dest: '/dev/null', sync: true }));
  const loggers = { 'the logger, redacting': logger, 'the access logger': accessLoggerOf(logger) };
  const micros = Object.fromEntries(Object.keys(loggers).map((k) => [k, [] as number[]]));
  // the first round warms the code up and is not counted
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [kind, log] of Object.entries(loggers)) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < PER_ROUND; i++) log.info(line(), 'request');
      if (round > 0) micros[kind].push(Number(process.hrtime.bigint() - started) / PER_ROUND / 1000);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  for (const [kind, values] of Object.entries(micros)) {
    process.stdout.write(`${kind}: ${median(values).toFixed(1)} µs a line (median of ${ROUNDS} rounds of ${PER_ROUND})\n`);
  }
}

main();
