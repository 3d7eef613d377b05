import { tokenFor } from '../support/auth';
import { Users } from '../support/fixtures';
import { get, post } from '../support/http';

/**
 * The web pages of the records' `alt` addresses over HTTP (docs/api/web.md): statuses, headers,
 * escaping, links, OpenGraph and JSON-LD, the cache. What a person sees in a browser is in
 * browser.e2e-spec.ts.
 */

const ldOf = (html: string): Record<string, unknown> => {
  const m = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no JSON-LD');
  return JSON.parse(m[1]) as Record<string, unknown>;
};
const og = (html: string, property: string): string | undefined => new RegExp(`<meta property="${property}" content="([^"]*)">`).exec(html)?.[1];

describe('web pages', () => {
  it("every record's alt answers with its page (no longer a 404)", async () => {
    const token = await tokenFor(Users.carol);
    const note = await post('/v2/notes', { token, form: { title: 'alt', content: 'alt check', privacy: 'public' } });
    const alts = [
      (await get('/v2/book/2100001')).body.alt,
      (await get('/v2/event/60001')).body.alt,
      (await get(`/v2/user/${Users.carol.uid}`, { token })).body.alt,
      note.body.alt,
    ] as string[];
    for (const alt of alts) {
      const page = await fetch(alt);
      expect({ alt, status: page.status, type: page.headers.get('content-type') }).toEqual({ alt, status: 200, type: 'text/html; charset=utf-8' });
    }
  });

  it('a book: 200 HTML in Chinese, its series linked, OpenGraph and a schema.org Book', async () => {
    const res = await get('/web/book/subject/2100003/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('content-security-policy')).not.toContain('script-src');
    expect(res.text).toContain('<html lang="zh-CN">');
    expect(res.text).toContain('<title>三体 - Plaza</title>');
    expect(res.text).toContain('href="/web/book/series/2900001/"');
    expect(res.text).toContain('href="/web/book/subject/2100004/"');
    expect(og(res.text, 'og:type')).toBe('book');
    expect(og(res.text, 'og:url')).toMatch(/\/web\/book\/subject\/2100003\/$/);
    const ld = ldOf(res.text);
    expect(ld).toMatchObject({ '@context': 'https://schema.org', '@type': 'Book', name: '三体', isbn: '9787536692930', author: [{ '@type': 'Person', name: '刘慈欣' }] });
  });

  it('answers a repeat read from the cache with the same bytes and ETag, and 304 for a matching If-None-Match', async () => {
    const first = await get('/web/book/subject/2100004/');
    const second = await get('/web/book/subject/2100004');
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    const etag = second.headers.get('etag');
    expect(etag).toBe(first.headers.get('etag'));
    const again = await get('/web/book/subject/2100004/', { headers: { 'if-none-match': etag ?? '' } });
    expect(again.status).toBe(304);
    expect(again.headers.get('x-request-id')).toBeTruthy();
  });

  it('a book review has a page, linked from its book; its text is escaped as the API escapes', async () => {
    const token = await tokenFor(Users.carol);
    const content = `A review with <script>alert("x")</script> & 'quotes' in it. ${'这本书值得一读。'.repeat(20)}`;
    const created = await post('/v2/book/reviews', { token, form: { book: '2120003', title: 'On <b>bulk</b> volumes', content } });
    expect(created.status).toBe(201);
    const page = await get(`/web/book/review/${created.body.id}/`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('On &lt;b&gt;bulk&lt;/b&gt; volumes');
    expect(page.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;');
    expect(page.text).not.toContain('<script>alert');
    expect(page.text).toContain('href="/web/book/subject/2120003/"');
    expect(page.text).toContain(`href="/web/people/${Users.carol.uid}/"`);
    expect(ldOf(page.text)).toMatchObject({ '@type': 'Review', itemReviewed: { '@type': 'Book' } });
    const book = await get('/web/book/subject/2120003/');
    expect(book.text).toContain(`href="/web/book/review/${created.body.id}/"`);
  });

  it('a movie links its celebrities, a celebrity its works; the mobile address serves the same page', async () => {
    const movie = await get('/web/movie/subject/2600001/');
    expect(movie.status).toBe(200);
    expect(movie.text).toContain('href="/web/movie/celebrity/1300001/"');
    expect(ldOf(movie.text)).toMatchObject({ '@type': 'Movie', name: '春天的故事' });
    expect(og(movie.text, 'og:type')).toBe('video.movie');
    expect(movie.text).toContain('href="/web/movie/review/2800012/"');
    const review = await get('/web/movie/review/2800001/');
    expect(review.status).toBe(200);
    expect(review.text).toContain('href="/web/movie/subject/2600001/"');
    expect(ldOf(review.text)).toMatchObject({ '@type': 'Review', name: '评论 1', itemReviewed: { '@type': 'Movie', name: '春天的故事' } });
    const mobile = await get('/web/m/movie/subject/2600001/');
    expect(mobile.status).toBe(200);
    expect(mobile.text).toContain('春天的故事');
    const celebrity = await get('/web/movie/celebrity/1300001/');
    expect(celebrity.status).toBe(200);
    expect(celebrity.text).toContain('href="/web/movie/subject/2600001/"');
    expect(ldOf(celebrity.text)).toMatchObject({ '@type': 'Person', name: '王一导' });
  });

  it('an event links its city and organiser; the city lists its events; a user has a page', async () => {
    const event = await get('/web/event/60001/');
    expect(event.status).toBe(200);
    expect(event.text).toContain('href="/web/loc/108288/"');
    expect(ldOf(event.text)).toMatchObject({ '@type': 'Event', name: '北京草地音乐节', startDate: '2099-05-01T19:30:00+08:00' });
    const city = await get('/web/loc/108288/');
    expect(city.status).toBe(200);
    expect(city.text).toContain('href="/web/event/60001/"');
    const user = await get(`/web/people/${Users.carol.uid}/`);
    expect(user.status).toBe(200);
    expect(ldOf(user.text)).toMatchObject({ '@type': 'Person', alternateName: Users.carol.uid });
  });

  it('a public note shows its content in the API html_full format; a private one is a 403 page; a missing one 404', async () => {
    const token = await tokenFor(Users.carol);
    const open = await post('/v2/notes', { token, form: { title: 'Open <i>note</i>', content: 'line one <b>bold?</b>\n[url="https://example.com/?a=1&b=2"]a link[/url]', privacy: 'public' } });
    expect(open.status).toBe(201);
    const html = await get(`/v2/note/${open.body.id}`, { token, query: { format: 'html_full' } });
    const page = await get(`/web/note/${open.body.id}/`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(html.body.content);
    expect(page.text).toContain('Open &lt;i&gt;note&lt;/i&gt;');
    expect(page.headers.get('cache-control')).toBe('no-store');

    const closed = await post('/v2/notes', { token, form: { title: 'Closed', content: 'secret words', privacy: 'private' } });
    const refused = await get(`/web/note/${closed.body.id}/`);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(refused.text).toContain('<h1>Not public</h1>');
    expect(refused.text).not.toContain('secret words');

    const missing = await get('/web/note/999999999/');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<h1>Not found</h1>');
  });

  it('a missing record, or any other address under the pages, is a 404 page, never the API JSON or a blank one', async () => {
    for (const path of ['/web/book/subject/1/', '/web/movie/subject/1/', '/web/movie/celebrity/1/', '/web/event/1/', '/web/people/nobody-here/', '/web/book/review/1/', '/web/movie/review/1/', '/web/nothing/here', '/web/book/subject/abc/']) {
      const res = await get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('<title>Not found - Plaza</title>');
    }
  });
});
