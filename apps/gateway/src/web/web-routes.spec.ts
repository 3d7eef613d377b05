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
      throw new ApiError('service_unavailable');
    },
  } as unknown as ServiceBus;
  const cache = new ResponseCache({ maxEntries: 100, maxBytes: 1 << 20 }, logger);
  const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  registerWebPages(app, { bus, cache, publicWebUrl: 'http://plaza.test/web', timezone: 'Asia/Shanghai', logger });
  return { app, calls, cache, release };
}

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
