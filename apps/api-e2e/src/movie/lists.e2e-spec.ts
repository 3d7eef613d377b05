import { tokenFor } from '../support/auth';
import { Apps } from '../support/fixtures';
import { expectError, get } from '../support/http';
import { asTier, keysOf, MovieUsers, SIMPLE_SUBJECT_B_FIELDS, sorted, Subjects, TierName, TIERS } from './movie-fixtures';

const ids = (subjects: Array<{ id?: string; subject?: { id: string } }>) => subjects.map((s) => s.subject?.id ?? s.id);
const stars = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => Subjects.star(from + i));

/** docs/api/README.md, "Tiers and scopes": which tier may call which list. */
const ACCESS: Array<[string, TierName[]]> = [
  ['/v2/movie/top250', ['basic', 'advance']],
  ['/v2/movie/us_box', ['basic', 'advance']],
  ['/v2/movie/weekly', ['advance']],
  ['/v2/movie/new_movies', ['advance']],
  ['/v2/movie/in_theaters', ['basic', 'advance', 'premium']],
  ['/v2/movie/coming_soon', ['basic', 'advance', 'premium']],
];

describe('lists: which tier may call which', () => {
  it.each(ACCESS)('%s answers %j and gives every other tier 404/1001', async (url, allowed) => {
    for (const tier of TIERS) {
      const res = await get(url, asTier(tier));
      if (allowed.includes(tier)) expect({ tier, status: res.status }).toEqual({ tier, status: 200 });
      else expectError(res, 404, 1001, `GET ${url}`);
    }
  });

  it('decides by the token\'s app as well', async () => {
    expectError(await get('/v2/movie/weekly', { token: await tokenFor(MovieUsers.fan, Apps.premium) }), 404, 1001);
    expectError(await get('/v2/movie/weekly', { token: await tokenFor(MovieUsers.fan, Apps.basic) }), 404, 1001);
    expect((await get('/v2/movie/weekly', { token: await tokenFor(MovieUsers.fan, Apps.advance) })).status).toBe(200);
    expectError(await get('/v2/movie/top250', { token: await tokenFor(MovieUsers.fan, Apps.premium) }), 404, 1001);
  });
});

describe('GET /v2/movie/top250', () => {
  it('answers {start, count, total, title, subjects}: 10 by default, in rank order', async () => {
    const { body } = await get('/v2/movie/top250');
    expect(keysOf(body)).toEqual(['count', 'start', 'subjects', 'title', 'total']);
    expect(body).toMatchObject({ start: 0, count: 10, total: 12, title: 'Top 250 电影' });
    // loaded in reverse with explicit ranks
    expect(ids(body.subjects)).toEqual(stars(1, 10));
    for (const s of body.subjects) expect(keysOf(s)).toEqual(sorted(SIMPLE_SUBJECT_B_FIELDS));
  });

  it('shows pubdates in the Simple Subjects of the advance tier only', async () => {
    const { body } = await get('/v2/movie/top250', asTier('advance', { count: 1 }));
    expect(body.subjects[0]).toMatchObject({ id: Subjects.star(1), title: '星空漫游 第1部', original_title: 'Starry Voyage 1', pubdates: ['2001-01-01'], year: '2001', subtype: 'movie' });
  });

  it('pages: start and count, count cut to 100, count=0, bad values 400/1016', async () => {
    expect(ids((await get('/v2/movie/top250', { query: { start: 10, count: 5 } })).body.subjects)).toEqual(stars(11, 12));
    expect((await get('/v2/movie/top250', { query: { count: 101 } })).body.count).toBe(12);
    expect((await get('/v2/movie/top250', { query: { count: 0 } })).body).toMatchObject({ start: 0, count: 0, total: 12, subjects: [] });
    expectError(await get('/v2/movie/top250', { query: { start: '-1' } }), 400, 1016);
    expectError(await get('/v2/movie/top250', { query: { count: 'ten' } }), 400, 1016);
  });

  it('applies fields to each subject and keeps the envelope and title', async () => {
    const { body } = await get('/v2/movie/top250', { query: { fields: 'id', count: 2 } });
    expect(body).toEqual({ start: 0, count: 2, total: 12, title: 'Top 250 电影', subjects: [{ id: Subjects.star(1) }, { id: Subjects.star(2) }] });
  });
});

describe('GET /v2/movie/us_box', () => {
  it('answers {title, date, subjects} of Box-Subjects, whole and in rank order', async () => {
    const { body } = await get('/v2/movie/us_box');
    expect(keysOf(body)).toEqual(['date', 'subjects', 'title']);
    expect({ title: body.title, date: body.date }).toEqual({ title: '北美票房榜', date: '5月20 - 5月22日' });
    expect(body.subjects.map((s: any) => [s.rank, s.box, s.new, s.subject.id])).toEqual([
      [1, 5000000, true, Subjects.full], [2, 3000000, false, Subjects.star(1)], [3, 100, false, Subjects.star(2)],
    ]);
    for (const s of body.subjects) {
      expect(keysOf(s)).toEqual(['box', 'new', 'rank', 'subject']);
      expect(keysOf(s.subject)).toEqual(sorted(SIMPLE_SUBJECT_B_FIELDS));
    }
    expect((await get('/v2/movie/us_box', asTier('advance'))).body.subjects[0].subject.pubdates).toEqual(['2020-05-01(中国大陆)', '2020-02-21(柏林电影节)']);
  });

  it('applies fields to each Box-Subject', async () => {
    expect((await get('/v2/movie/us_box', { query: { fields: 'rank,box' } })).body).toEqual({
      title: '北美票房榜', date: '5月20 - 5月22日', subjects: [{ rank: 1, box: 5000000 }, { rank: 2, box: 3000000 }, { rank: 3, box: 100 }],
    });
  });
});

describe('GET /v2/movie/weekly and /v2/movie/new_movies (advance only)', () => {
  it('answers weekly {title, subjects} of Weekly-Subjects', async () => {
    const { body } = await get('/v2/movie/weekly', asTier('advance'));
    expect(keysOf(body)).toEqual(['subjects', 'title']);
    expect(body.title).toBe('一周口碑榜');
    expect(body.subjects.map((s: any) => [s.rank, s.delta, s.subject.id])).toEqual([[1, 3, Subjects.nobody], [2, -1, Subjects.full]]);
    for (const s of body.subjects) expect(keysOf(s)).toEqual(['delta', 'rank', 'subject']);
  });

  it('answers new_movies {title, subjects} of Simple Subjects', async () => {
    const { body } = await get('/v2/movie/new_movies', asTier('advance'));
    expect(keysOf(body)).toEqual(['subjects', 'title']);
    expect(body.title).toBe('新片榜');
    expect(ids(body.subjects)).toEqual([Subjects.full, Subjects.minimalMovie, Subjects.minimalTv]);
    expect(keysOf(body.subjects[2])).toEqual(sorted([...SIMPLE_SUBJECT_B_FIELDS, 'pubdates']));
    expect(body.subjects[2].subtype).toBe('tv');
  });
});

describe('GET /v2/movie/in_theaters', () => {
  const BEIJING = [Subjects.full, Subjects.star(3), Subjects.star(4)];
  const SHANGHAI = [Subjects.star(5), Subjects.nobody];

  it('shows 北京 by default: {title, total, start, count, subjects}', async () => {
    for (const tier of TIERS) {
      const { body } = await get('/v2/movie/in_theaters', asTier(tier));
      expect(keysOf(body)).toEqual(['count', 'start', 'subjects', 'title', 'total']);
      expect({ title: body.title, start: body.start, count: body.count, total: body.total, ids: ids(body.subjects) })
        .toEqual({ title: '正在上映的电影-北京', start: 0, count: 3, total: 3, ids: BEIJING });
    }
  });

  it.each([['北京'], ['108288'], ['beijing'], ['']])('shows 北京 for city=%j', async (city) => {
    const { body } = await get('/v2/movie/in_theaters', { query: { city } });
    expect({ title: body.title, ids: ids(body.subjects) }).toEqual({ title: '正在上映的电影-北京', ids: BEIJING });
  });

  it.each([['上海'], ['108296'], ['shanghai']])('shows 上海 for city=%j (resolved by the event service)', async (city) => {
    const { body } = await get('/v2/movie/in_theaters', asTier('premium', { city }));
    expect({ title: body.title, total: body.total, ids: ids(body.subjects) }).toEqual({ title: '正在上映的电影-上海', total: 2, ids: SHANGHAI });
  });

  it.each([['火星'], ['999999999'], ['nowhere']])('answers an unknown city=%j with 404/1001', async (city) => {
    expectError(await get('/v2/movie/in_theaters', { query: { city } }), 404, 1001, 'GET /v2/movie/in_theaters');
  });

  it('answers a city longer than 100 characters, longer than any city name, with 400/1016', async () => {
    expectError(await get('/v2/movie/in_theaters', { query: { city: '城'.repeat(101) } }), 400, 1016, 'GET /v2/movie/in_theaters');
    expectError(await get('/v2/movie/in_theaters', { query: { city: '城'.repeat(100) } }), 404, 1001);
  });

  it('answers a known city with nothing in theatres with an empty list', async () => {
    const { body: locs } = await get('/v2/loc/list', { query: { count: 100 } });
    const other = (locs.locs as Array<{ id: string; name: string; habitable: string }>).find((l) => l.habitable === 'yes' && !['108288', '108296'].includes(l.id));
    if (!other) return; // the event fixtures hold no third city
    const { body } = await get('/v2/movie/in_theaters', { query: { city: other.name } });
    expect(body).toEqual({ start: 0, count: 0, total: 0, title: `正在上映的电影-${other.name}`, subjects: [] });
  });

  it('pages and applies fields', async () => {
    const { body } = await get('/v2/movie/in_theaters', { query: { start: 1, count: 1, fields: 'title' } });
    expect(body).toEqual({ start: 1, count: 1, total: 3, title: '正在上映的电影-北京', subjects: [{ title: '星空漫游 第3部' }] });
  });
});

describe('GET /v2/movie/coming_soon', () => {
  it('answers {title, total, start, count, subjects}, 20 by default', async () => {
    for (const tier of TIERS) {
      const { body } = await get('/v2/movie/coming_soon', asTier(tier));
      expect({ title: body.title, start: body.start, count: body.count, total: body.total }).toEqual({ title: '即将上映的电影', start: 0, count: 20, total: 22 });
      expect(ids(body.subjects)).toEqual(stars(1, 20));
    }
    expect(ids((await get('/v2/movie/coming_soon', { query: { start: 20 } })).body.subjects)).toEqual(stars(21, 22));
  });

  it('wraps a list in JSONP', async () => {
    const plain = await get('/v2/movie/coming_soon', { query: { count: 1 } });
    const res = await get('/v2/movie/coming_soon', { query: { count: 1, callback: 'cb_1' } });
    expect(res.text).toBe(`/**/cb_1(${plain.text});`);
  });
});
