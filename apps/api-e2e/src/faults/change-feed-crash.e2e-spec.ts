import type { Stack } from '@plaza/stack';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readyStatus, report, startFaultStack, stopPrivateStack, timed, until } from './fault-support';

/**
 * The change feed across a crash (docs/RELIABILITY.md, "Change feed"): the book service is
 * killed with SIGKILL while an import of 400 books is under way, restarted, and the import run
 * again, as an operator would. Every book is then in the feed, its first entry a `create`, none
 * listed twice for the same change (a published change is stored once: its outbox id is its
 * `Nats-Msg-Id`); only a book whose write the kill interrupted may show one `update` more, and a
 * third run of the same file adds nothing.
 */

const IMPORTER = join(__dirname, '..', '..', '..', 'importer', 'dist', 'main.js');
const BOOKS = 400;
const bookId = (i: number) => String(8700001 + i);

function startImport(stack: Stack, records: object[]): { stop(): void; done: Promise<{ status: number | null; output: string }> } {
  const file = join(mkdtempSync(join(tmpdir(), 'plaza-feed-crash-')), 'records.ndjson');
  writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const child = spawn(process.execPath, [IMPORTER, file], { env: { ...process.env, NATS_URL: stack.natsUrl } });
  const done = new Promise<{ status: number | null; output: string }>((resolve) => {
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) => resolve({ status, output }));
  });
  return { stop: () => child.kill('SIGINT'), done };
}

const importAsync = (stack: Stack, records: object[]) => startImport(stack, records).done;

interface Change { kind: string; id: string; op: string }

describe('change feed: the book service killed during an import', () => {
  let stack: Stack;
  let token: string;
  const measured: Record<string, unknown> = {};

  beforeAll(async () => {
    stack = await startFaultStack();
    const app = { kind: 'app', client_id: 'feed-crash', client_secret: 'feed-crash-secret', name: 'Feed', tier: 'basic', scopes: ['catalogue_changes_r', 'book_basic_r'], redirect_uris: ['http://127.0.0.1:9/cb'], trusted: true };
    expect((await importAsync(stack, [app])).status).toBe(0);
    token = (await timed(stack, 'POST', '/auth2/token', { form: { grant_type: 'client_credentials', client_id: 'feed-crash', client_secret: 'feed-crash-secret' } })).body.access_token;
  }, 180_000);

  afterAll(async () => {
    await stopPrivateStack(stack);
    report('change feed crash', measured);
  });

  async function feed(kinds = 'book'): Promise<Change[]> {
    const changes: Change[] = [];
    let since: string | undefined;
    for (;;) {
      const res = await timed(stack, 'GET', '/v2/changes', { token, query: { since, kinds, count: 1000 } });
      expect(res.status).toBe(200);
      changes.push(...(res.body.changes as Change[]));
      if (res.body.next === since) return changes;
      since = res.body.next;
    }
  }

  it('lists every book once (a create first), at most one update more for the books in flight at the kill, and nothing for a repeat', async () => {
    const books = Array.from({ length: BOOKS }, (_, i) => ({ kind: 'book', id: bookId(i), title: `崩溃变更 ${i}`, author: ['测试'] }));
    const run = startImport(stack, books);
    // kill once some books are in the feed, while the import goes on
    await until('a few books in the feed', async () => (await feed()).length >= 40, 60_000);
    const inFeedAtKill = (await feed()).length;
    await stack.app('book').kill();
    await stack.restartApp('book');
    measured.recoveredMs = await until('book ready again', async () => (await readyStatus(stack)).status === 200, 60_000);
    // the batch the dead process had taken never gets an answer (the importer would wait out its
    // two-minute batch timeout): the operator stops the import and runs it again
    run.stop();
    const first = await run.done;
    const second = await importAsync(stack, books);
    expect(second.status).toBe(0);

    const changes = await feed();
    const byId = new Map<string, string[]>();
    for (const c of changes) byId.set(c.id, [...(byId.get(c.id) ?? []), c.op]);
    const extra = [...byId.values()].filter((ops) => ops.length > 1);
    measured.firstRun = { status: first.status, inFeedAtKill };
    measured.changes = changes.length;
    measured.booksWithAnUpdate = extra.length;
    expect(byId.size).toBe(BOOKS);
    for (const [id, ops] of byId) {
      expect({ id, first: ops[0] }).toEqual({ id, first: 'create' });
      expect({ id, ops: ops.filter((op) => op === 'create').length }).toEqual({ id, ops: 1 });
      expect(ops.length).toBeLessThanOrEqual(2);
    }
    // the import writes up to 8 records of a batch at a time: only those can be caught mid-write
    expect(extra.length).toBeLessThanOrEqual(16);

    const third = await importAsync(stack, books);
    expect(third.status).toBe(0);
    expect((await feed()).length).toBe(changes.length);
  }, 300_000);
});
