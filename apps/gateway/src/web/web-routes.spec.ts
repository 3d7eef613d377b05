import { ApiError, BookMessages } from '@plaza/contracts';
import type { ServiceBus } from '@plaza/platform';
import Fastify, { FastifyInstance } from 'fastify';
import pino from 'pino';
import { ResponseCache } from '../cache/response-cache';
import { registerWebPages, WEB_PAGE_CSP } from './web-routes';

const logger = pino({ level: 'silent' });

const book = {
  id: '42', isbn10: '', isbn13: '', title: '活着', origin_title: '', alt_title: '', subtitle: '', url: '', alt: '', image: '',
  images: { small: '', large: '', medium: '' }, author: ['余华'], translator: [], publisher: '', pubdate: '', tags: [],
  rating: { max: 10, numRaters: 0, average: '0.0', min: 0 }, binding: '', price: '', pages: '', author_intro: '', summary: '', catalog: '',
};

function setUp(): { app: FastifyInstance; calls: string[]; cache: ResponseCache; release: () => void } {
  const calls: string[] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const bus = {
    request: async (message: { subject: string }, payload: { id?: string }) => {
      calls.push(message.subject);
      if (message.subject === BookMessages.getBook.subject) {
        await gate;
        if (payload.id !== '42') throw new ApiError('book_not_found');
        return book;
      }
      if (message.subject === BookMessages.bookReviews.subject) return { start: 0, count: 0, total: 0, reviews: [] };
      // series 8 is known and has no books; any other is unknown
      if (message.subject === BookMessages.seriesBooks.subject) {
        if (payload.id !== '8') throw new ApiError('uri_not_found');
        return { start: 0, count: 0, total: 0, books: [] };
      }
      throw new ApiError('service_unavailable');
    },
  } as unknown as ServiceBus;
  const cache = new ResponseCache({ maxEntries: 100, maxBytes: 1 << 20 }, logger);
  const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  registerWebPages(app, { bus, cache, publicWebUrl: 'http://plaza.test/web', timezone: 'Asia/Shanghai', logger });
  return { app, calls, cache, release };
}

/** Width, height and colour type from a PNG's header, and whether its signature is PNG's. */
const pngHeader = (bytes: Buffer) => ({
  png: bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20),
});

describe('web page routes', () => {
  it('renders a page once for concurrent readers, then answers from the cache with an ETag and 304', async () => {
    const { app, calls, release } = setUp();
    const first = Promise.all([app.inject('/web/book/subject/42/'), app.inject('/web/book/subject/42'), app.inject('/web/book/subject/42/?utm=x')]);
    await new Promise((r) => setTimeout(r, 20));
    release();
    const answers = await first;
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(calls.filter((s) => s === BookMessages.getBook.subject)).toHaveLength(1);
    expect(answers[0].headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answers[0].headers['content-security-policy']).toBe(WEB_PAGE_CSP);
    const again = await app.inject('/web/book/subject/42/');
    expect(again.body).toBe(answers[0].body);
    expect(calls.filter((s) => s === BookMessages.getBook.subject)).toHaveLength(1);
    const notModified = await app.inject({ url: '/web/book/subject/42/', headers: { 'if-none-match': String(again.headers.etag) } });
    expect(notModified.statusCode).toBe(304);
    const head = await app.inject({ method: 'HEAD', url: '/web/book/subject/42/' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('drops a page an invalidation overtook, and what an invalidation names', async () => {
    const { app, calls, cache, release } = setUp();
    const pending = app.inject('/web/book/subject/42/');
    await new Promise((r) => setTimeout(r, 20));
    cache.invalidate({ tags: ['book:42'] });
    release();
    expect((await pending).statusCode).toBe(200);
    await app.inject('/web/book/subject/42/');
    expect(calls.filter((s) => s === BookMessages.getBook.subject)).toHaveLength(2);
    cache.invalidate({ tags: ['book:42'] });
    await app.inject('/web/book/subject/42/');
    expect(calls.filter((s) => s === BookMessages.getBook.subject)).toHaveLength(3);
  });

  it('a series without books is a page (200, kept), an unknown series a 404 page', async () => {
    const { app, release } = setUp();
    release();
    const empty = await app.inject('/web/book/series/8/');
    expect(empty.statusCode).toBe(200);
    expect(empty.headers['cache-control']).toBe('public, max-age=60');
    expect(empty.body).toContain('This series has no books yet.');
    expect((await app.inject('/web/book/series/9/')).statusCode).toBe(404);
  });

  it('answers the picture addresses the services derive with placeholders: PNG, a day in caches, 304; a malformed name is a 404 page', async () => {
    const { app, calls } = setUp();
    const cases: Array<[string, number, number]> = [
      ['/web/movie/img/subject/l/26.jpg', 270, 405],
      ['/web/movie/img/celebrity/s/13.jpg', 64, 96],
      ['/web/movie/img/photo/thumb/27.jpg', 150, 100],
      ['/web/pics/event/60001/hlarge.jpg', 480, 270],
      ['/web/avatars/ann.png', 160, 160],
    ];
    for (const [url, width, height] of cases) {
      const res = await app.inject(url);
      expect({ url, status: res.statusCode, type: res.headers['content-type'], cache: res.headers['cache-control'], ...pngHeader(res.rawPayload) }).toEqual({
        url, status: 200, type: 'image/png', cache: 'public, max-age=86400', png: true, width, height,
      });
      const again = await app.inject({ url, headers: { 'if-none-match': String(res.headers.etag) } });
      expect(again.statusCode).toBe(304);
    }
    expect(calls).toEqual([]);
    for (const url of ['/web/movie/img/subject/l/x.jpg', '/web/movie/img/subject/l/26.png', '/web/movie/img/subject/xl/26.jpg', '/web/avatars/ann.jpg', '/web/pics/event/x/large.jpg']) {
      const res = await app.inject(url);
      expect({ url, status: res.statusCode, type: res.headers['content-type'] }).toEqual({ url, status: 404, type: 'text/html; charset=utf-8' });
    }
  });

  it('answers refusals with pages: 404 for a missing record or address, 503 when a service fails; never cached', async () => {
    const { app, release } = setUp();
    release();
    for (const [url, status] of [['/web/book/subject/7/', 404], ['/web/nothing', 404], ['/web/book/subject/x/', 404], ['/web/event/1/', 503]] as const) {
      const res = await app.inject(url);
      expect({ url, status: res.statusCode }).toEqual({ url, status });
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toContain(`<p class="status">${status}</p>`);
    }
  });
});
