/**
 * What reading one message costs a service at its edge: the message validation pipe every service
 * runs (`createMessageValidationPipe`) on a user's list request, in a loop after a warm-up, with the
 * caller as messages carry it and with the token's scopes an earlier gateway still added
 * (docs/PERFORMANCE.md, "Messages without the token's scopes").
 *
 *   node tools/bench/dist/message-validation.js   (after npm run build)
 */
import 'reflect-metadata';
import { BookMessages, cacheValidationMetadata, Scopes } from '@plaza/contracts';
import { createMessageValidationPipe } from '@plaza/platform';

const ROUNDS = 7;
const PER_ROUND = 20_000;

const caller = { userId: '100004', uid: 'reader4', clientId: 'demo-premium', tier: 'premium' };
const message = (withScopes: boolean) => ({
  user: 'reader4',
  query: {},
  page: { start: 0, count: 20 },
  caller: withScopes ? { ...caller, scopes: [...Scopes] } : { ...caller },
});

async function main(): Promise<void> {
  cacheValidationMetadata();
  const pipe = createMessageValidationPipe();
  const metadata = { type: 'body' as const, metatype: BookMessages.userCollections.request };
  const micros: Record<'caller' | 'caller with scopes', number[]> = { caller: [], 'caller with scopes': [] };
  // the first round warms the code up and is not counted; the two kinds alternate, round by round
  for (let round = 0; round <= ROUNDS; round++) {
    for (const withScopes of [false, true]) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < PER_ROUND; i++) await pipe.transform(message(withScopes), metadata);
      const perMessage = Number(process.hrtime.bigint() - started) / PER_ROUND / 1000;
      if (round > 0) micros[withScopes ? 'caller with scopes' : 'caller'].push(perMessage);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const bytes = (withScopes: boolean) => Buffer.byteLength(JSON.stringify({ pattern: BookMessages.userCollections.subject, data: message(withScopes), id: '00000000-0000-4000-8000-000000000000' }));
  for (const [kind, values] of Object.entries(micros)) {
    process.stdout.write(`${kind}: ${median(values).toFixed(1)} µs a message (median of ${ROUNDS} rounds of ${PER_ROUND}), packet ${bytes(kind !== 'caller')} bytes\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
