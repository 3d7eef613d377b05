import type { Stack } from '@plaza/stack';
import { MongoClient } from 'mongodb';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PASSWORD } from '../support/fixtures';
import { importFile } from '../support/import';
import { passwordGrantRequest, readyStatus, startFaultStack, stopPrivateStack, timed, until } from './fault-support';

/**
 * The local engine stores a book without its search fields and its users' rating and tags: it
 * computes the fields when its search index loads the book, and counts the rating and tags from
 * the collection entries and reviews at start; MongoDB stores them (docs/ENGINES.md, "What the
 * local branch does not store"). Either way, after the book service restarts every search finds
 * what it found before, by each field `q` matches and by the users' tags, and the book shows the
 * same rating and tags.
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

  it('finds the same books by every field and tag, and shows the same rating and tags, after the restart; stores the derived fields only on MongoDB', async () => {
    // a user's entry and review move the book's rating and tags
    const collected = await timed(stack, 'POST', `/v2/book/${BOOK}/collection`, { token, form: { status: 'read', rating: 5, tags: '重读' } });
    expect(collected.status).toBe(201);
    const reviewed = await timed(stack, 'POST', '/v2/book/reviews', { token, form: { book: BOOK, title: '重读', content: '书'.repeat(151), rating: 2 } });
    expect(reviewed.status).toBe(201);
    const shown = async () => {
      const { rating, tags } = (await timed(stack, 'GET', `/v2/book/${BOOK}`)).body as { rating: unknown; tags: unknown };
      return { rating, tags };
    };
    const bookBefore = await shown();
    expect(bookBefore).toMatchObject({ rating: { numRaters: 12 }, tags: expect.arrayContaining([expect.objectContaining({ name: '重读', count: 1 })]) });

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
      const searchFields = { search_terms: stored?.search_terms, title_terms: stored?.title_terms, tag_keys: stored?.tag_keys, search_rank: stored?.search_rank };
      if (ferretDb) {
        expect(searchFields).toEqual({ search_terms: [], title_terms: [], tag_keys: [], search_rank: '' });
        expect({ user_rating: stored?.user_rating, user_tags: stored?.user_tags }).toEqual({ user_rating: { num: 0, sum: 0 }, user_tags: {} });
      } else {
        expect(searchFields).toEqual(expect.objectContaining({ search_terms: expect.arrayContaining(['沈', '从', '文', 'gladys', '9787020000001']), tag_keys: expect.arrayContaining(['小说', '重读']) }));
        expect(stored?.user_rating).toEqual({ num: 2, sum: 14 });
      }
    } finally {
      await client.close();
    }

    await stack.restartApp('book');
    await until('book ready again', async () => (await readyStatus(stack)).status === 200, 60_000);
    expect(await Promise.all(SEARCHES.map(search))).toEqual(before);
    expect(await shown()).toEqual(bookBefore);
  });
});
