/**
 * What the gateway's access line costs, one a request at `info` (production's level): the
 * project's logger with its redaction against the access logger without it (`accessLoggerOf`),
 * writing the same line to /dev/null (`alternatingRounds`)
 * (docs/PERFORMANCE.md, "Access log").
 *
 *   node tools/bench/dist/access-log.js   (after npm run build)
 */
import { accessLoggerOf, createLogger } from '@plaza/platform';
import pino from 'pino';
import { alternatingRounds } from './loop-rounds';

const ROUNDS = 7;
const PER_ROUND = 50_000;

/** The fields of the gateway's access line (apps/gateway/src/http/wire-hooks.ts). */
const line = () => ({ reqId: '3f1c2a4e-1111-4222-8333-444455556666', method: 'GET', path: '/v2/book/user/reader4/collections', status: 200, ms: 12.3, user: '100004', app: 'demo-premium' });

async function main(): Promise<void> {
  const logger = createLogger('gateway', 'info', 'json', pino.destination({ dest: '/dev/null', sync: true }));
  const writing = (log: typeof logger) => (lines: number) => {
    for (let i = 0; i < lines; i++) log.info(line(), 'request');
  };
  const micros = await alternatingRounds({ 'the logger, redacting': writing(logger), 'the access logger': writing(accessLoggerOf(logger)) }, ROUNDS, PER_ROUND);
  for (const [kind, value] of Object.entries(micros)) {
    process.stdout.write(`${kind}: ${value.toFixed(1)} µs a line (median of ${ROUNDS} rounds of ${PER_ROUND})\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
