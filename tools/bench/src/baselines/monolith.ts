import Fastify from 'fastify';
import { MongoClient } from 'mongodb';
import { join } from 'node:path';
import { workspaceRoot } from '@plaza/stack';

/**
 * Baseline M: the same two reads as a minimal monolith — fastify and the MongoDB driver, no
 * NestJS, no NATS, no gateway rules — against the same databases. To answer with exactly the
 * same JSON it runs the services' own compiled presentation functions (loaded at run time from
 * their build output; the benchmark is the only place that crosses app boundaries like this).
 */
/** The services' functions it borrows: app, module (under the app's src/ and dist/), export. */
export const BORROWED = [
  { app: 'book', module: 'books/book-view', name: 'presentBook' },
  { app: 'movie', module: 'subjects/subjects.service', name: 'assembleSubject' },
  { app: 'movie', module: 'common/tiers', name: 'subjectForTier' },
] as const;

function borrow(name: (typeof BORROWED)[number]['name']): (...args: unknown[]) => unknown {
  const borrowed = BORROWED.find((b) => b.name === name);
  if (!borrowed) throw new Error(`${name} is not among BORROWED`);
  const { app, module } = borrowed;
  return require(join(workspaceRoot(), 'apps', app, 'dist', `${module}.js`))[name];
}

async function main(): Promise<void> {
  const presentBook = borrow('presentBook');
  const assembleSubject = borrow('assembleSubject');
  const subjectForTier = borrow('subjectForTier');
  const addresses = { publicApiUrl: process.env.PUBLIC_API_URL ?? '', publicWebUrl: process.env.PUBLIC_WEB_URL ?? '' };

  const client = await MongoClient.connect(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', { maxPoolSize: 20 });
  const books = client.db('book').collection<{ _id: string }>('books');
  const views = client.db('movie').collection<{ _id: string }>('subject_views');

  const app = Fastify({ logger: false });
  const notFound = (request: { method: string; url: string }) => ({ msg: 'uri_not_found', code: 1001, request: `${request.method} ${request.url.split('?')[0]}` });
  app.get<{ Params: { id: string } }>('/v2/book/:id', async (request, reply) => {
    if (!/^\d+$/.test(request.params.id)) return reply.status(404).send(notFound(request));
    const doc = await books.findOne({ _id: request.params.id });
    if (!doc) return reply.status(404).send(notFound(request));
    return presentBook(doc, addresses);
  });
  app.get<{ Params: { id: string } }>('/v2/movie/subject/:id', async (request, reply) => {
    if (!/^\d+$/.test(request.params.id)) return reply.status(404).send(notFound(request));
    const view = await views.findOne({ _id: request.params.id });
    if (!view) return reply.status(404).send(notFound(request));
    return subjectForTier(assembleSubject(view), 'premium');
  });
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.on('SIGTERM', () => void app.close().then(() => client.close()).then(() => process.exit(0)));
}

if (require.main === module) void main();
