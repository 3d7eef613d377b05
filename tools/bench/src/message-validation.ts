/**
 * What reading one message costs a service at its edge: the message validation pipe every service
 * runs (`createMessageValidationPipe`) on a user's list request, in alternating rounds (`alternatingRounds`), with the
 * caller as messages carry it and with the token's scopes an earlier gateway still added
 * (docs/PERFORMANCE.md, "Messages without the token's scopes").
 *
 *   node tools/bench/dist/message-validation.js   (after npm run build)
 */
import 'reflect-metadata';
import { BookMessages, cacheValidationMetadata, Scopes } from '@plaza/contracts';
import { createMessageValidationPipe } from '@plaza/platform';
import { alternatingRounds } from './loop-rounds';

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
  const validating = (withScopes: boolean) => async (messages: number) => {
    for (let i = 0; i < messages; i++) await pipe.transform(message(withScopes), metadata);
  };
  const micros = await alternatingRounds({ caller: validating(false), 'caller with scopes': validating(true) }, ROUNDS, PER_ROUND);
  const bytes = (withScopes: boolean) => Buffer.byteLength(JSON.stringify({ pattern: BookMessages.userCollections.subject, data: message(withScopes), id: '00000000-0000-4000-8000-000000000000' }));
  for (const [kind, value] of Object.entries(micros)) {
    process.stdout.write(`${kind}: ${value.toFixed(1)} µs a message (median of ${ROUNDS} rounds of ${PER_ROUND}), packet ${bytes(kind !== 'caller')} bytes\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
