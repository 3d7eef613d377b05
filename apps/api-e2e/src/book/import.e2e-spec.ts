import { tokenFor } from '../support/auth';
import { get, post } from '../support/http';
import { importRecords } from '../support/import';
import { BookUsers } from './book-support';

const book = (overrides: object = {}) => ({
  kind: 'book',
  id: '2500001',
  isbn13: '9782500001001',
  title: '导入测试 Import Test',
  author: ['测试作者'],
  pages: 320,
  rating: { max: 10, numRaters: 10, average: '7.0', min: 0 },
  tags: [{ count: 5, name: '导入' }],
  ...overrides,
});

describe('import of book and series records (docs/api/import.md)', () => {
  it('loads a book, and a second run of the same file changes nothing', async () => {
    expect(importRecords([{ kind: 'series', id: '2590001', title: '导入丛书' }, book({ series: { id: '2590001' } })]).status).toBe(0);
    const first = await get('/v2/book/2500001');
    expect(first.body).toMatchObject({ title: '导入测试 Import Test', pages: '320', series: { id: '2590001', title: '导入丛书' } });
    expect(importRecords([{ kind: 'series', id: '2590001', title: '导入丛书' }, book({ series: { id: '2590001' } })]).status).toBe(0);
    expect((await get('/v2/book/2500001')).body).toEqual(first.body);
    expect((await get('/v2/book/search', { query: { q: '导入测试' } })).body.books.map((b: { id: string }) => b.id)).toEqual(['2500001']);
  });

  it('keeps users\' ratings and tags on top of a re-imported catalogue rating, and drops stale cached answers', async () => {
    const token = await tokenFor(BookUsers.other);
    expect((await post('/v2/book/2500001/collection', { token, form: { status: 'read', rating: 5, tags: '导入 新标签' } })).status).toBe(201);
    // (10 × 7.0 + 10) / 11
    expect((await get('/v2/book/2500001')).body.rating).toEqual({ max: 10, numRaters: 11, average: '7.3', min: 0 });

    expect(importRecords([book({ title: '导入测试 改名', rating: { numRaters: 20, average: '8.0' }, isbn13: '9782500001002' })]).status).toBe(0);
    const after = (await get('/v2/book/2500001')).body;
    expect(after.title).toBe('导入测试 改名');
    // (20 × 8.0 + 10) / 21
    expect(after.rating).toEqual({ max: 10, numRaters: 21, average: '8.1', min: 0 });
    expect(after.tags).toEqual([{ count: 6, name: '导入' }, { count: 1, name: '新标签' }]);
    expect(after).not.toHaveProperty('series');
    expect((await get('/v2/book/isbn/9782500001002')).body.id).toBe('2500001');
    expect((await get('/v2/book/isbn/9782500001001')).status).toBe(404);
    expect((await get('/v2/book/search', { query: { tag: '新标签' } })).body.books.map((b: { id: string }) => b.id)).toEqual(['2500001']);
  });

  it('renames a series in its books when the series is imported with a new title', async () => {
    expect(importRecords([{ kind: 'series', id: '2590002', title: '旧名' }, book({ id: '2500002', isbn13: '', series: { id: '2590002' } })]).status).toBe(0);
    expect(importRecords([{ kind: 'series', id: '2590002', title: '新名' }]).status).toBe(0);
    expect((await get('/v2/book/2500002')).body.series).toEqual({ id: '2590002', title: '新名' });
  });

  it('reports a bad line with its number and still loads the others', () => {
    const result = importRecords([
      book({ id: '2500003', isbn13: '' }),
      book({ id: 'not-digits' }),
      { kind: 'book', id: '2500004' },
      book({ id: '2500005', isbn13: '', rating: { numRaters: 3, average: 'great' } }),
      { kind: 'series', id: '2590003' },
    ]);
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/line 2/);
    expect(result.output).toMatch(/line 3/);
    expect(result.output).toMatch(/line 4/);
    expect(result.output).toMatch(/line 5/);
    // a count per kind, 0 for a kind whose every line failed
    expect(result.output).toMatch(/^book\t1$/m);
    expect(result.output).toMatch(/^series\t0$/m);
  });

  it('reports a kind that names a built-in property of objects as unknown, and loads the rest', async () => {
    const result = importRecords([{ kind: 'constructor', id: '1' }, { kind: '__proto__', id: '2' }, { kind: 'toString' }, book({ id: '2500006', isbn13: '' })]);
    expect(result.status).toBe(1);
    expect(result.output).toMatch(/line 1: unknown kind "constructor"/);
    expect(result.output).toMatch(/line 2: unknown kind "__proto__"/);
    expect(result.output).toMatch(/line 3: unknown kind "toString"/);
    expect(result.output).toMatch(/^book\t1$/m);
    expect((await get('/v2/book/2500006')).status).toBe(200);
  });

  it('loaded the good line of that file', async () => {
    expect((await get('/v2/book/2500003')).status).toBe(200);
    expect((await get('/v2/book/2500004')).status).toBe(404);
  });
});
