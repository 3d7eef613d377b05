import { stackInfo } from '../support/stack-info';
import { expectError, get } from '../support/http';
import { asTier, keysOf, SIMPLE_SUBJECT_B_FIELDS, sorted, Subjects, TIERS } from './movie-fixtures';

const SEARCH = '/v2/movie/search';
const ids = (body: { subjects: Array<{ id: string }> }) => body.subjects.map((s) => s.id);
const stars = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => Subjects.star(from + i));

describe('GET /v2/movie/search: every tier, basic capped at 20', () => {
  it('answers {start, count, total, query, tag, subjects} with Simple Subjects', async () => {
    const { status, body } = await get(SEARCH, { query: { q: '星空' } });
    expect(status).toBe(200);
    expect(keysOf(body)).toEqual(['count', 'query', 'start', 'subjects', 'tag', 'total']);
    expect({ query: body.query, tag: body.tag }).toEqual({ query: '星空', tag: '' });
    for (const s of body.subjects) expect(keysOf(s)).toEqual(sorted(SIMPLE_SUBJECT_B_FIELDS));
    const advance = (await get(SEARCH, asTier('advance', { q: '星空', count: 1 }))).body;
    expect(keysOf(advance.subjects[0])).toEqual(sorted([...SIMPLE_SUBJECT_B_FIELDS, 'pubdates']));
  });

  it('shows the basic tier at most 20 of 25 matches, and nothing past the 20th', async () => {
    const basic = (await get(SEARCH, { query: { q: '星空' } })).body;
    expect({ total: basic.total, count: basic.count }).toEqual({ total: 20, count: 20 });
    const tail = (await get(SEARCH, { query: { q: '星空', start: 15, count: 10 } })).body;
    expect({ total: tail.total, count: tail.count }).toEqual({ total: 20, count: 5 });
    expect((await get(SEARCH, { query: { q: '星空', start: 20 } })).body).toMatchObject({ start: 20, count: 0, total: 20, subjects: [] });
  });

  it.each(['advance', 'premium'] as const)('shows the %s tier all 25 matches', async (tier) => {
    const first = (await get(SEARCH, asTier(tier, { q: '星空' }))).body;
    expect({ total: first.total, count: first.count }).toEqual({ total: 25, count: 20 });
    const tail = (await get(SEARCH, asTier(tier, { q: '星空', start: 20, count: 10 }))).body;
    expect(tail.count).toBe(5);
    expect(new Set([...ids(first), ...ids(tail)])).toEqual(new Set(stars(1, 25)));
  });

  it('cuts an over-large count to 100 and answers count=0 with the true total', async () => {
    expect((await get(SEARCH, asTier('advance', { q: '星空', count: 1000 }))).body.count).toBe(25);
    expect((await get(SEARCH, asTier('advance', { q: '星空', count: 0 }))).body).toMatchObject({ count: 0, total: 25, subjects: [] });
    expectError(await get(SEARCH, { query: { q: '星空', start: 'x' } }), 400, 1016);
  });
});

describe('what q and tag match', () => {
  it('finds a word inside a Chinese title, no dictionary needed', async () => {
    expect(ids((await get(SEARCH, { query: { q: '天的故' } })).body)).toEqual([Subjects.full]);
  });

  it('finds English original titles, whatever the case, best match first', async () => {
    expect(ids((await get(SEARCH, { query: { q: 'STARRY voyage 7' } })).body)).toEqual([Subjects.star(7)]);
    expect((await get(SEARCH, asTier('advance', { q: 'starry' }))).body.total).toBe(25);
    expect(ids((await get(SEARCH, { query: { q: 'the spring story' } })).body)).toEqual([Subjects.full]);
  });

  it('finds alternative titles (aka) in Chinese and English, and tags', async () => {
    expect(ids((await get(SEARCH, { query: { q: 'nobody' } })).body)).toEqual([Subjects.nobody]);
    expect(ids((await get(SEARCH, { query: { q: '春之故事' } })).body)).toEqual([Subjects.full]);
    expect(ids((await get(SEARCH, { query: { q: '温情' } })).body)).toEqual([Subjects.full]);
  });

  it('matches a whole tag or genre with tag=, case-insensitively', async () => {
    expect(new Set(ids((await get(SEARCH, { query: { tag: '赛博朋克' } })).body))).toEqual(new Set([Subjects.full, Subjects.fullTv, Subjects.nobody]));
    expect(ids((await get(SEARCH, { query: { tag: 'sci-fi' } })).body)).toEqual([Subjects.full]);
    expect((await get(SEARCH, { query: { tag: '赛博' } })).body.total).toBe(0);
    // the full movie's 4th genre is not shown (cap 3) but still a genre
    expect(ids((await get(SEARCH, { query: { tag: '悬疑' } })).body)).toEqual([Subjects.full]);
    expect((await get(SEARCH, asTier('advance', { tag: '科幻' }))).body.total).toBe(26);
  });

  it('requires both when q and tag are given, and echoes both', async () => {
    const both = (await get(SEARCH, { query: { q: '春天', tag: '温情' } })).body;
    expect({ ids: ids(both), query: both.query, tag: both.tag }).toEqual({ ids: [Subjects.full], query: '春天', tag: '温情' });
    expect((await get(SEARCH, { query: { q: '星空', tag: '赛博朋克' } })).body.total).toBe(0);
  });

  it('answers 400/1002 without q or tag, also when they are empty', async () => {
    expectError(await get(SEARCH), 400, 1002, `GET ${SEARCH}`);
    expectError(await get(SEARCH, { query: { q: '' } }), 400, 1002);
    expectError(await get(SEARCH, { query: { q: '  ', tag: '' } }), 400, 1002);
  });
});

describe('search input is never a query operator or a pattern', () => {
  it.each([['q[$ne]'], ['q[$regex]'], ['tag[$ne]'], ['q[$gt]']])('treats %s as an unknown parameter (400/1002), never as an operator', async (name) => {
    for (const tier of TIERS) expectError(await get(SEARCH, asTier(tier, { [name]: '' })), 400, 1002);
    expectError(await get(SEARCH, { query: { [name]: '.*' } }), 400, 1002);
  });

  it('answers a repeated q (an array) with 400/1016', async () => {
    const res = await fetch(`${stackInfo().baseUrl}${SEARCH}?q=a&q=b`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: number }).code).toBe(1016);
  });

  it.each([['.*'], ['^(a+)+$'], ['{"$ne": null}'], ['$where'], ['[a-z]+'], ['\\'], ['*']])('treats q=%j as text: it matches nothing here', async (q) => {
    const res = await get(SEARCH, asTier('advance', { q }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 0, subjects: [], query: q });
  });

  it('ignores regular-expression characters around words', async () => {
    expect((await get(SEARCH, asTier('advance', { q: '星空.*' }))).body.total).toBe(25);
    expect((await get(SEARCH, asTier('advance', { tag: '.*' }))).body.total).toBe(0);
  });
});

describe('search responses: fields and JSONP', () => {
  it('applies fields to each subject and keeps the envelope, query and tag', async () => {
    const { body } = await get(SEARCH, { query: { q: 'nobody', fields: 'id,title' } });
    expect(body).toEqual({ start: 0, count: 1, total: 1, query: 'nobody', tag: '', subjects: [{ id: Subjects.nobody, title: '无名之辈' }] });
  });

  it('wraps a search in JSONP', async () => {
    const res = await get(SEARCH, { query: { q: 'nobody', callback: 'found' } });
    expect(res.text.startsWith('/**/found({')).toBe(true);
  });
});
