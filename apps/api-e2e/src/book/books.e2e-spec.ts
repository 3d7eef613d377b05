import { Apps } from '../support/fixtures';
import { clientToken, tokenFor } from '../support/auth';
import { expectError, get, post } from '../support/http';
import { stackInfo } from '../support/stack-info';
import { BookUsers, MISSING_BOOK } from './book-support';

const { reader } = BookUsers;

describe('GET /v2/book/:id (docs/api/book.md, "Resources")', () => {
  it('returns an imported book with every field of a Book', async () => {
    const res = await get('/v2/book/2100001');
    expect(res.status).toBe(200);
    const base = stackInfo().baseUrl;
    expect(res.body).toEqual({
      id: '2100001',
      isbn10: '7506365437',
      isbn13: '9787506365437',
      title: '活着',
      origin_title: '',
      alt_title: '',
      subtitle: '',
      url: `${base}/v2/book/2100001`,
      alt: `${base}/web/book/subject/2100001/`,
      image: 'https://img.example.com/s/2100001.jpg',
      images: {
        small: 'https://img.example.com/s/2100001.jpg',
        medium: 'https://img.example.com/m/2100001.jpg',
        large: 'https://img.example.com/l/2100001.jpg',
      },
      author: ['余华'],
      translator: [],
      publisher: '作家出版社',
      pubdate: '2012-8-1',
      rating: { max: 10, numRaters: 1000, average: '9.4', min: 0 },
      tags: [
        { count: 500, name: '小说' },
        { count: 300, name: '余华' },
        { count: 200, name: '中国文学' },
      ],
      binding: '平装',
      price: '20.00元',
      pages: '191',
      author_intro: '余华，1960年出生于浙江杭州。',
      summary: '《活着》讲述了农村人福贵悲惨的人生遭遇。',
      catalog: '第一章\n第二章',
    });
    // no series, no e-book, no current_user_collection for an anonymous caller
    expect(res.body).not.toHaveProperty('series');
    expect(res.body).not.toHaveProperty('ebook_url');
    expect(res.body).not.toHaveProperty('current_user_collection');
  });

  it('keeps addresses given by the import, shows ebook fields and a series, and numbers as text', async () => {
    const res = await get('/v2/book/2100002');
    expect(res.body).toMatchObject({
      url: 'https://api.example.com/v2/book/2100002',
      alt: 'https://www.example.com/book/subject/2100002/',
      ebook_url: 'https://read.example.com/ebook/2100002/',
      ebook_price: '9.99',
      alt_title: '老人与海',
      translator: ['吴劳'],
      rating: { max: 10, numRaters: 20, average: '8.1', min: 0 },
    });
    const series = await get('/v2/book/2100003');
    expect(series.body.series).toEqual({ id: '2900001', title: '三体系列 The Three-Body Trilogy' });
  });

  it('shows at most 50 tags, biggest first', async () => {
    const res = await get('/v2/book/2100006');
    expect(res.body.tags).toHaveLength(50);
    expect(res.body.tags[0]).toEqual({ count: 100, name: 'tag00' });
    expect(res.body.tags[49]).toEqual({ count: 51, name: 'tag49' });
  });

  it('answers 404/6000 for a missing book and 404/1001 for an id that is not digits', async () => {
    expectError(await get(`/v2/book/${MISSING_BOOK}`), 404, 6000, `GET /v2/book/${MISSING_BOOK}`);
    expectError(await get('/v2/book/12ab'), 404, 1001);
  });

  it('applies fields to a single book, and JSONP', async () => {
    const res = await get('/v2/book/2100001', { query: { fields: 'id, title,rating,nonsense' } });
    expect(res.body).toEqual({ id: '2100001', title: '活着', rating: { max: 10, numRaters: 1000, average: '9.4', min: 0 } });
    const jsonp = await get('/v2/book/2100001', { query: { fields: 'id', callback: 'cb_1' } });
    expect(jsonp.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(jsonp.text).toBe('/**/cb_1({"id":"2100001"});');
  });

  // an answer known to come from the service, and the same from the cache, in cached-read-lane.e2e-spec.ts
  it('sends Chinese text as UTF-8, not as \\u escapes (DECISIONS.md)', async () => {
    const res = await get('/v2/book/2100001');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.text).toContain('"title":"活着"');
    expect(res.text).not.toMatch(/\\u[0-9a-fA-F]{4}/);
  });

  it('answers If-None-Match with 304', async () => {
    const first = await get('/v2/book/2100002');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"/);
    expect((await get('/v2/book/2100002', { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('needs book_basic_r in a token, and rejects a bad token even on this public read', async () => {
    const noBookScope = await tokenFor(reader, Apps.premium, 'movie_basic_r');
    expectError(await get('/v2/book/2100001', { token: noBookScope }), 403, 109);
    expectError(await get('/v2/book/2100001', { token: 'not-a-token' }), 401, 103);
    expect((await get('/v2/book/2100001', { token: await clientToken(Apps.premium, 'book_basic_r') })).status).toBe(200);
  });

  it('answers a write method on a read path with 400/1014', async () => {
    expectError(await post('/v2/book/2100001'), 400, 1014);
  });
});

describe('GET /v2/book/isbn/:name', () => {
  it('finds a book by ISBN-13 and by ISBN-10, hyphens allowed', async () => {
    for (const isbn of ['9787506365437', '7506365437', '978-7-5063-6543-7']) {
      const res = await get(`/v2/book/isbn/${isbn}`);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe('2100001');
    }
  });

  it('answers 404/6000 for an unknown ISBN', async () => {
    expectError(await get('/v2/book/isbn/9780000000000'), 404, 6000, 'GET /v2/book/isbn/9780000000000');
    expectError(await get('/v2/book/isbn/not-an-isbn'), 404, 6000);
  });
});

describe('GET /v2/book/:id/tags (top 50)', () => {
  it('lists tags as {count, title} in the envelope', async () => {
    const res = await get('/v2/book/2100001/tags');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      start: 0,
      count: 3,
      total: 3,
      tags: [
        { count: 500, title: '小说' },
        { count: 300, title: '余华' },
        { count: 200, title: '中国文学' },
      ],
    });
  });

  it('pages within the top 50: total is at most 50 and count is cut to 50', async () => {
    const page = await get('/v2/book/2100006/tags', { query: { start: 45, count: 10 } });
    expect(page.body.total).toBe(50);
    expect(page.body.count).toBe(5);
    expect(page.body.tags.map((t: { title: string }) => t.title)).toEqual(['tag45', 'tag46', 'tag47', 'tag48', 'tag49']);
    const all = await get('/v2/book/2100006/tags', { query: { count: 500 } });
    expect(all.body.count).toBe(50);
    expect((await get('/v2/book/2100006/tags')).body.count).toBe(20);
  });

  it('answers 404/6000 for a missing book', async () => {
    expectError(await get(`/v2/book/${MISSING_BOOK}/tags`), 404, 6000);
  });
});

describe('GET /v2/book/series/:id/books', () => {
  it('lists the books of a series in id order', async () => {
    const res = await get('/v2/book/series/2900001/books');
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expect(res.body.books.map((b: { id: string }) => b.id)).toEqual(['2100003', '2100004', '2100005']);
    expect(res.body.books[1].series).toEqual({ id: '2900001', title: '三体系列 The Three-Body Trilogy' });
  });

  it('lists an empty series as an empty page, and answers 404/1001 for an unknown one', async () => {
    expect((await get('/v2/book/series/2900003/books')).body).toEqual({ start: 0, count: 0, total: 0, books: [] });
    expectError(await get('/v2/book/series/2999999/books'), 404, 1001);
  });

  describe('paging, fields and JSONP on a book list', () => {
    const path = '/v2/book/series/2900002/books';

    it('defaults to 20 and cuts a count over the maximum to 100', async () => {
      const first = await get(path);
      expect(first.body).toMatchObject({ start: 0, count: 20, total: 120 });
      const big = await get(path, { query: { count: 1000 } });
      expect(big.body.count).toBe(100);
      expect(big.body.books).toHaveLength(100);
      expect(big.body.total).toBe(120);
    });

    it('pages with start', async () => {
      const res = await get(path, { query: { start: 110, count: 20 } });
      expect(res.body).toMatchObject({ start: 110, count: 10, total: 120 });
      expect(res.body.books[0].id).toBe('2120111');
      const past = await get(path, { query: { start: 500 } });
      expect(past.body).toMatchObject({ start: 500, count: 0, total: 120, books: [] });
    });

    it('returns an empty page with the true total for count=0', async () => {
      expect((await get(path, { query: { count: 0 } })).body).toEqual({ start: 0, count: 0, total: 120, books: [] });
    });

    it.each([['abc'], ['-1'], ['1.5']])('rejects start=%s with 400/1016', async (start) => {
      expectError(await get(path, { query: { start } }), 400, 1016, `GET ${path}`);
    });

    it('rejects a negative count with 400/1016', async () => {
      expectError(await get(path, { query: { count: -5 } }), 400, 1016);
    });

    it('filters each element with fields and keeps the envelope', async () => {
      const res = await get(path, { query: { count: 2, fields: 'id,title' } });
      expect(res.body).toEqual({
        start: 0,
        count: 2,
        total: 120,
        books: [
          { id: '2120001', title: '批量测试 Bulkvolume 1' },
          { id: '2120002', title: '批量测试 Bulkvolume 2' },
        ],
      });
    });

    it('wraps a list in JSONP, and rejects a bad callback with 400/1015', async () => {
      const res = await get(path, { query: { count: 1, fields: 'id', callback: 'show' } });
      expect(res.text).toBe('/**/show({"start":0,"count":1,"total":120,"books":[{"id":"2120001"}]});');
      expectError(await get(path, { query: { callback: 'bad-name' } }), 400, 1015);
    });
  });
});
