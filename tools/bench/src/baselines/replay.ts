import Fastify, { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import type { RecordedAnswer } from '../recorded-answers';

/**
 * Baseline R: bare fastify sending answers recorded from the gateway, byte for byte and with the
 * same headers. B says what a Node server costs for 17 bytes; R says it for the answer a scenario
 * really sends, so the load generator's own cost of reading a large answer (which caps the warm
 * movie read) is measured rather than argued. Nothing is computed per request: R is the ceiling
 * any server of these answers can reach on this machine with this load generator.
 */
export function replayServer(answers: RecordedAnswer[]): FastifyInstance {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ answers: answers.length }));
  for (const answer of answers) {
    const body = Buffer.from(answer.body);
    app.get(answer.path, (_request, reply) => {
      void reply.headers(answer.headers).send(body);
    });
  }
  return app;
}

async function main(): Promise<void> {
  const app = replayServer(JSON.parse(readFileSync(process.env.ANSWERS_FILE ?? '', 'utf8')) as RecordedAnswer[]);
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

if (require.main === module) void main();
