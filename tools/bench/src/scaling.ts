import { DEMO_PASSWORD, writeCatalogue } from '@plaza/demo';
import { Stack, waitFor, workspaceRoot } from '@plaza/stack';
import { MongoClient } from 'mongodb';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readIds } from './catalogue';
import { runRound, single } from './load';
import { ScaleRow } from './report';

const SEQUENTIAL_READS = 5;

/** The services' two code paths (docs/ENGINES.md): `local` is what `npm start` runs, `mongodb` what production runs. */
export type Branch = 'local' | 'mongodb';

/** A process's resident memory now, in MiB (Linux), or undefined when it cannot be read. */
function rssMiB(pid: number | undefined): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Math.round(Number(kb[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How reads grow with the catalogue, on one branch of the services (DATABASE_MODE) over the
 * local engine: 1k books are imported through the real importer; larger sizes are reached by
 * copying those book documents under new ids straight into the book database (importing 100k
 * books through the service would take most of the benchmark's time budget, and reads are what
 * is measured). The collections collection is filled the same way, one entry per book for
 * users who never read their lists. The book service's RSS shows whether it holds a copy of
 * the catalogue (the local branch's in-memory indexes) or not (the MongoDB branch).
 */
export async function measureScaling(dataDir: string, sizes: number[], say: (line: string) => void, branch: Branch, env: Record<string, string>): Promise<ScaleRow[]> {
  mkdirSync(dataDir, { recursive: true });
  const stack = await Stack.start({
    dataDir,
    // `env` lifts the per-user limits: one user sends every round
    env: { LOG_LEVEL: 'warn', NODE_ENV: 'development', ...env, DATABASE_MODE: branch },
    appEnv: { gateway: { RESPONSE_CACHE_ENABLED: 'false' } },
  });
  const rows: ScaleRow[] = [];
  const client = await MongoClient.connect(stack.mongoUrl);
  try {
    const file = join(dataDir, 'books.ndjson');
    await writeCatalogue(file, { users: 10, books: sizes[0], movies: 0, celebrities: 0, events: 0 });
    const run = spawnSync(process.execPath, [join(workspaceRoot(), 'apps/importer/dist/main.js'), file], { env: { ...process.env, NATS_URL: stack.natsUrl }, encoding: 'utf8' });
    if (run.status !== 1 && run.status !== 0) throw new Error(`import failed: ${run.stderr}`);
    const ids = await readIds(file);
    const books = client.db('book').collection<Record<string, unknown> & { _id: string }>('books');
    const collections = client.db('book').collection<Record<string, unknown> & { _id: string }>('collections');
    const originals = await books.find({}).toArray();

    const token = await fetch(`${stack.baseUrl}/auth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', client_id: 'demo-premium', client_secret: 'demo-premium-secret', username: ids.users[0].uid, password: DEMO_PASSWORD }).toString(),
    }).then((r) => r.json() as Promise<{ access_token: string }>).then((b) => b.access_token);
    for (let k = 0; k < 20; k++) {
      await fetch(`${stack.baseUrl}/v2/book/${ids.books[k]}/collection`, {
        method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'status=read&rating=4',
      });
    }

    const allIds = [...ids.books];
    let count = originals.length;
    for (const size of sizes) {
      // grow to `size` books and `size` collection entries
      while (count < size) {
        const batch = [];
        for (let i = 0; i < 1000 && count < size; i++, count++) {
          const source = originals[count % originals.length];
          const id = String(90_000_000 + count);
          batch.push({ ...source, _id: id, isbn10: '', isbn13: '' });
          allIds.push(id);
        }
        await books.insertMany(batch, { ordered: false });
        const now = new Date();
        await collections.insertMany(
          batch.map((b, i) => ({ _id: `9${i % 997}:${b._id}`, id: 900_000_000 + Number(b._id), user_id: `9${i % 997}`, book_id: b._id, status: 'read', tags: [], comment: '', private: false, created: now, updated: now })),
          { ordered: false },
        );
      }
      // the copies went straight into the database, past the book service: restart it so it reads
      // them as it would after an import (on the local engine it loads its in-memory indexes)
      const restarted = Date.now();
      await stack.restartApp('book');
      const auth = { authorization: `Bearer ${token}` };
      // the local branch's first search waits for its index; the MongoDB branch's, answered by a
      // scan on FerretDB, may take longer than the gateway waits, so a read by id stands for it there
      const first = branch === 'local' ? '/v2/book/search?q=%E6%98%A5%E5%A4%A9' : `/v2/book/${ids.books[0]}`;
      await waitFor('the restarted book service', async () => (await fetch(`${stack.baseUrl}${first}`, { headers: auth })).status === 200, 300_000);
      if (branch === 'local') await fetch(`${stack.baseUrl}/v2/book/user/${ids.users[0].uid}/collections`, { headers: auth });
      const warmMs = Date.now() - restarted;
      say(`  scaling, ${branch} branch: ${count} books (book service restarted, first answer in ${(warmMs / 1000).toFixed(1)} s)`);
      const byId = await runRound(stack.baseUrl, single({
        path: (ctx) => { ctx.id = allIds[Math.floor(Math.random() * allIds.length)]; return `/v2/book/${ctx.id as string}`; },
        headers: () => auth,
        verify: (s, body, ctx) => s === 200 && body.includes(`"id":"${ctx.id as string}"`),
      }), { connections: 4, durationSeconds: 4 });
      // one client, one request at a time: a search the engine answers by a scan can take seconds
      const search = await sequentialLatency(`${stack.baseUrl}/v2/book/search?q=%E6%98%A5%E5%A4%A9`, auth, (s) => s === 200);
      const list = await sequentialLatency(`${stack.baseUrl}/v2/book/user/${ids.users[0].uid}/collections`, auth, (s, body) => s === 200 && body.includes('"total":20'));
      const bookRssMiB = rssMiB(stack.apps.get('book')?.pid);
      const errors = byId.errors + search.errors + list.errors;
      rows.push({ branch, books: count, warmMs, coldByIdP50: byId.p50, coldByIdP99: byId.p99, coldByIdRps: byId.rps, searchP50: search.p50, userCollectionsP50: list.p50, bookRssMiB, errors });
      say(`    by id p50 ${byId.p50} ms (${Math.round(byId.rps)} req/s), search p50 ${search.p50} ms, user list p50 ${list.p50} ms, book service ${bookRssMiB ?? '?'} MiB, errors ${errors}`);
      for (const failure of [...(byId.failures ?? []), ...search.failures, ...list.failures].slice(0, 3)) say(`      ${failure}`);
    }
  } finally {
    await client.close();
    await stack.stop();
  }
  return rows;
}

/**
 * The median time of `SEQUENTIAL_READS` requests sent one after another (each checked, each given
 * up to a minute); the first that fails or times out counts as an error and ends the series.
 */
async function sequentialLatency(url: string, headers: Record<string, string>, verify: (status: number, body: string) => boolean): Promise<{ p50: number; errors: number; failures: string[] }> {
  const times: number[] = [];
  const failures: string[] = [];
  for (let i = 0; i < SEQUENTIAL_READS; i++) {
    const started = performance.now();
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(60_000) });
      const body = await res.text();
      if (verify(res.status, body)) {
        times.push(performance.now() - started);
        continue;
      }
      failures.push(`GET ${url} → ${res.status} ${body.slice(0, 200)}`);
    } catch (err) {
      failures.push(`GET ${url} → ${(err as Error).message}`);
    }
    // a failure (a timeout at the gateway, most likely) predicts the next: the engine may still be
    // working on the abandoned query, and another would queue behind it
    break;
  }
  times.sort((a, b) => a - b);
  return { p50: times.length ? Math.round(times[Math.floor((times.length - 1) / 2)]) : NaN, errors: failures.length, failures };
}
