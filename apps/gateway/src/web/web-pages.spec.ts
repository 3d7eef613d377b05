import { ApiError, Book, EventView, MoviePhoto, Note, Review, SimpleSubject } from '@plaza/contracts';
import { jsonLd, languageOf } from './web-html';
import { albumPage, bookPage, bookReviewPage, errorPage, eventPage, isoTime, notePage, photoPage, seriesPage } from './web-pages';
import { pageKeyOf, pageStatusOf, webSiteOf, zoneOffset } from './web-routes';

const site = webSiteOf('https://plaza.example.org/web/');

const book = (over: Partial<Book> = {}): Book => ({
  id: '42', isbn10: '', isbn13: '9787536692930', title: '三体', origin_title: '', alt_title: '', subtitle: '', url: '', alt: '', image: '',
  images: { small: '', large: '', medium: '' }, author: ['刘慈欣'], translator: [], publisher: '重庆出版社', pubdate: '2008-1', tags: [],
  rating: { max: 10, numRaters: 3, average: '9.0', min: 0 }, binding: '', price: '', pages: '302', author_intro: '', summary: '', catalog: '', ...over,
});

const user = { id: '7', uid: 'ann', name: 'Ann', signature: '', alt: '', avatar: '' };

const images = (id: string) => ({ small: `https://img.example.org/s/${id}.jpg`, large: `https://img.example.org/l/${id}.jpg`, medium: '' });
const subject: SimpleSubject = { id: '26', title: '春天的故事', original_title: '', alt: '', images: images('26'), rating: { min: 0, max: 10, average: 0, stars: 0 }, year: '', subtype: 'movie' };
const photo = (over: Partial<MoviePhoto> = {}): MoviePhoto => ({
  id: '27', subject_id: '26', alt: '', icon: '', image: 'https://img.example.org/photo/27.jpg', thumb: 'https://img.example.org/thumb/27.jpg', cover: '', created_at: '2021-01-01 10:00:00',
  desc: '剧照', author: user, album_id: '', album_title: '春天的故事的剧照', album_url: '', next_photo: '28', prev_photo: '', position: 1, comments_count: 0, photos_count: 2, ...over,
});
const ldOf = (html: string) => JSON.parse(/application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '');

describe('web pages', () => {
  it('takes its addresses from PUBLIC_WEB_URL: the absolute form for canonical links, the path for routes', () => {
    expect(site).toEqual({ web: 'https://plaza.example.org/web', base: '/web' });
    expect(webSiteOf('http://127.0.0.1:8080')).toEqual({ web: 'http://127.0.0.1:8080', base: '' });
  });

  it('reads the language from the record: Chinese when any of it is Han', () => {
    expect(languageOf('三体')).toBe('zh-CN');
    expect(languageOf('The Three-Body Problem', undefined)).toBe('en');
    expect(languageOf('A', '日记')).toBe('zh-CN');
  });

  it('escapes every text as the API html formats do (escape-html: & < > " \')', () => {
    const html = bookPage(site, book({ title: `<script>alert("x")</script> & 'q'`, summary: '<img src=x onerror=alert(1)>' }), undefined, undefined);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('keeps JSON-LD inside its element whatever the record says', () => {
    const html = bookPage(site, book({ title: '</script><script>alert(1)</script>' }), undefined, undefined);
    const blocks = html.match(/<script[^>]*>/g);
    expect(blocks).toEqual(['<script type="application/ld+json">']);
    const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '');
    expect(ld.name).toBe('</script><script>alert(1)</script>');
    expect(jsonLd({ a: '<>&\u2028' })).toBe('{"a":"\\u003c\\u003e\\u0026\\u2028"}');
  });

  it('a book: lang, title, OpenGraph, canonical address, schema.org Book, links to its series, reviews and the other books of the series', () => {
    const reviews = { start: 0, count: 1, total: 3, reviews: [{ id: 9, title: '好书', alt: '', author: user, book: book(), votes: 0, useless: 0, comments: 0, summary: '读完了', published: '2024-01-01 10:00:00', updated: '' } as Review] };
    const series = { start: 0, count: 2, total: 2, books: [book(), book({ id: '43', title: '三体II' })] };
    const html = bookPage(site, book({ series: { id: '5', title: '三体系列' } }), reviews, series);
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain('<title>三体 - Plaza</title>');
    expect(html).toContain('<link rel="canonical" href="https://plaza.example.org/web/book/subject/42/">');
    expect(html).toContain('<meta property="og:type" content="book">');
    expect(html).toContain('href="/web/book/series/5/"');
    expect(html).toContain('href="/web/book/review/9/"');
    expect(html).toContain('href="/web/book/subject/43/"');
    expect(html).not.toContain('href="/web/book/subject/42/"');
    expect(html).toContain('共 3 篇书评');
    const ld = JSON.parse(/application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '');
    expect(ld).toMatchObject({ '@type': 'Book', isbn: '9787536692930', numberOfPages: 302, isPartOf: { '@type': 'BookSeries', name: '三体系列' } });
  });

  it('an English record is an English page', () => {
    expect(bookPage(site, book({ title: 'Dune', author: ['Frank Herbert'] }), undefined, undefined)).toContain('<html lang="en">');
  });

  it('a review shows its whole content and links its book and author', () => {
    const review = { id: 9, title: 'T', alt: '', author: user, book: book(), votes: 0, useless: 0, comments: 0, content: 'line 1\n\nline <2>', published: '2024-01-01 10:00:00', updated: '' } as Review;
    const html = bookReviewPage(site, review);
    expect(html).toContain('<p>line 1</p><p>line &lt;2&gt;</p>');
    expect(html).toContain('href="/web/book/subject/42/"');
    expect(html).toContain('href="/web/people/ann/"');
  });

  it('a note carries the API html_full content as is (it is built from escaped text only)', () => {
    const note = { id: '3', alt: '', title: 'a <b>', summary: 's', content: 'x &lt;b&gt;<br><a href="https://e.org/" rel="nofollow noopener noreferrer" target="_blank">e</a>', privacy: 'public', can_reply: true, photos: {}, update_time: '', publish_time: '', comments_count: 0, liked_count: 0, recs_count: 0, author: user } as Note;
    const html = notePage(site, note);
    expect(html).toContain(`<article class="prose">${note.content}</article>`);
    expect(html).toContain('<h1>a &lt;b&gt;</h1>');
  });

  it('an event: ISO times in the services zone, its city linked', () => {
    expect(zoneOffset('Asia/Shanghai')).toBe('+08:00');
    expect(zoneOffset('UTC')).toBe('+00:00');
    expect(isoTime('2099-05-01 19:30:00', '+08:00')).toBe('2099-05-01T19:30:00+08:00');
    const event = { id: '1', title: '音乐节', content: '', begin_time: '2099-05-01 19:30:00', end_time: '2099-05-01 22:30:00', loc_id: '108288', loc_name: '北京', geo: '39.9 116.4', address: '某地', owner: { ...user }, participant_count: 2, wisher_count: 1, category_name: '音乐', image: '' } as unknown as EventView;
    const html = eventPage(site, event, '+08:00');
    expect(html).toContain('href="/web/loc/108288/"');
    expect(html).toContain('"startDate":"2099-05-01T19:30:00+08:00"');
    expect(html).toContain('"geo":{"@type":"GeoCoordinates","latitude":39.9,"longitude":116.4}');
  });

  it("a movie photo: the picture, its movie, album and author linked, its neighbours, an ImageObject; its text escaped", () => {
    const html = photoPage(site, { photo: photo({ desc: '<b>春</b> & "夏"' }), subject });
    expect(html).toContain('<h1>&lt;b&gt;春&lt;/b&gt; &amp; &quot;夏&quot;</h1>');
    expect(html).toContain('<img src="https://img.example.org/photo/27.jpg" alt="&lt;b&gt;春&lt;/b&gt; &amp; &quot;夏&quot;">');
    expect(html).toContain('href="/web/movie/subject/26/"');
    expect(html).toContain('href="/web/movie/subject/26/photos/"');
    expect(html).toContain('href="/web/movie/photos/photo/28/"');
    expect(html).toContain('href="/web/people/ann/"');
    expect(html).toContain('第 1 张，共 2 张');
    expect(html).toContain('<link rel="canonical" href="https://plaza.example.org/web/movie/photos/photo/27/">');
    expect(ldOf(html)).toMatchObject({ '@type': 'ImageObject', contentUrl: 'https://img.example.org/photo/27.jpg', about: { '@type': 'Movie', name: '春天的故事' } });
    // a photo without a description is named by its album and place; a celebrity's links the celebrity
    const celebrity = { id: '13', name: 'Emma Hill', alt: '', avatars: images('13') };
    const other = photoPage(site, { photo: photo({ desc: '', album_title: '', subject_id: '13' }), celebrity });
    expect(other).toContain('<h1>Photos of Emma Hill 1</h1>');
    expect(other).toContain('href="/web/movie/celebrity/13/photos/"');
    expect(ldOf(other)).toMatchObject({ about: { '@type': 'Person', name: 'Emma Hill' } });
  });

  it('an album lists its photos linked to their pages; an empty album says so', () => {
    const html = albumPage(site, { start: 0, count: 2, total: 3, subject, photos: [photo(), photo({ id: '28', desc: '', thumb: 'javascript:alert(1)', image: '', position: 2 })] });
    expect(html).toContain('<h1>春天的故事的剧照</h1>');
    expect(html).toContain('<a href="/web/movie/photos/photo/27/"><img src="https://img.example.org/thumb/27.jpg" alt="剧照" loading="lazy"></a>');
    // an address that is not http(s) is never a picture: the photo is linked by its text
    expect(html).toContain('<a href="/web/movie/photos/photo/28/"><span>图片 2</span></a>');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('全部 3 张');
    expect(albumPage(site, { start: 0, count: 0, total: 0, subject, photos: [] })).toContain('<p>还没有照片。</p>');
    expect(albumPage(site, { start: 0, count: 0, total: 0, subject: { ...subject, title: '$& <i>' }, photos: [] })).toContain('<h1>Photos of $&amp; &lt;i&gt;</h1>');
  });

  it('a series without books is a page that says so, named by its id', () => {
    const html = seriesPage(site, '5', { start: 0, count: 0, total: 0, books: [] });
    expect(html).toContain('<h1>Series 5</h1><p>This series has no books yet.</p>');
    expect(ldOf(html)).toMatchObject({ '@type': 'BookSeries', name: 'Series 5', hasPart: [] });
    expect(seriesPage(site, '5', { start: 0, count: 1, total: 1, books: [book({ series: { id: '5', title: '三体系列' } })] })).toContain('<h1>三体系列</h1>');
  });

  it('refusals are pages with their status: missing 404, not public 403, a service down 503', () => {
    expect(pageStatusOf(new ApiError('book_not_found'))).toBe(404);
    expect(pageStatusOf(new ApiError('target_not_found'))).toBe(404);
    expect(pageStatusOf(new ApiError('need_permission'))).toBe(403);
    expect(pageStatusOf(new ApiError('service_unavailable'))).toBe(503);
    expect(pageStatusOf(new Error('boom'))).toBe(503);
    expect(errorPage(site, 404, '/book/subject/1/')).toContain('<h1>Not found</h1>');
  });

  it('keys the cache by path, with or without the trailing slash, never by query', () => {
    expect(pageKeyOf('/web/book/subject/1')).toBe('web:/web/book/subject/1/');
    expect(pageKeyOf('/web/book/subject/1/?utm=x')).toBe('web:/web/book/subject/1/');
  });
});
