import { join } from 'node:path';
import { get } from '../support/http';
import { ImportRun, importFile, importRecords } from '../support/import';
import { asTier, Celebrities, Subjects } from './movie-fixtures';

const root = join(__dirname, '..', '..', '..', '..');

function expectLoaded(result: ImportRun): void {
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
}

const at = (second: number) => `2022-06-01 10:00:${String(second).padStart(2, '0')}`;
const subject = (id: string, tier: 'basic' | 'advance' = 'advance') => get(`/v2/movie/subject/${id}`, asTier(tier));

/**
 * Records made here get ids of this run (269… subjects, 279… photos, 289… reviews, 299… comments,
 * 139… celebrities, 9 digits where the fixtures use 7), so the suite also passes on a stack it ran on before.
 */
const RUN = String(Date.now()).slice(-5);
const id = (prefix: string, n: number) => `${prefix}${RUN}${n}`;
describe('movie import (docs/api/import.md)', () => {
  it('reports each bad line with its number and reason, and still loads the good ones', async () => {
    const result = importRecords([
      { kind: 'movie', id: id('269', 1), title: '导入测试' },
      { kind: 'movie', id: id('269', 2) },
      { kind: 'movie_review', id: id('289', 1), subject_id: id('269', 1), title: '评', summary: '好', created_at: at(1), author_id: '3999' },
      { kind: 'movie_comment', id: id('299', 1), subject_id: Subjects.missing, content: '短评', created_at: at(1), author_id: '3001' },
      { kind: 'movie_list', name: 'top250', city: '108296', subjects: [{ subject_id: id('269', 1) }] },
      { kind: 'movie_list', name: 'in_theaters', city: '108296', subjects: [{ subject_id: Subjects.missing }] },
      { kind: 'celebrity_photo', id: id('279', 1), celebrity_id: Celebrities.missing, created_at: at(1), author_id: '3001' },
      { kind: 'movie_review', id: id('289', 2), subject_id: id('269', 1), title: '好评', summary: '好看', created_at: at(2), author: { uid: 'film_fan', name: 'not used' } },
      { kind: 'movie_photo', id: id('279', 2), subject_id: id('269', 1), created_at: 'yesterday', author_id: '3001' },
      { kind: 'movie', id: id('269', 3), title: '类型错误', subtype: 'film' },
      { kind: 'movie_comment', id: id('299', 2), subject_id: id('269', 1), content: '无作者', created_at: at(1) },
      'not json',
    ]);
    expect(result.status).toBe(1);
    const problems = Object.fromEntries(result.stderr.trim().split('\n').map((l) => [Number(/^line (\d+)/.exec(l)?.[1]), l]));
    expect(Object.keys(problems).map(Number).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 9, 10, 11, 12]);
    expect(problems[2]).toMatch(/title/);
    expect(problems[3]).toMatch(/unknown author 3999/);
    expect(problems[4]).toMatch(/no movie subject 2699999/);
    expect(problems[5]).toMatch(/city applies to in_theaters only/);
    expect(problems[6]).toMatch(/no movie subject 2699999/);
    expect(problems[7]).toMatch(/no celebrity 1399999/);
    expect(problems[9]).toMatch(/created_at is not a timestamp/);
    expect(problems[10]).toMatch(/subtype/);
    expect(problems[11]).toMatch(/author or author_id is required/);
    expect(result.stdout).toMatch(/movie\t1\n/);
    expect(result.stdout).toMatch(/movie_review\t1\n/);

    const { body } = await subject(id('269', 1));
    expect(body.popular_reviews.map((r: any) => [r.id, r.author.uid, r.author.name])).toEqual([[id('289', 2), 'film_fan', 'Film Fan']]);
    expect(body.reviews_count).toBe(1);
    expect((await get(`/v2/movie/subject/${id('269', 2)}`)).status).toBe(404);
    expect((await get('/v2/movie/top250')).body.total).toBe(12);
  }, 60_000);

  it('re-imports the fixture file without changing anything a client sees', async () => {
    const reads = [
      `/v2/movie/subject/${Subjects.full}`, `/v2/movie/subject/${Subjects.full}/photos`, `/v2/movie/subject/${Subjects.full}/reviews`,
      `/v2/movie/subject/${Subjects.full}/comments`, `/v2/movie/celebrity/${Celebrities.wang}`, `/v2/movie/celebrity/${Celebrities.wang}/works`,
      `/v2/movie/celebrity/${Celebrities.wang}/photos`, '/v2/movie/top250', '/v2/movie/us_box', '/v2/movie/weekly', '/v2/movie/in_theaters',
      '/v2/movie/coming_soon', '/v2/movie/new_movies',
    ];
    const snapshot = () => Promise.all(reads.map(async (url) => [url, (await get(url, asTier('advance'))).body]));
    const before = await snapshot();
    expectLoaded(importFile(join(root, 'apps/api-e2e/fixtures/movie.ndjson')));
    expect(await snapshot()).toEqual(before);
  }, 120_000);

  it('keeps views, works and lists in step with every import, and drops cached answers', async () => {
    expectLoaded(importRecords([
      { kind: 'celebrity', id: id('139', 1), name: '导入影人' },
      { kind: 'movie', id: id('269', 10), title: '旧片名', year: '2022', directors: [{ id: id('139', 1), name: '导入影人' }] },
    ]));
    expect((await subject(id('269', 10), 'basic')).body.title).toBe('旧片名');
    expect((await get(`/v2/movie/celebrity/${id('139', 1)}`)).body.works.map((w: any) => w.title)).toEqual(['旧片名']);

    // a changed title and role: the cached subject is dropped, the work follows
    expectLoaded(importRecords([{ kind: 'movie', id: id('269', 10), title: '新片名', year: '2022', writers: [{ id: id('139', 1), name: '导入影人' }] }]));
    expect((await subject(id('269', 10), 'basic')).body.title).toBe('新片名');
    const works = (await get(`/v2/movie/celebrity/${id('139', 1)}/works`, asTier('advance'))).body;
    expect(works.works.map((w: any) => [w.roles, w.subject.title])).toEqual([[['编剧'], '新片名']]);

    // no longer credited: the work is gone
    expectLoaded(importRecords([{ kind: 'movie', id: id('269', 10), title: '新片名', year: '2022' }]));
    expect((await get(`/v2/movie/celebrity/${id('139', 1)}/works`, asTier('advance'))).body).toMatchObject({ total: 0, works: [] });

    // a list shows the subject's new Simple Subject (a city no other test uses)
    const { body: locs } = await get('/v2/loc/list', { query: { count: 100 } });
    const others = (locs.locs as Array<{ id: string; name: string; habitable: string }>).filter((l) => l.habitable === 'yes' && !['108288', '108296'].includes(l.id));
    if (others.length < 2) return; // the event fixtures hold no spare city
    const city = others[others.length - 1];
    expectLoaded(importRecords([{ kind: 'movie_list', name: 'in_theaters', city: city.id, title: '导入城市', subjects: [{ subject_id: id('269', 10) }] }]));
    expect((await get('/v2/movie/in_theaters', { query: { city: city.name } })).body).toMatchObject({ title: '导入城市', total: 1, subjects: [{ title: '新片名' }] });
    expectLoaded(importRecords([{ kind: 'movie', id: id('269', 10), title: '第三个片名', year: '2022' }]));
    expect((await get('/v2/movie/in_theaters', { query: { city: city.name } })).body.subjects.map((s: any) => s.title)).toEqual(['第三个片名']);
  }, 120_000);

  it('keeps an album in time order as photos arrive, and moves a photo to its new subject', async () => {
    const photo = (photoId: string, subjectId: string, second: number) => ({ kind: 'movie_photo', id: photoId, subject_id: subjectId, created_at: at(second), author_id: '3002' });
    expectLoaded(importRecords([
      { kind: 'movie', id: id('269', 20), title: '相册一' }, { kind: 'movie', id: id('269', 21), title: '相册二' },
      photo(id('279', 21), id('269', 20), 1), photo(id('279', 23), id('269', 20), 3),
    ]));
    const album = async (subjectId: string) => (await get(`/v2/movie/subject/${subjectId}/photos`, asTier('advance'))).body.photos.map((p: any) => [p.id, p.position, p.prev_photo, p.next_photo, p.photos_count]);
    expect(await album(id('269', 20))).toEqual([[id('279', 21), 1, '', id('279', 23), 2], [id('279', 23), 2, id('279', 21), '', 2]]);

    expectLoaded(importRecords([photo(id('279', 22), id('269', 20), 2)]));
    expect(await album(id('269', 20))).toEqual([
      [id('279', 21), 1, '', id('279', 22), 3], [id('279', 22), 2, id('279', 21), id('279', 23), 3], [id('279', 23), 3, id('279', 22), '', 3],
    ]);
    expect((await subject(id('269', 20))).body.photos.map((p: any) => [p.id, p.position, p.photos_count])).toEqual([[id('279', 21), 1, 3], [id('279', 22), 2, 3], [id('279', 23), 3, 3]]);

    expectLoaded(importRecords([photo(id('279', 23), id('269', 21), 3)]));
    expect(await album(id('269', 20))).toEqual([[id('279', 21), 1, '', id('279', 22), 2], [id('279', 22), 2, id('279', 21), '', 2]]);
    expect(await album(id('269', 21))).toEqual([[id('279', 23), 1, '', '', 1]]);
    expect((await subject(id('269', 21))).body.photos.map((p: any) => [p.id, p.subject_id, p.album_title])).toEqual([[id('279', 23), id('269', 21), '相册二的剧照']]);
  }, 120_000);

  it('orders reviews by usefulness as they change, and counts comments as they arrive', async () => {
    const review = (reviewId: string, useful: number, day: number) => ({ kind: 'movie_review', id: reviewId, subject_id: id('269', 30), title: `评论${reviewId}`, summary: '摘要', created_at: `2022-07-${day} 08:00:00`, author_id: '3001', useful_count: useful });
    const comment = (commentId: string, day: number) => ({ kind: 'movie_comment', id: commentId, subject_id: id('269', 30), content: `短评${commentId}`, created_at: `2022-07-${day} 08:00:00`, author_id: '3003' });
    expectLoaded(importRecords([{ kind: 'movie', id: id('269', 30), title: '评论测试' }, review(id('289', 31), 5, 10), comment(id('299', 31), 10)]));
    let body = (await subject(id('269', 30))).body;
    expect({ reviews: body.popular_reviews.map((r: any) => r.id), reviews_count: body.reviews_count, comments_count: body.comments_count })
      .toEqual({ reviews: [id('289', 31)], reviews_count: 1, comments_count: 1 });

    expectLoaded(importRecords([review(id('289', 32), 50, 11), comment(id('299', 32), 11)]));
    body = (await subject(id('269', 30))).body;
    expect({ reviews: body.popular_reviews.map((r: any) => r.id), reviews_count: body.reviews_count, comments_count: body.comments_count })
      .toEqual({ reviews: [id('289', 32), id('289', 31)], reviews_count: 2, comments_count: 2 });
    expect((await get(`/v2/movie/subject/${id('269', 30)}/comments`, asTier('advance'))).body.comments.map((c: any) => c.id)).toEqual([id('299', 32), id('299', 31)]);

    expectLoaded(importRecords([review(id('289', 31), 100, 10)]));
    expect((await subject(id('269', 30))).body.popular_reviews.map((r: any) => [r.id, r.useful_count])).toEqual([[id('289', 31), 100], [id('289', 32), 50]]);
    expect((await get(`/v2/movie/subject/${id('269', 30)}/reviews`, asTier('advance'))).body.reviews.map((r: any) => r.id)).toEqual([id('289', 31), id('289', 32)]);
  }, 120_000);
});
