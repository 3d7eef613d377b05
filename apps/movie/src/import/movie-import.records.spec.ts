import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { CelebrityPhotoRecord, MovieListRecord, MovieRecord, MovieReviewRecord } from './movie-import.records';

async function check<T extends object>(cls: new () => T, plain: object): Promise<{ value: T; errors: string[] }> {
  const value = plainToInstance(cls, plain);
  const errors = await validate(value, { whitelist: true, forbidUnknownValues: false });
  return { value, errors: errors.flatMap((e) => [e.property, ...(e.children ?? []).map((c) => `${e.property}.${c.property}`)]) };
}

describe('movie import records', () => {
  it('accepts a subject as the API shows it, strips derived fields and reads tags given as objects', async () => {
    const { value, errors } = await check(MovieRecord, {
      id: '1', title: 'T', year: 1994, rating: { average: '9.6', stars: '50', max: 10 }, tags: [{ name: 'a', count: 3 }, 'b'],
      photos: [{ id: 'x' }], popular_reviews: [], casts: Array.from({ length: 6 }, (_, i) => ({ id: String(i + 1), name: 'n' })),
    });
    expect(errors).toEqual([]);
    expect(value.year).toBe('1994');
    expect(value.rating).toEqual({ average: 9.6 });
    expect(value.tags).toEqual(['a', 'b']);
    expect(value).not.toHaveProperty('photos');
  });

  it('rejects what cannot be shown: no title, a bad subtype, credits without ids, ratings outside 0-10', async () => {
    expect((await check(MovieRecord, { id: '1' })).errors).toContain('title');
    expect((await check(MovieRecord, { id: '1', title: 'T', subtype: 'film' })).errors).toContain('subtype');
    expect((await check(MovieRecord, { id: '1', title: 'T', directors: [{ name: 'n' }] })).errors).toContain('directors');
    expect((await check(MovieRecord, { id: '1', title: 'T', rating: { average: 11 } })).errors).toContain('rating');
    expect((await check(MovieRecord, { id: 'x1', title: 'T' })).errors).toContain('id');
  });

  it('takes an imdb id of tt and 7 or more digits, nothing else (docs/api/movie.md)', async () => {
    for (const imdb of ['tt0111161', 'tt12345678', `tt${'1'.repeat(198)}`]) expect((await check(MovieRecord, { id: '1', title: 'T', imdb })).errors).toEqual([]);
    for (const imdb of ['tt123456', 'TT0111161', '0111161', 'tt0111161 ', 'tt011116a', 111161, `tt${'1'.repeat(199)}`]) {
      expect({ imdb, errors: (await check(MovieRecord, { id: '1', title: 'T', imdb })).errors }).toEqual({ imdb, errors: ['imdb'] });
    }
  });

  it('needs an author (author_id, or author with an id or uid) on photos and reviews', async () => {
    const photo = { id: '1', celebrity_id: '2', created_at: '2020-01-01 00:00:00' };
    expect((await check(CelebrityPhotoRecord, photo)).errors).toEqual(expect.arrayContaining(['author_id', 'author']));
    expect((await check(CelebrityPhotoRecord, { ...photo, author: { uid: 'u' } })).errors).toEqual([]);
    expect((await check(CelebrityPhotoRecord, { ...photo, author: { name: 'only a name' } })).errors).toEqual(['author', 'author.id']);
    const review = { id: '1', subject_id: '2', title: 't', created_at: '2020-01-01 00:00:00', author_id: '3' };
    expect((await check(MovieReviewRecord, review)).errors).toEqual(['summary']);
    expect((await check(MovieReviewRecord, { ...review, content: 'c' })).errors).toEqual([]);
  });

  it('accepts list entries with the fields of their list', async () => {
    const { errors } = await check(MovieListRecord, { name: 'us_box', subjects: [{ subject_id: '1', rank: '2', box: 10, new: true }, { subject_id: '2', delta: -3 }] });
    expect(errors).toEqual([]);
    expect((await check(MovieListRecord, { name: 'best', subjects: [] })).errors).toEqual(['name']);
  });
});
