import type { Stack } from '@plaza/stack';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runImporter } from '../support/global-setup';
import { passwordGrantRequest, readyStatus, report, startFaultStack, stopPrivateStack, timed, until } from './fault-support';

/** The local engine's lease (libs/service-kit/src/lease/service-lease.ts): its TTL plus a renewal, and a start, on a loaded machine. */
const REFUSED_WITHIN_MS = 10_000 + 2_500 + 15_000;

describe('a second instance of a service on the local engine', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startFaultStack();
    const file = join(mkdtempSync(join(tmpdir(), 'plaza-lease-')), 'book.ndjson');
    writeFileSync(file, `${JSON.stringify({ kind: 'book', id: '8100001', title: '租约之书', author: ['守门人'], rating: { numRaters: 3, average: '8.0' } })}\n`);
    runImporter(stack, file);
  }, 120_000);
  afterAll(() => stopPrivateStack(stack));

  it('refuses to start with a clear message, while the first keeps serving reads and writes', async () => {
    const started = Date.now();
    const second = await stack.addServiceInstance('book');
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([second.exited(), new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still running'), REFUSED_WITHIN_MS)))]);
    clearTimeout(timer);
    const refusedMs = Date.now() - started;
    expect(code).toBe(1);
    expect(second.tail(60)).toContain('another instance of book is running against this local-engine database');
    expect(second.tail(60)).toContain('one instance per service');

    // the first instance never stopped serving: a read, a search, and a counted write
    expect((await readyStatus(stack)).checks.book).toBe('up');
    expect((await timed(stack, 'GET', '/v2/book/8100001')).status).toBe(200);
    expect((await timed(stack, 'GET', '/v2/book/search', { query: { q: '租约' } })).body.total).toBe(1);
    const token = (await timed(stack, 'POST', '/auth2/token', passwordGrantRequest('alice'))).body.access_token as string;
    const write = await timed(stack, 'POST', '/v2/book/8100001/collection', { token, form: { status: 'read', rating: 5 } });
    expect(write.status).toBe(201);
    expect((await timed(stack, 'GET', '/v2/book/8100001')).body.rating.numRaters).toBe(4);
    report('second book instance on the local engine', { exitCode: code, refusedMs });
  });

  it('is taken over at once by a restart after a crash (the holder is gone)', async () => {
    await stack.app('book').kill();
    const started = Date.now();
    await stack.restartApp('book');
    const readyMs = await until('book back', async () => (await readyStatus(stack)).checks.book === 'up');
    // sooner than the lease's TTL (10 s) would let it expire: the dead holder's lease is replaced at start
    expect(Date.now() - started).toBeLessThan(9_000);
    expect((await timed(stack, 'GET', '/v2/book/8100001')).status).toBe(200);
    report('book restarted after a crash', { readyMs });
  });
});
