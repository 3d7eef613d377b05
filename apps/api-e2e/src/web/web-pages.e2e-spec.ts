import { tokenFor } from '../support/auth';
import { Apps, Users } from '../support/fixtures';
import { get, post } from '../support/http';
import { stackInfo } from '../support/stack-info';

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
/** The movie reads that carry photos and reviews are the advance tier's. */
const ADVANCE = { query: { apikey: Apps.advance.clientId } };
/** Width and height from a PNG's header. */
const pngSize = (bytes: Buffer) => ({ png: bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

describe('web pages', () => {
  it("every address under PUBLIC_WEB_URL an API answer carries opens its page: each record's alt (photos' below), the mobile ones, albums", async () => {
    const token = await tokenFor(Users.carol);
    const note = await post('/v2/notes', { token, form: { title: 'alt', content: 'alt check', privacy: 'public' } });
    const review = await post('/v2/book/reviews', { token, form: { book: '2120004', title: 'alt check', content: '一篇检查地址的书评。'.repeat(20) } });
    expect([note.status, review.status]).toEqual([201, 201]);
    const movie = (await get('/v2/movie/subject/2600002')).body;
    const celebrity = (await get('/v2/movie/celebrity/1300001')).body;
    const event = (await get('/v2/event/60001')).body;
    const [moviePhoto] = (await get('/v2/movie/subject/2600001/photos', ADVANCE)).body.photos;
    const [celebrityPhoto] = (await get('/v2/movie/celebrity/1300001/photos', ADVANCE)).body.photos;
    const [movieReview] = (await get('/v2/movie/subject/2600001/reviews', ADVANCE)).body.reviews;
    const addresses = {
      book: (await get('/v2/book/2100001')).body.alt,
      bookReview: review.body.alt,
      movie: movie.alt,
      movieMobile: movie.mobile_url,
      celebrity: celebrity.alt,
      celebrityMobile: celebrity.mobile_url,
      movieReview: movieReview.alt,
      movieAlbum: moviePhoto.album_url,
      celebrityAlbum: celebrityPhoto.album_url,
      event: event.alt,
      eventMobile: event.adapt_url,
      user: (await get(`/v2/user/${Users.carol.uid}`, { token })).body.alt,
      note: note.body.alt,
    } as Record<string, string>;
    for (const [kind, address] of Object.entries(addresses)) {
      // addresses a catalogue gave its records are on its own host; these fixtures' are all derived
      expect({ kind, address }).toEqual({ kind, address: expect.stringMatching(new RegExp(`^${stackInfo().baseUrl}/web/`)) });
      const page = await fetch(address);
      expect({ kind, address, status: page.status, type: page.headers.get('content-type') }).toEqual({ kind, address, status: 200, type: 'text/html; charset=utf-8' });
    }
  });

  it("a photo's alt opens its page (movie.v1.photo.get); a missing photo is a 404 page", async () => {
    const [moviePhoto] = (await get('/v2/movie/subject/2600001/photos', ADVANCE)).body.photos;
    const [celebrityPhoto] = (await get('/v2/movie/celebrity/1300001/photos', ADVANCE)).body.photos;
    for (const address of [moviePhoto.alt, celebrityPhoto.alt] as string[]) {
      expect(address).toMatch(new RegExp(`^${stackInfo().baseUrl}/web/movie/photos/photo/\\d+/$`));
      const page = await fetch(address);
      expect({ address, status: page.status, type: page.headers.get('content-type') }).toEqual({ address, status: 200, type: 'text/html; charset=utf-8' });
    }
    const missing = await get('/web/movie/photos/photo/1/');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<title>Not found - Plaza</title>');
  });

  it('a movie photo has a page: the picture, its movie and album, its author, the photos before and after it', async () => {
    const res = await get('/web/movie/photos/photo/2700002/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1>剧照 2</h1>');
    expect(res.text).toContain('<img src="http://img.example.test/photo/image/2.jpg" alt="剧照 2">');
    expect(res.text).toContain('href="/web/movie/subject/2600001/"');
    expect(res.text).toContain('href="/web/movie/subject/2600001/photos/"');
    expect(res.text).toContain('href="/web/movie/photos/photo/2700001/"');
    expect(res.text).toContain('href="/web/movie/photos/photo/2700003/"');
    expect(res.text).toContain('href="/web/people/movie_critic/"');
    expect(og(res.text, 'og:image')).toBe('http://img.example.test/photo/image/2.jpg');
    expect(ldOf(res.text)).toMatchObject({
      '@type': 'ImageObject', name: '剧照 2', contentUrl: 'http://img.example.test/photo/image/2.jpg', caption: '剧照 2',
      about: { '@type': 'Movie', name: '春天的故事' }, isPartOf: { '@type': 'ImageGallery' },
    });
    // a photo loaded without addresses: its picture is the gateway's, its title its album's and place
    const derived = await get('/web/movie/photos/photo/2700001/');
    expect(derived.status).toBe(200);
    const picture = `${stackInfo().baseUrl}/web/movie/img/photo/image/2700001.jpg`;
    expect(derived.text).toContain(`<img src="${picture}"`);
    expect(derived.text).not.toContain('上一张');
    expect((await fetch(picture)).headers.get('content-type')).toBe('image/png');
  });

  it("a celebrity's photo links its celebrity and album; the albums list their photos, linked to the photos' pages", async () => {
    const photo = await get('/web/movie/photos/photo/2720001/');
    expect(photo.status).toBe(200);
    expect(photo.text).toContain('<h1>王导 1</h1>');
    expect(photo.text).toContain('href="/web/movie/celebrity/1300001/"');
    expect(photo.text).toContain('href="/web/movie/celebrity/1300001/photos/"');
    expect(ldOf(photo.text)).toMatchObject({ '@type': 'ImageObject', about: { '@type': 'Person', name: '王一导' } });

    const album = await get('/web/movie/celebrity/1300001/photos/');
    expect(album.status).toBe(200);
    expect(album.text).toContain('<h1>王一导的照片</h1>');
    for (let n = 1; n <= 12; n++) expect(album.text).toContain(`href="/web/movie/photos/photo/${2720000 + n}/"`);
    expect(ldOf(album.text)).toMatchObject({ '@type': 'ImageGallery', about: { '@type': 'Person', name: '王一导' } });
    const movieAlbum = await get('/web/movie/subject/2600001/photos/');
    expect(movieAlbum.status).toBe(200);
    expect(movieAlbum.text).toContain('href="/web/movie/photos/photo/2700012/"');
    // a movie without photos has an album page that says so; the movie's page links its first photos and the album
    const empty = await get('/web/movie/subject/2600002/photos/');
    expect(empty.status).toBe(200);
    expect(empty.text).toContain('还没有照片。');
    const movie = await get('/web/movie/subject/2600001/');
    expect(movie.text).toContain('href="/web/movie/photos/photo/2700001/"');
    expect(movie.text).toContain('href="/web/movie/subject/2600001/photos/"');
  });

  it('a series without books has its page, which says so; an unknown series is a 404 page', async () => {
    const res = await get('/web/book/series/2900003/');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.text).toContain('<h1>Series 2900003</h1>');
    expect(res.text).toContain('This series has no books yet.');
    expect(ldOf(res.text)).toMatchObject({ '@type': 'BookSeries', hasPart: [] });
    expect((await get('/web/book/series/2999999/')).status).toBe(404);
  });

  it('the picture addresses the services derive under PUBLIC_WEB_URL answer pictures (placeholders), cached a day, 304 when unchanged', async () => {
    const user = (await get(`/v2/user/${Users.carol.uid}`, { token: await tokenFor(Users.carol) })).body;
    const movie = (await get('/v2/movie/subject/2600002')).body;
    const [photo] = (await get('/v2/movie/subject/2600001/photos', ADVANCE)).body.photos;
    const base = `${stackInfo().baseUrl}/web`;
    const pictures: Array<[string, number, number]> = [
      [user.avatar, 160, 160],
      [movie.images.small, 64, 96],
      [movie.images.medium, 128, 192],
      [movie.images.large, 270, 405],
      [`${base}/movie/img/celebrity/l/1300001.jpg`, 270, 405],
      [photo.icon, 48, 48],
      [photo.thumb, 150, 100],
      [photo.cover, 300, 200],
      [photo.image, 600, 400],
      [`${base}/pics/event/60001/large.jpg`, 300, 450],
      [`${base}/pics/event/60001/hlarge.jpg`, 480, 270],
      [`${base}/pics/event/60001/lmobile.jpg`, 240, 360],
    ];
    for (const [address, width, height] of pictures) {
      expect(address.startsWith(`${base}/`)).toBe(true);
      const res = await fetch(address);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect({ address, status: res.status, type: res.headers.get('content-type'), cache: res.headers.get('cache-control'), ...pngSize(bytes) }).toEqual({
        address, status: 200, type: 'image/png', cache: 'public, max-age=86400', png: true, width, height,
      });
      const again = await fetch(address, { headers: { 'if-none-match': res.headers.get('etag') ?? '' } });
      expect(again.status).toBe(304);
    }
    for (const path of ['/web/movie/img/subject/l/abc.jpg', '/web/movie/img/subject/x/1.jpg', '/web/avatars/carol.gif', '/web/pics/event/abc/large.jpg']) {
      const res = await get(path);
      expect({ path, status: res.status, type: res.headers.get('content-type') }).toEqual({ path, status: 404, type: 'text/html; charset=utf-8' });
    }
  });

  it('every picture a page shows on the gateway answers a picture', async () => {
    const base = stackInfo().baseUrl;
    const pages = ['/web/movie/subject/2600001/', '/web/movie/subject/2600002/', '/web/movie/subject/2600001/photos/', '/web/movie/celebrity/1300001/photos/', `/web/people/${Users.carol.uid}/`];
    const checked = new Set<string>();
    for (const path of pages) {
      const page = await get(path);
      expect({ path, status: page.status }).toEqual({ path, status: 200 });
      const sources = [...page.text.matchAll(/<img [^>]*src="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
      for (const src of sources.filter((s) => s.startsWith(`${base}/`) && !checked.has(s))) {
        checked.add(src);
        const res = await fetch(src);
        expect({ path, src, status: res.status, type: res.headers.get('content-type') }).toEqual({ path, src, status: 200, type: expect.stringMatching(/^image\//) });
      }
    }
    expect(checked.size).toBeGreaterThanOrEqual(4);
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
    const paths = [
      '/web/book/subject/1/', '/web/movie/subject/1/', '/web/movie/celebrity/1/', '/web/event/1/', '/web/people/nobody-here/', '/web/book/review/1/', '/web/movie/review/1/',
      '/web/movie/subject/1/photos/', '/web/movie/celebrity/1/photos/', '/web/book/series/1/', '/web/nothing/here', '/web/book/subject/abc/',
    ];
    for (const path of paths) {
      const res = await get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('<title>Not found - Plaza</title>');
    }
  });
});
