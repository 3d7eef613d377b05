import Fastify from 'fastify';

/** Baseline B: the physical limit of a Node HTTP server on this machine (bare fastify, hello world). */
async function main(): Promise<void> {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main();
