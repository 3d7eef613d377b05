import { Apps } from '../support/fixtures';
import { expectError, get, post } from '../support/http';
import { ImportRun, importRecords } from '../support/import';
import { asTier, keysOf, sorted, SUBJECT_A_FIELDS, SUBJECT_B_FIELDS, Subjects, TIERS } from './movie-fixtures';

/** docs/api/movie.md, "GET /v2/movie/imdb/:imdb": the fixtures' full subject is tt0260001. */
const FULL_IMDB = 'tt0260001';
const byImdb = (imdb: string, tier: 'basic' | 'advance' | 'premium' = 'basic') => get(`/v2/movie/imdb/${imdb}`, asTier(tier));

function expectLoaded(result: ImportRun): void {
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
}

/** Subjects (268…) and IMDb ids of this run, so the suite passes again on a stack it ran on before. */
const RUN = String(Date.now()).slice(-6);
const subjectId = (n: number) => `268${RUN}${n}`;
const imdbId = (n: number) => `tt9${RUN}${n}`;

describe('GET /v2/movie/imdb/:imdb (docs/api/movie.md)', () => {
  it.each(TIERS)('answers the %s tier exactly what /v2/movie/subject/:id answers it', async (tier) => {
    const [a, b] = await Promise.all([byImdb(FULL_IMDB, tier), get(`/v2/movie/subject/${Subjects.full}`, asTier(tier))]);
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
  });

  it('shows imdb to the advance and premium tiers only (an A field)', async () => {
    const basic = await byImdb(FULL_IMDB);
    expect(keysOf(basic.body)).toEqual(sorted(SUBJECT_B_FIELDS));
    expect(basic.body.imdb).toBeUndefined();
    for (const tier of ['advance', 'premium'] as const) {
      const { body } = await byImdb(FULL_IMDB, tier);
      expect(keysOf(body)).toEqual(sorted([...SUBJECT_B_FIELDS, ...SUBJECT_A_FIELDS]));
      expect(body.imdb).toBe(FULL_IMDB);
    }
    expect((await get(`/v2/movie/subject/${Subjects.minimalMovie}`, asTier('advance'))).body.imdb).toBe('');
  });

  it('applies fields, callback and the token\'s tier as every movie read does', async () => {
    const res = await get(`/v2/movie/imdb/${FULL_IMDB}`, { query: { fields: 'id,imdb', apikey: Apps.advance.clientId } });
    expect(res.body).toEqual({ id: Subjects.full, imdb: FULL_IMDB });
    const jsonp = await get(`/v2/movie/imdb/${FULL_IMDB}`, { query: { fields: 'id', callback: 'cb' } });
    expect(jsonp.text).toBe(`/**/cb(${JSON.stringify({ id: Subjects.full })});`);
  });

  it.each([
    ['too few digits', 'tt123456'], ['no tt', '0260001'], ['upper case TT', 'TT0260001'], ['letters after tt', 'ttabcdefg'],
    ['a name', 'alice'], ['a dot', 'tt0260001.json'],
  ])('answers a malformed id (%s) 400/1016', async (_, imdb) => {
    expectError(await byImdb(imdb), 400, 1016, `GET /v2/movie/imdb/${imdb}`);
  });

  it('answers an unknown id 404/1001, and a path outside the wildcard 404/1001', async () => {
    expectError(await byImdb('tt99999999999'), 404, 1001);
    expectError(await get('/v2/movie/imdb/tt%7E1234567'), 404, 1001);
    expectError(await get('/v2/movie/imdb/'), 404, 1001);
  });

  it('is a read only: another method is 405-like 1014', async () => {
    const res = await post(`/v2/movie/imdb/${FULL_IMDB}`);
    expect(res.body.code).toBe(1014);
  });
});

describe('movie import: imdb (docs/api/movie.md, "Loading movie data")', () => {
  it('refuses a malformed imdb and an id another subject holds, and changes nothing', async () => {
    expectLoaded(importRecords([{ kind: 'movie', id: subjectId(1), title: '唯一编号', imdb: imdbId(1) }]));
    const result = importRecords([
      { kind: 'movie', id: subjectId(2), title: '重复编号', imdb: imdbId(1) },
      { kind: 'movie', id: subjectId(3), title: '坏编号', imdb: 'tt12' },
      { kind: 'movie', id: subjectId(4), title: '数字编号', imdb: 2600001 },
    ]);
    expect(result.status).toBe(1);
    const problems = result.stderr.trim().split('\n');
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(new RegExp(`^line 1.*imdb ${imdbId(1)} is already the movie subject ${subjectId(1)}'s`));
    expect(problems[1]).toMatch(/^line 2.*imdb must be tt followed by 7 or more digits/);
    expect(problems[2]).toMatch(/^line 3.*imdb/);
    for (const n of [2, 3, 4]) expectError(await get(`/v2/movie/subject/${subjectId(n)}`), 404, 1001);
    expect((await byImdb(imdbId(1))).body).toMatchObject({ id: subjectId(1), title: '唯一编号' });
  }, 60_000);

  it('follows a subject\'s imdb as it is imported again, changed or dropped; a freed id can be taken', async () => {
    expectLoaded(importRecords([{ kind: 'movie', id: subjectId(5), title: '换编号', imdb: imdbId(5) }]));
    expect((await byImdb(imdbId(5), 'advance')).body).toMatchObject({ id: subjectId(5), imdb: imdbId(5) });

    // the same record again: nothing changes
    expectLoaded(importRecords([{ kind: 'movie', id: subjectId(5), title: '换编号', imdb: imdbId(5) }]));
    expect((await byImdb(imdbId(5))).body.id).toBe(subjectId(5));

    // changed: the old id is unknown at once, the new one answers
    expectLoaded(importRecords([{ kind: 'movie', id: subjectId(5), title: '换编号', imdb: imdbId(6) }]));
    expectError(await byImdb(imdbId(5)), 404, 1001);
    expect((await byImdb(imdbId(6), 'advance')).body).toMatchObject({ id: subjectId(5), imdb: imdbId(6) });

    // the freed id goes to another subject
    expectLoaded(importRecords([{ kind: 'movie', id: subjectId(7), title: '接手编号', imdb: imdbId(5) }]));
    expect((await byImdb(imdbId(5))).body.id).toBe(subjectId(7));

    // dropped: unknown, and the subject shows ""
    expectLoaded(importRecords([{ kind: 'movie', id: subjectId(5), title: '换编号' }]));
    expectError(await byImdb(imdbId(6)), 404, 1001);
    expect((await get(`/v2/movie/subject/${subjectId(5)}`, asTier('advance'))).body.imdb).toBe('');
  }, 120_000);
});
