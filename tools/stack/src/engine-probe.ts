import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { engineVersion, installFerretDb } from './engines';
import { engineAnswers } from './engine-handshake';
import { cpuMicrosOf, freePort, ManagedProcess, waitFor } from './processes';

/**
 * `node tools/stack/dist/engine-probe.js`: measures the local engine's behaviour that the design
 * depends on (atomicity of concurrent updates, unique-index inserts, what is pushed down, what is
 * missing). Prints a table for docs/ENGINES.md. Uses MONGO_URL when set, else a fresh FerretDB.
 */
async function main(): Promise<void> {
  let proc: ManagedProcess | undefined;
  let dir: string | undefined;
  let url = process.env.MONGO_URL;
  let engine = 'external';
  if (!url) {
    const binary = await installFerretDb((l) => process.stdout.write(`${l}\n`));
    dir = mkdtempSync(join(tmpdir(), 'plaza-probe-'));
    const port = await freePort();
    proc = new ManagedProcess('ferretdb', {
      command: binary,
      args: ['--handler=sqlite', `--sqlite-url=file:${dir}/?_txlock=immediate`, `--listen-addr=127.0.0.1:${port}`, '--debug-addr=-', '--telemetry=disable', '--log-level=error', `--state-dir=${dir}`],
      logFile: join(dir, 'ferretdb.log'),
    }).start();
    await waitFor('ferretdb', () => engineAnswers('mongodb', port), 20_000);
    url = `mongodb://127.0.0.1:${port}`;
    engine = `FerretDB ${engineVersion(binary)} (SQLite, _txlock=immediate)`;
  }
  const client = await MongoClient.connect(url, { maxPoolSize: 50 });
  const db = client.db('probe');
  await db.dropDatabase().catch(() => undefined);
  const rows: Array<[string, string]> = [];
  const time = async (fn: () => Promise<unknown>) => {
    const t = process.hrtime.bigint();
    await fn();
    return Number(process.hrtime.bigint() - t) / 1e6;
  };

  const counters = db.collection<{ _id: string; n: number; likers: string[] }>('counters');
  await counters.insertOne({ _id: 'c', n: 0, likers: [] });
  await Promise.all(Array.from({ length: 200 }, () => counters.updateOne({ _id: 'c' }, { $inc: { n: 1 } })));
  rows.push(['200 concurrent `$inc` on one document', `n = ${(await counters.findOne({ _id: 'c' }))?.n} (atomic engines: 200)`]);
  await Promise.all(Array.from({ length: 200 }, (_, i) => counters.updateOne({ _id: 'c' }, { $addToSet: { likers: `u${i}` } })));
  rows.push(['200 concurrent `$addToSet` of distinct values', `${(await counters.findOne({ _id: 'c' }))?.likers.length} values kept (atomic: 200)`]);

  const upserts = db.collection<{ _id: string; n: number }>('upserts');
  const upserted = await Promise.allSettled(Array.from({ length: 100 }, () => upserts.findOneAndUpdate({ _id: 'k' }, { $inc: { n: 1 } }, { upsert: true })));
  const failedUpserts = upserted.filter((r) => r.status === 'rejected').length;
  rows.push(['100 concurrent findOneAndUpdate `$inc` upserts', `n = ${(await upserts.findOne({ _id: 'k' }))?.n}, ${failedUpserts} failed with E11000 (atomic: 100, 0)`]);

  const unique = db.collection('unique');
  const inserts = await Promise.allSettled(Array.from({ length: 50 }, () => unique.insertOne({ _id: 'same' as never })));
  rows.push(['50 concurrent inserts of one `_id`', `${inserts.filter((r) => r.status === 'fulfilled').length} succeeded, the rest E11000`]);
  const compound = db.collection('compound');
  await compound.createIndex({ a: 1, b: 1 }, { unique: true });
  const compoundInserts = await Promise.allSettled(Array.from({ length: 50 }, () => compound.insertOne({ a: 1, b: 2 })));
  rows.push(['50 concurrent inserts against a unique compound index', `${compoundInserts.filter((r) => r.status === 'fulfilled').length} succeeded`]);

  const docs = db.collection<{ _id: string; owner: string; terms: string[] }>('docs');
  for (let i = 0; i < 20_000; i += 1000) {
    await docs.insertMany(Array.from({ length: 1000 }, (_, j) => ({ _id: String(i + j), owner: `u${(i + j) % 50}`, terms: [`t${(i + j) % 100}`] })));
  }
  const byId = await time(async () => { for (let i = 0; i < 200; i++) await docs.findOne({ _id: String(i * 7) }); });
  rows.push(['findOne by `_id` (20k documents)', `${(byId / 200).toFixed(2)} ms each`]);
  const small = db.collection<{ _id: string }>('small');
  await small.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: String(i) })));
  const byIdSmall = await time(async () => { for (let i = 0; i < 200; i++) await small.findOne({ _id: String(i % 50) }); });
  rows.push(['findOne by `_id` (50 documents): flat means the index is used', `${(byIdSmall / 200).toFixed(2)} ms each`]);
  const scan = await time(() => docs.countDocuments({ owner: 'u3' }));
  rows.push(['countDocuments on another field (20k documents)', `${scan.toFixed(0)} ms (a scan: ${((scan * 1000) / 20_000).toFixed(0)} µs per document)`]);
  const inIds = await time(() => docs.find({ _id: { $in: ['1', '2', '3'] } }).toArray());
  rows.push(['find `_id: {$in: [3 ids]}` (20k documents)', `${inIds.toFixed(0)} ms`]);
  const plans = [
    ['_id equality', { _id: '5' }],
    ['_id $in', { _id: { $in: ['5'] } }],
    ['other field', { owner: 'u1' }],
  ] as const;
  for (const [label, filter] of plans) {
    const explain = (await docs.find(filter as never).explain()) as { filterPushdown?: boolean };
    rows.push([`pushdown of ${label}`, String(explain.filterPushdown ?? 'n/a (not FerretDB)')]);
  }
  const update = await time(async () => { for (let i = 0; i < 100; i++) await docs.updateOne({ _id: String(i) }, { $set: { owner: 'x' } }); });
  rows.push(['updateOne by `_id` (20k documents), sequential', `${(update / 100).toFixed(2)} ms each`]);
  const remove = await time(async () => { for (let i = 100; i < 150; i++) await docs.deleteOne({ _id: String(i) }); });
  rows.push(['deleteOne by `_id` (20k documents), sequential', `${(remove / 50).toFixed(2)} ms each`]);

  // what a secondary index costs a write: a book-sized document (a 100-term array among its
  // fields) replaced by `_id`, with four indexes like the books' and with none (docs/ENGINES.md, "Indexes on FerretDB")
  const bookLike = (i: number, rev: number) => ({
    _id: String(i), rev, title: `Title ${i}`, summary: 'word '.repeat(40), terms: Array.from({ length: 100 }, (_, t) => `term${t}-${i}`),
    keys: [`key${i}`, `other${i}`], rank: String(1e12 - i).padStart(13, '0'), tags: [{ name: 'fiction', count: i }],
  });
  const withoutTerms = (i: number, rev: number) => ({ ...bookLike(i, rev), terms: [] });
  const bookLikes = async (name: string, indexes: Array<Record<string, 1>>) => {
    const books = db.collection<{ _id: string }>(name);
    for (const key of indexes) await books.createIndex(key);
    await books.insertMany(Array.from({ length: 100 }, (_, i) => bookLike(i, 0)));
    return books;
  };
  const indexed = await bookLikes('indexed', [{ terms: 1, rank: 1 }, { keys: 1, rank: 1 }, { title: 1, _id: 1 }, { 'tags.name': 1 }]);
  const plain = await bookLikes('plain', []);
  const lean = await bookLikes('lean', []);
  // alternating rounds, so that the machine's slower moments fall on both; FerretDB's own CPU
  // (from /proc, 10 ms ticks) is what the writes of a busy stack compete for
  const engineCpuMs = () => (cpuMicrosOf(proc?.pid) ?? 0) / 1000;
  const cost = { indexed: { wall: 0, cpu: 0 }, plain: { wall: 0, cpu: 0 }, lean: { wall: 0, cpu: 0 } };
  for (let round = 0, n = 0; round < 10; round++) {
    for (const [books, spent, make] of [[indexed, cost.indexed, bookLike], [plain, cost.plain, bookLike], [lean, cost.lean, withoutTerms]] as const) {
      const cpu = engineCpuMs();
      spent.wall += await time(async () => { for (let i = 0; i < 40; i++, n++) await books.replaceOne({ _id: String(n % 100) }, make(n % 100, n)); });
      spent.cpu += engineCpuMs() - cpu;
    }
  }
  const each = (ms: number) => (ms / 400).toFixed(2);
  rows.push([
    'replaceOne by `_id` of a 2 KB document (a 100-term array): four secondary indexes / none / none, the array emptied; sequential',
    `${each(cost.indexed.wall)} / ${each(cost.plain.wall)} / ${each(cost.lean.wall)} ms each` +
      (proc ? `; FerretDB's CPU ${each(cost.indexed.cpu)} / ${each(cost.plain.cpu)} / ${each(cost.lean.cpu)} ms` : ''),
  ]);

  const probeFeature = async (label: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
      rows.push([label, 'supported']);
    } catch (err) {
      rows.push([label, `not supported: ${(err as Error).message.split('\n')[0].slice(0, 90)}`]);
    }
  };
  await probeFeature('TTL index', () => docs.createIndex({ owner: 1 }, { expireAfterSeconds: 60 }));
  await probeFeature('text index', () => docs.createIndex({ owner: 'text' }));
  await probeFeature('multi-document transaction', async () => {
    const session = client.startSession();
    try {
      await session.withTransaction(async () => docs.insertOne({ _id: 'tx', owner: '', terms: [] }, { session }));
    } finally {
      await session.endSession();
    }
  });
  await probeFeature('update with an aggregation pipeline', () => docs.updateOne({ _id: '1' }, [{ $set: { n: { $size: '$terms' } } }]));
  await probeFeature('$all on an array field', () => docs.find({ terms: { $all: ['t1'] } }).limit(1).toArray());
  await probeFeature('aggregate $unwind/$group', () => docs.aggregate([{ $limit: 10 }, { $unwind: '$terms' }, { $group: { _id: '$terms', n: { $sum: 1 } } }]).toArray());

  await client.close();
  await proc?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });

  process.stdout.write(`\nEngine: ${engine}; Node ${process.version}\n\n| probe | result |\n|---|---|\n`);
  for (const [probe, result] of rows) process.stdout.write(`| ${probe} | ${result} |\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
