import { tokenFor } from '../support/auth';
import { expectError, get, post } from '../support/http';
import { BookUsers } from './book-support';

const { searcher, other } = BookUsers;
const ids = (body: { books: Array<{ id: string }> }) => body.books.map((b) => b.id);

describe('GET /v2/book/search', () => {
  it('needs q or tag: 400/1002 without either, or with blank ones', async () => {
    expectError(await get('/v2/book/search'), 400, 1002, 'GET /v2/book/search');
    expectError(await get('/v2/book/search', { query: { q: '  ', tag: '' } }), 400, 1002);
  });

  describe('Chinese', () => {
    it('finds a word inside a Chinese title', async () => {
      const res = await get('/v2/book/search', { query: { q: '黑暗森林' } });
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual(['2100004']);
    });

    it('finds by author and by a single character', async () => {
      expect(ids((await get('/v2/book/search', { query: { q: '刘慈欣' } })).body).sort()).toEqual(['2100003', '2100004', '2100005']);
      expect(ids((await get('/v2/book/search', { query: { q: '蝶' } })).body).sort()).toEqual(['2110001', '2110002', '2110003']);
    });

    it('matches the characters in sequence, not scattered', async () => {
      // 关于蝴蝶的梦想 has 蝴蝶 and 梦 but not 蝴蝶梦
      expect(ids((await get('/v2/book/search', { query: { q: '蝴蝶梦' } })).body)).not.toContain('2110003');
    });

    it('ranks the exact title first even when a longer title is more popular', async () => {
      const res = await get('/v2/book/search', { query: { q: '蝴蝶梦' } });
      expect(ids(res.body)).toEqual(['2110001', '2110002']);
      expect(res.body.total).toBe(2);
    });

    it('finds a mixed title by its English part and by full-width letters', async () => {
      expect(ids((await get('/v2/book/search', { query: { q: 'orchid' } })).body)).toEqual(['2110010']);
      expect(ids((await get('/v2/book/search', { query: { q: 'ＯＲＣＨＩＤ 兰花' } })).body)).toEqual(['2110010']);
    });
  });

  describe('English', () => {
    it('finds words case-insensitively and ranks the exact title, then popularity', async () => {
      const res = await get('/v2/book/search', { query: { q: 'ZEBRAFISH' } });
      // the exact title first; two titles that contain the word, the more rated first
      expect(ids(res.body)).toEqual(['2110005', '2110006', '2110004']);
    });

    it('needs every word of the query', async () => {
      expect(ids((await get('/v2/book/search', { query: { q: 'zebrafish handbook' } })).body)).toEqual(['2110004']);
      expect(ids((await get('/v2/book/search', { query: { q: 'zebrafish nothingelse' } })).body)).toEqual([]);
    });

    it('finds by ISBN', async () => {
      expect(ids((await get('/v2/book/search', { query: { q: '9787506365437' } })).body)).toEqual(['2100001']);
    });
  });

  describe('user input is never a regular expression or a query operator', () => {
    it('treats q[$ne]= as an unknown parameter (so q is missing), never as an operator', async () => {
      const res = await get('/v2/book/search?q[$ne]=x');
      expectError(res, 400, 1002);
      const tag = await get('/v2/book/search?tag[$ne]=x&q=zebrafish');
      expect(ids(tag.body)).toEqual(['2110005', '2110006', '2110004']);
    });

    it('rejects a repeated q (an array) with 400/1016', async () => {
      expectError(await get('/v2/book/search?q=a&q=b'), 400, 1016);
    });

    it.each([['.*'], ['^'], ['$'], ['(.*)'], ['[a-z]+'], ['\\'], ['{"$gt": ""}']])('matches nothing for the pattern %j', async (q) => {
      const res = await get('/v2/book/search', { query: { q } });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(0);
    });

    it('searches metacharacter-laden text by its words only', async () => {
      expect(ids((await get('/v2/book/search', { query: { q: 'Regex (Meta)' } })).body)).toEqual(['2110009']);
      expect(ids((await get('/v2/book/search', { query: { q: '$ne' } })).body)).toEqual(['2110009']);
      expect(ids((await get('/v2/book/search', { query: { q: 'characters.*' } })).body)).toEqual(['2110009']);
    });

    it('rejects a q longer than 200 characters with 400/1016', async () => {
      expectError(await get('/v2/book/search', { query: { q: 'x'.repeat(201) } }), 400, 1016);
    });
  });

  describe('tag=', () => {
    it('finds books by tag name, the books given the tag most often first', async () => {
      const res = await get('/v2/book/search', { query: { tag: '奇幻寓言' } });
      expect(ids(res.body)).toEqual(['2110008', '2110007']);
    });

    it('compares tag names without regard to case', async () => {
      expect(ids((await get('/v2/book/search', { query: { tag: 'fable-test' } })).body)).toEqual(['2110008']);
      expect(ids((await get('/v2/book/search', { query: { tag: 'fable' } })).body)).toEqual([]);
    });

    it('combines q and tag: both must match', async () => {
      expect(ids((await get('/v2/book/search', { query: { q: '寓言集乙', tag: '奇幻寓言' } })).body)).toEqual(['2110008']);
      expect(ids((await get('/v2/book/search', { query: { q: 'zebrafish', tag: '奇幻寓言' } })).body)).toEqual([]);
    });
  });

  describe('paging', () => {
    it('defaults to 20, cuts count to 100, keeps the true total', async () => {
      expect((await get('/v2/book/search', { query: { q: 'bulkvolume' } })).body).toMatchObject({ start: 0, count: 20, total: 120 });
      const big = await get('/v2/book/search', { query: { q: 'bulkvolume', count: 101 } });
      expect(big.body).toMatchObject({ count: 100, total: 120 });
      expect((await get('/v2/book/search', { query: { q: 'bulkvolume', count: 0 } })).body).toEqual({ start: 0, count: 0, total: 120, books: [] });
      // any non-negative integer, however long: a count is cut, a start past the end gives an empty page
      expect((await get('/v2/book/search', { query: { q: 'bulkvolume', count: '100000000000000000000' } })).body).toMatchObject({ count: 100, total: 120 });
      const far = await get('/v2/book/search', { query: { q: 'bulkvolume', start: '100000000000000000000' } });
      expect(far.status).toBe(200);
      expect(far.body).toMatchObject({ count: 0, total: 120, books: [] });
    });

    it('ranks equally relevant books by popularity, and pages without overlap', async () => {
      const first = await get('/v2/book/search', { query: { q: 'bulkvolume', count: 60 } });
      const second = await get('/v2/book/search', { query: { q: 'bulkvolume', start: 60, count: 60 } });
      const all = [...ids(first.body), ...ids(second.body)];
      expect(new Set(all).size).toBe(120);
      expect(all[0]).toBe('2120120');
    });

    it('rejects an invalid start with 400/1016', async () => {
      expectError(await get('/v2/book/search', { query: { q: 'x', start: 'one' } }), 400, 1016);
    });

    it('applies fields to each book', async () => {
      const res = await get('/v2/book/search', { query: { q: '黑暗森林', fields: 'id,rating' } });
      expect(res.body).toEqual({ start: 0, count: 1, total: 1, books: [{ id: '2100004', rating: { max: 10, numRaters: 200, average: '9.0', min: 0 } }] });
    });
  });

  describe('current_user_collection', () => {
    beforeAll(async () => {
      const token = await tokenFor(searcher);
      const res = await post('/v2/book/2100005/collection', { token, form: { status: 'read', rating: 4 } });
      expect([201, 409]).toContain(res.status);
    });

    it('is on the owner\'s search results and single reads, only for the books in their collection', async () => {
      const token = await tokenFor(searcher);
      const res = await get('/v2/book/search', { token, query: { q: '刘慈欣' } });
      const byId = Object.fromEntries(res.body.books.map((b: { id: string }) => [b.id, b]));
      expect(byId['2100005'].current_user_collection).toMatchObject({
        status: 'read', rating: { max: 5, value: '4', min: 0 }, user_id: searcher.id, book_id: '2100005',
      });
      expect(typeof byId['2100005'].current_user_collection.id).toBe('number');
      expect(byId['2100005'].current_user_collection.updated).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(byId['2100003']).not.toHaveProperty('current_user_collection');
      const single = await get('/v2/book/2100005', { token });
      expect(single.body.current_user_collection.status).toBe('read');
      const byIsbn = await get('/v2/book/isbn/9787536704966', { token });
      expect(byIsbn.body.current_user_collection.status).toBe('read');
    });

    it('is never shown to another user or to an anonymous caller', async () => {
      const res = await get('/v2/book/search', { token: await tokenFor(other), query: { q: '刘慈欣' } });
      for (const book of res.body.books) expect(book).not.toHaveProperty('current_user_collection');
      expect(await get('/v2/book/2100005', { token: await tokenFor(other) }).then((r) => r.body)).not.toHaveProperty('current_user_collection');
      expect((await get('/v2/book/2100005')).body).not.toHaveProperty('current_user_collection');
      const anonymous = await get('/v2/book/search', { query: { q: '刘慈欣' } });
      for (const book of anonymous.body.books) expect(book).not.toHaveProperty('current_user_collection');
    });
  });
});
