import { clientToken, tokenFor } from '../support/auth';
import { Apps } from '../support/fixtures';
import { expectError, get } from '../support/http';
import { stackInfo } from '../support/stack-info';
import {
  asTier, chars, COMMENT_FIELDS, keysOf, MovieUsers, PHOTO_FIELDS, REVIEW_FIELDS, SIMPLE_SUBJECT_B_FIELDS, SIMPLE_USER_FIELDS, sorted, Subjects,
} from './movie-fixtures';

const photos = (id: string) => `/v2/movie/subject/${id}/photos`;
const reviews = (id: string) => `/v2/movie/subject/${id}/reviews`;
const comments = (id: string) => `/v2/movie/subject/${id}/comments`;
const web = () => `${stackInfo().baseUrl}/web`;

describe('subject photos, reviews and comments: tiers A and P only', () => {
  it.each([photos, reviews, comments].map((p) => [p(Subjects.full)]))('%s answers the basic tier 404/1001', async (url) => {
    expectError(await get(url), 404, 1001, `GET ${url}`);
    expectError(await get(url, { token: await tokenFor(MovieUsers.critic, Apps.basic) }), 404, 1001);
  });

  it('answers a token without a movie scope 403/109, whatever its tier', async () => {
    // test-book-only is a premium app granted book scopes only
    const bookOnly = await clientToken(Apps.bookOnly);
    for (const url of [photos, reviews, comments].map((p) => p(Subjects.full)).concat(`/v2/movie/subject/${Subjects.full}`)) {
      expectError(await get(url, { token: bookOnly }), 403, 109);
    }
  });

  it.each([photos, reviews, comments].map((p) => [p(Subjects.full)]))('%s answers advance and premium', async (url) => {
    expect((await get(url, asTier('advance'))).status).toBe(200);
    expect((await get(url, asTier('premium'))).status).toBe(200);
    expect((await get(url, { token: await tokenFor(MovieUsers.critic, Apps.premium) })).status).toBe(200);
  });

  it('answers 404/1001 for a subject that does not exist', async () => {
    for (const p of [photos, reviews, comments]) expectError(await get(p(Subjects.missing), asTier('advance')), 404, 1001);
  });
});

describe('GET /v2/movie/subject/:id/photos', () => {
  it('pages the album: {start, count, total, subject, photos}, 10 by default, in time order with neighbours', async () => {
    const { body } = await get(photos(Subjects.full), asTier('advance'));
    expect(keysOf(body)).toEqual(['count', 'photos', 'start', 'subject', 'total']);
    expect({ start: body.start, count: body.count, total: body.total }).toEqual({ start: 0, count: 10, total: 12 });
    expect(keysOf(body.subject)).toEqual(sorted([...SIMPLE_SUBJECT_B_FIELDS, 'pubdates']));
    expect(body.subject.id).toBe(Subjects.full);
    const list = body.photos as Array<Record<string, any>>;
    expect(list.map((p) => p.id)).toEqual(Array.from({ length: 10 }, (_, i) => String(2700001 + i)));
    list.forEach((p, i) => {
      expect(keysOf(p)).toEqual(sorted(PHOTO_FIELDS));
      expect(p.position).toBe(i + 1);
      expect(p.photos_count).toBe(12);
      expect(p.prev_photo).toBe(i === 0 ? '' : String(2700000 + i));
      expect(p.next_photo).toBe(String(2700002 + i));
    });
  });

  it('shows the author as identity knows them (not the name sent in the record)', async () => {
    const { body } = await get(photos(Subjects.full), asTier('advance', { count: 1 }));
    expect(body.photos[0].author).toEqual({
      id: '3001', name: '影评人阿木', uid: 'movie_critic', signature: '只看好电影', alt: `${web()}/people/movie_critic/`, avatar: `${web()}/avatars/movie_critic.png`,
    });
    expect(keysOf(body.photos[0].author)).toEqual(SIMPLE_USER_FIELDS);
  });

  it('fills the addresses and album fields a record leaves out, and keeps those it gives', async () => {
    const { body } = await get(photos(Subjects.full), asTier('advance', { count: 2 }));
    const [bare, given] = body.photos;
    expect(bare).toMatchObject({
      id: '2700001', subject_id: Subjects.full, alt: `${web()}/movie/photos/photo/2700001/`, icon: `${web()}/movie/img/photo/icon/2700001.jpg`,
      image: `${web()}/movie/img/photo/image/2700001.jpg`, thumb: `${web()}/movie/img/photo/thumb/2700001.jpg`, cover: `${web()}/movie/img/photo/cover/2700001.jpg`,
      created_at: '2021-01-01 10:00:01', desc: '', album_id: Subjects.full, album_title: '春天的故事的剧照',
      album_url: `${web()}/movie/subject/${Subjects.full}/photos/`, comments_count: 0,
    });
    expect(given).toMatchObject({
      alt: 'http://web.example.test/photo/2700002/', image: 'http://img.example.test/photo/image/2.jpg', desc: '剧照 2',
      album_id: '2710001', album_title: '春天的故事 剧照', album_url: 'http://web.example.test/album/2710001/', comments_count: 2,
    });
  });

  it('pages past the first photos with the right positions, and ends with an empty next_photo', async () => {
    const { body } = await get(photos(Subjects.full), asTier('premium', { start: 10, count: 10 }));
    expect({ start: body.start, count: body.count, total: body.total }).toEqual({ start: 10, count: 2, total: 12 });
    expect(body.photos.map((p: Record<string, unknown>) => [p.id, p.position, p.prev_photo, p.next_photo])).toEqual([
      ['2700011', 11, '2700010', '2700012'],
      ['2700012', 12, '2700011', ''],
    ]);
  });

  it('cuts an over-large count to 100, answers count=0 with the true total, and a start past the end with nothing', async () => {
    expect((await get(photos(Subjects.full), asTier('advance', { count: 500 }))).body.count).toBe(12);
    expect((await get(photos(Subjects.full), asTier('advance', { count: 0 }))).body).toMatchObject({ start: 0, count: 0, total: 12, photos: [] });
    expect((await get(photos(Subjects.full), asTier('advance', { start: 50 }))).body).toMatchObject({ start: 50, count: 0, total: 12, photos: [] });
  });

  it.each([['start', '-1'], ['start', 'abc'], ['count', '-5'], ['count', '1.5']])('answers %s=%s with 400/1016', async (name, value) => {
    expectError(await get(photos(Subjects.full), asTier('advance', { [name]: value })), 400, 1016);
  });

  it('applies fields to each photo and keeps the envelope', async () => {
    const { body } = await get(photos(Subjects.full), asTier('advance', { fields: 'id,position', count: 2 }));
    expect(body).toMatchObject({ start: 0, count: 2, total: 12 });
    expect(body.subject.id).toBe(Subjects.full);
    expect(body.photos).toEqual([{ id: '2700001', position: 1 }, { id: '2700002', position: 2 }]);
  });

  it('answers a subject without photos with an empty album', async () => {
    expect((await get(photos(Subjects.minimalMovie), asTier('advance'))).body).toMatchObject({ start: 0, count: 0, total: 0, photos: [] });
  });

  it('answers a subject without reviews or comments with empty pages (total 0)', async () => {
    expect((await get(reviews(Subjects.minimalMovie), asTier('advance'))).body).toMatchObject({ start: 0, count: 0, total: 0, reviews: [] });
    expect((await get(comments(Subjects.minimalMovie), asTier('advance'))).body).toMatchObject({ start: 0, count: 0, total: 0, comments: [] });
  });
});

describe('GET /v2/movie/subject/:id/reviews', () => {
  it('pages reviews most useful first, each a movie Review with its summary cut to 100 characters', async () => {
    const { body } = await get(reviews(Subjects.full), asTier('advance'));
    expect({ start: body.start, count: body.count, total: body.total }).toEqual({ start: 0, count: 10, total: 12 });
    expect(body.subject.title).toBe('春天的故事');
    const list = body.reviews as Array<Record<string, any>>;
    expect(list.map((r) => r.useful_count)).toEqual([120, 110, 100, 90, 80, 70, 60, 50, 40, 30]);
    for (const r of list) expect(keysOf(r)).toEqual(sorted(REVIEW_FIELDS));
    expect(chars(list[0].summary)).toBe(100);
    expect(list[1].summary).toBe('只有正文的评论，没有摘要。');
  });

  it('shows a review exactly as loaded', async () => {
    const { body } = await get(reviews(Subjects.full), asTier('advance', { start: 11 }));
    expect(body.reviews).toEqual([{
      id: '2800001', title: '评论 1', alt: `${web()}/movie/review/2800001/`, created_at: '2021-03-01 12:00:00', updated_at: '2021-03-01 12:00:00',
      subject_id: Subjects.full,
      author: { id: '3001', name: '影评人阿木', uid: 'movie_critic', signature: '只看好电影', alt: `${web()}/people/movie_critic/`, avatar: `${web()}/avatars/movie_critic.png` },
      summary: '第1篇评论的摘要。', rating: { min: 0, max: 5, value: 2 }, useful_count: 10, useless_count: 1, comments_count: 2,
    }]);
  });

  it('agrees with the subject\'s popular_reviews', async () => {
    const [page, subject] = await Promise.all([get(reviews(Subjects.full), asTier('advance')), get(`/v2/movie/subject/${Subjects.full}`, asTier('advance'))]);
    expect(subject.body.popular_reviews).toEqual(page.body.reviews);
  });
});

describe('GET /v2/movie/subject/:id/comments', () => {
  it('pages short comments newest first, each cut to 140 characters', async () => {
    const { body } = await get(comments(Subjects.full), asTier('premium'));
    expect({ start: body.start, count: body.count, total: body.total }).toEqual({ start: 0, count: 10, total: 12 });
    const list = body.comments as Array<Record<string, any>>;
    expect(list.map((c) => c.id)).toEqual(Array.from({ length: 10 }, (_, i) => String(2900012 - i)));
    for (const c of list) expect(keysOf(c)).toEqual(sorted(COMMENT_FIELDS));
    // 200 characters of "好看😀": the cut counts characters, so no emoji is split in half
    expect(chars(list[0].content)).toBe(140);
    expect(list[0].content).toBe(Array.from({ length: 140 }, (_, i) => ['好', '看', '😀'][i % 3]).join(''));
  });

  it('shows a comment exactly as loaded; an author without a signature has an empty one', async () => {
    const { body } = await get(comments(Subjects.full), asTier('advance', { start: 11 }));
    expect(body.comments).toEqual([{
      id: '2900001', created_at: '2021-04-01 09:30:00', subject_id: Subjects.full,
      author: { id: '3003', name: '沉默的观众', uid: 'movie_quiet', signature: '', alt: `${web()}/people/movie_quiet/`, avatar: `${web()}/avatars/movie_quiet.png` },
      content: '短评 1', rating: { min: 0, max: 5, value: 1 }, useful_count: 1,
    }]);
  });

  it('keeps the envelope and each comment\'s own subject when fields are asked for', async () => {
    const { body } = await get(comments(Subjects.fullTv), asTier('advance', { fields: 'content' }));
    expect(body).toMatchObject({ start: 0, count: 1, total: 1, comments: [{ content: '剧集短评' }] });
    expect(body.subject.id).toBe(Subjects.fullTv);
  });
});
