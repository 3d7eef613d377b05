import { tokenFor } from '../support/auth';
import { Apps } from '../support/fixtures';
import { expectError, get } from '../support/http';
import { stackInfo } from '../support/stack-info';
import {
  asTier, chars, keysOf, MovieUsers, REVIEW_FIELDS, SIMPLE_USER_FIELDS, sorted, SUBJECT_A_FIELDS, SUBJECT_B_FIELDS, Subjects, TIERS,
} from './movie-fixtures';

const path = (id: string) => `/v2/movie/subject/${id}`;
const web = () => `${stackInfo().baseUrl}/web`;

describe('GET /v2/movie/subject/:id: fields by tier (docs/api/movie.md, "Movie subject")', () => {
  it('gives the basic tier the B fields and nothing else', async () => {
    const res = await get(path(Subjects.full));
    expect(res.status).toBe(200);
    expect(keysOf(res.body)).toEqual(sorted(SUBJECT_B_FIELDS));
  });

  it.each(['advance', 'premium'] as const)('gives the %s tier the B and the A fields', async (tier) => {
    const res = await get(path(Subjects.full), asTier(tier));
    expect(res.status).toBe(200);
    expect(keysOf(res.body)).toEqual(sorted([...SUBJECT_B_FIELDS, ...SUBJECT_A_FIELDS]));
  });

  it('answers the same subject with the same B values to every tier; advance and premium agree on everything', async () => {
    const [basic, advance, premium] = await Promise.all(TIERS.map((tier) => get(path(Subjects.full), asTier(tier))));
    const bPart = (body: Record<string, unknown>) => Object.fromEntries(SUBJECT_B_FIELDS.map((k) => [k, body[k]]));
    expect(bPart(advance.body)).toEqual(basic.body);
    expect(premium.body).toEqual(advance.body);
  });

  it('takes the tier from the token, as the app it was issued to', async () => {
    const cases = [[Apps.basic, SUBJECT_B_FIELDS], [Apps.advance, [...SUBJECT_B_FIELDS, ...SUBJECT_A_FIELDS]], [Apps.premium, [...SUBJECT_B_FIELDS, ...SUBJECT_A_FIELDS]]] as const;
    for (const [app, fields] of cases) {
      const res = await get(path(Subjects.full), { token: await tokenFor(MovieUsers.critic, app) });
      expect({ app: app.clientId, keys: keysOf(res.body) }).toEqual({ app: app.clientId, keys: sorted([...fields]) });
    }
  });

  it('names the site field service_site, never douban_site', async () => {
    const { body } = await get(path(Subjects.full), asTier('advance'));
    expect(body.service_site).toBe('http://site.example.test/spring');
    expect(body).not.toHaveProperty('douban_site');
  });

  it('answers 404/1001 for a subject that does not exist, in every tier', async () => {
    for (const tier of TIERS) expectError(await get(path(Subjects.missing), asTier(tier)), 404, 1001, `GET ${path(Subjects.missing)}`);
    expectError(await get('/v2/movie/subject/abc'), 404, 1001);
  });
});

describe('subject values, caps and defaults', () => {
  let full: Record<string, any>;
  beforeAll(async () => {
    full = (await get(path(Subjects.full), asTier('advance'))).body;
  });

  it('shows the Simple Rating out of 10 with one decimal and stars = round(average) x 5', async () => {
    expect(full.rating).toEqual({ min: 0, max: 10, average: 9.6, stars: 50 });
    expect((await get(path(Subjects.fullTv))).body.rating).toEqual({ min: 0, max: 10, average: 7.3, stars: 35 });
    expect((await get(path(Subjects.nobody))).body.rating).toEqual({ min: 0, max: 10, average: 8, stars: 40 });
  });

  it('cuts casts to 4, genres to 3 and trailer, clip and blooper urls to 4 each', () => {
    expect(full.casts.map((c: { id: string }) => c.id)).toEqual(['1300002', '1300003', '1300004', '1300005']);
    expect(full.genres).toEqual(['剧情', '爱情', '科幻']);
    expect(full.trailer_urls).toHaveLength(4);
    expect(full.trailer_urls[3]).toBe('http://video.example.test/trailer/4.mp4');
    expect(full.clip_urls).toHaveLength(4);
    expect(full.blooper_urls).toEqual([1, 2, 3, 4].map((i) => `http://video.example.test/blooper/${i}.mp4`));
  });

  it('shows directors, casts and writers as Simple Celebrities', () => {
    expect(full.directors).toEqual([{
      id: '1300001', name: '王一导', alt: 'http://web.example.test/celebrity/1300001/',
      avatars: { small: 'http://img.example.test/celebrity/s/1300001.jpg', large: 'http://img.example.test/celebrity/l/1300001.jpg', medium: 'http://img.example.test/celebrity/m/1300001.jpg' },
    }]);
    expect(full.writers.map((w: { id: string }) => w.id)).toEqual(['1300001', '1300008']);
    for (const c of [...full.casts, ...full.writers]) expect(keysOf(c)).toEqual(['alt', 'avatars', 'id', 'name']);
  });

  it('derives photos from the loaded photos: the first 10 of 12, in album order', () => {
    expect(full.photos).toHaveLength(10);
    expect(full.photos.map((p: { position: number }) => p.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(full.photos.every((p: { photos_count: number }) => p.photos_count === 12)).toBe(true);
    expect(full.photos[9].next_photo).toBe('2700011');
  });

  it('derives popular_reviews: the 10 most useful of 12, summaries cut to 100 characters', () => {
    const reviews = full.popular_reviews as Array<Record<string, any>>;
    expect(reviews.map((r) => r.id)).toEqual(Array.from({ length: 10 }, (_, i) => String(2800012 - i)));
    expect(chars(reviews[0].summary)).toBe(100);
    expect(reviews[0].summary.startsWith('春天的故事真好看春天的故事真好看')).toBe(true);
    for (const r of reviews) {
      expect(keysOf(r)).toEqual(sorted(REVIEW_FIELDS));
      expect(keysOf(r.author)).toEqual(SIMPLE_USER_FIELDS);
    }
  });

  it('ignores photos and popular_reviews sent in the record itself', () => {
    expect(full.photos.some((p: { id: string }) => p.id === 'ignored')).toBe(false);
    expect(full.popular_reviews.some((r: { id: string }) => r.id === 'ignored')).toBe(false);
  });

  it('counts never fewer reviews or comments than were loaded', () => {
    // the record says 3 comments and 50 reviews; 12 of each are loaded
    expect(full.comments_count).toBe(12);
    expect(full.reviews_count).toBe(50);
  });

  it('mirrors mainland_pubdate in the deprecated pubdate (the record\'s own pubdate is not used)', () => {
    expect(full.mainland_pubdate).toBe('2020-05-01');
    expect(full.pubdate).toBe('2020-05-01');
    expect(full.pubdates).toEqual(['2020-05-01(中国大陆)', '2020-02-21(柏林电影节)']);
  });

  it('keeps the addresses a record gives', () => {
    expect(full.alt).toBe('http://web.example.test/subject/2600001/');
    expect(full.mobile_url).toBe('http://m.example.test/subject/2600001/');
    expect(full.images.large).toBe('http://img.example.test/l/2600001.jpg');
  });

  it('gives a movie null for the tv-only fields whatever the record says, and keeps its schedule_url', () => {
    expect({ do_count: full.do_count, seasons_count: full.seasons_count, current_season: full.current_season, episodes_count: full.episodes_count })
      .toEqual({ do_count: null, seasons_count: null, current_season: null, episodes_count: null });
    expect(full.schedule_url).toBe('http://web.example.test/subject/2600001/cinema/');
  });

  it('fills every default of a movie loaded with a title only', async () => {
    const id = Subjects.minimalMovie;
    const { body } = await get(path(id), asTier('advance'));
    expect(body).toEqual({
      id, title: '极简电影', original_title: '', aka: [], alt: `${web()}/movie/subject/${id}/`, mobile_url: `${web()}/m/movie/subject/${id}/`,
      rating: { min: 0, max: 10, average: 0, stars: 0 }, ratings_count: 0, wish_count: 0, collect_count: 0, do_count: null,
      images: { small: `${web()}/movie/img/subject/s/${id}.jpg`, large: `${web()}/movie/img/subject/l/${id}.jpg`, medium: `${web()}/movie/img/subject/m/${id}.jpg` },
      subtype: 'movie', directors: [], casts: [], writers: [], website: '', imdb: '', service_site: '', pubdates: [], mainland_pubdate: '', pubdate: '',
      year: '', languages: [], durations: [], genres: [], countries: [], summary: '', comments_count: 0, reviews_count: 0,
      seasons_count: null, current_season: null, episodes_count: null, schedule_url: '',
      trailer_urls: [], clip_urls: [], blooper_urls: [], photos: [], popular_reviews: [],
    });
  });

  it('gives a tv subject 0 for its absent counts and no schedule_url', async () => {
    const { body } = await get(path(Subjects.minimalTv));
    expect(body.subtype).toBe('tv');
    expect({ do_count: body.do_count, seasons_count: body.seasons_count, current_season: body.current_season, episodes_count: body.episodes_count, schedule_url: body.schedule_url })
      .toEqual({ do_count: 0, seasons_count: 0, current_season: 0, episodes_count: 0, schedule_url: '' });
  });

  it('shows a tv subject\'s counts as loaded, and drops a schedule_url given for tv', async () => {
    const { body } = await get(path(Subjects.fullTv));
    expect({ do_count: body.do_count, seasons_count: body.seasons_count, current_season: body.current_season, episodes_count: body.episodes_count, schedule_url: body.schedule_url })
      .toEqual({ do_count: 42, seasons_count: 3, current_season: 2, episodes_count: 10, schedule_url: '' });
  });
});

describe('subject responses: fields, JSONP, ETag', () => {
  it('filters a subject with fields, and never lets fields reveal A fields to the basic tier', async () => {
    expect((await get(path(Subjects.full), { query: { fields: 'id, title,rating' } })).body).toEqual({
      id: Subjects.full, title: '春天的故事', rating: { min: 0, max: 10, average: 9.6, stars: 50 },
    });
    expect((await get(path(Subjects.full), { query: { fields: 'writers,photos,id' } })).body).toEqual({ id: Subjects.full });
    expect(keysOf((await get(path(Subjects.full), asTier('advance', { fields: 'writers,nonsense' }))).body)).toEqual(['writers']);
    expect(keysOf((await get(path(Subjects.full), { query: { fields: 'all' } })).body)).toEqual(sorted(SUBJECT_B_FIELDS));
  });

  it('wraps a subject in JSONP', async () => {
    const plain = await get(path(Subjects.minimalMovie));
    const res = await get(path(Subjects.minimalMovie), { query: { callback: 'show_movie' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.text).toBe(`/**/show_movie(${plain.text});`);
  });

  it('sends an ETag and answers a matching If-None-Match with 304; the tiers get different ETags', async () => {
    const first = await get(path(Subjects.full));
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await get(path(Subjects.full), { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const advance = await get(path(Subjects.full), asTier('advance', {}));
    expect(advance.headers.get('etag')).not.toBe(etag);
    expect((await get(path(Subjects.full), { ...asTier('advance'), headers: { 'if-none-match': etag! } })).status).toBe(200);
  });
});
