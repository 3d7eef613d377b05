import type { Stack } from '@plaza/stack';
import { MongoClient } from 'mongodb';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PASSWORD } from '../support/fixtures';
import { importFile } from '../support/import';
import { passwordGrantRequest, readyStatus, startFaultStack, stopPrivateStack, timed, until } from './fault-support';

/**
 * The local engine stores a book without its search fields and computes them when its search
 * index loads the book; MongoDB stores them (docs/ENGINES.md, "Two branches"). Either way, after
 * the book service restarts every search finds what it found before, by each field `q` matches
 * and by the users' tags.
 */
const BOOK = '2980001';
const OTHER = '2980002';
const SEARCHES: Array<Record<string, string>> = [
  { q: '重启之后' }, // the exact title
  { q: '沈从文' }, // an author
  { q: 'gladys' }, // a translator
  { q: '人民文学' }, // the publisher
  { q: '9787020000001' }, // the ISBN-13
  { q: '之后 沈从文' }, // terms of the title and of an author together
  { tag: '小说' }, // the catalogue's tag
  { tag: '重读' }, // a user's tag
];

describe('book search across a restart of the book service', () => {
  let stack: Stack;
  let token: string;

  beforeAll(async () => {
    stack = await startFaultStack();
    const records = [
      { kind: 'user', id: '29801', uid: 'restart1', name: 'Restart', password: PASSWORD },
      {
        kind: 'book', id: BOOK, title: '重启之后', author: ['沈从文'], translator: ['Gladys Yang'], publisher: '人民文学出版社',
        isbn13: '9787020000001', tags: [{ name: '小说', count: 5, title: '小说' }], rating: { numRaters: 10, average: 8 },
      },
      { kind: 'book', id: OTHER, title: '重启之前', author: ['沈从文'], tags: [{ name: '小说', count: 9, title: '小说' }] },
    ];
    const file = join(mkdtempSync(join(tmpdir(), 'plaza-search-restart-')), 'records.ndjson');
    writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const imported = importFile(file, stack.natsUrl);
    if (imported.status !== 0) throw new Error(`import failed:\n${imported.output}`);
    token = (await timed(stack, 'POST', '/auth2/token', passwordGrantRequest('restart1'))).body.access_token;
  }, 180_000);

  afterAll(() => stopPrivateStack(stack));

  const search = async (query: Record<string, string>) => {
    const r = await timed(stack, 'GET', '/v2/book/search', { query: { ...query, count: '10' } });
    expect(r.status).toBe(200);
    return { query, total: r.body.total as number, ids: (r.body.books as Array<{ id: string }>).map((b) => b.id) };
  };

  it('finds the same books by every field and tag after the restart, and stores the search fields only on MongoDB', async () => {
    // a user's entry writes the book again (its rating and tags)
    const collected = await timed(stack, 'POST', `/v2/book/${BOOK}/collection`, { token, form: { status: 'read', rating: 5, tags: '重读' } });
    expect(collected.status).toBe(201);

    const before = await Promise.all(SEARCHES.map(search));
    for (const found of before) expect({ query: found.query, found: found.ids.includes(BOOK) }).toEqual({ query: found.query, found: true });
    // the exact title first; by tag alone the book given it most often first (9 against 5)
    expect(before[0].ids[0]).toBe(BOOK);
    expect(before[6].ids).toEqual([OTHER, BOOK]);

    const client = await MongoClient.connect(stack.mongoUrl);
    try {
      // the engine the stack found (a mongod on PATH is used instead of FerretDB) decides the branch
      const ferretDb = 'ferretdbVersion' in (await client.db('admin').command({ buildInfo: 1 }));
      const stored = await client.db('book').collection('books').findOne({ _id: BOOK as never });
      expect(stored?.user_rating).toEqual({ num: 1, sum: 10 });
      const searchFields = { search_terms: stored?.search_terms, title_terms: stored?.title_terms, tag_keys: stored?.tag_keys, search_rank: stored?.search_rank };
      if (ferretDb) expect(searchFields).toEqual({ search_terms: [], title_terms: [], tag_keys: [], search_rank: '' });
      else expect(searchFields).toEqual(expect.objectContaining({ search_terms: expect.arrayContaining(['沈', '从', '文', 'gladys', '9787020000001']), tag_keys: expect.arrayContaining(['小说', '重读']) }));
    } finally {
      await client.close();
    }

    await stack.restartApp('book');
    await until('book ready again', async () => (await readyStatus(stack)).status === 200, 60_000);
    expect(await Promise.all(SEARCHES.map(search))).toEqual(before);
    expect((await timed(stack, 'GET', `/v2/book/${BOOK}`)).body.rating.numRaters).toBe(11);
  });
});
