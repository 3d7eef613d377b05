import { Apps } from '../support/fixtures';
import { tokenFor } from '../support/auth';
import { del, expectError, get, post, put } from '../support/http';
import { stackInfo } from '../support/stack-info';
import { BookUsers, MISSING_BOOK } from './book-support';

const { reviewer, revPeer } = BookUsers;
/** 151 characters: the shortest content accepted ("more than 150"). */
const LONG = '书'.repeat(151);
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const rating = async (book: string) => (await get(`/v2/book/${book}`)).body.rating;

describe('POST /v2/book/reviews', () => {
  it('creates a review: 201 with the full content, and its rating counts in the book\'s (r as 2r)', async () => {
    expect(await rating('2400001')).toEqual({ max: 10, numRaters: 4, average: '5.0', min: 0 });
    const res = await post('/v2/book/reviews', { token: await tokenFor(reviewer), form: { book: '2400001', title: '好书 <b>!</b>', content: LONG, rating: 5 } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      title: '好书 <b>!</b>',
      alt: `${stackInfo().baseUrl}/web/book/review/${res.body.id}/`,
      author: expect.objectContaining({ id: reviewer.id, uid: reviewer.uid, name: reviewer.name, signature: `${reviewer.name} 的签名` }),
      book: expect.objectContaining({ id: '2400001', title: '书评测试之书 Reviewed 1' }),
      rating: { max: 5, value: '5', min: 0 },
      votes: 0,
      useless: 0,
      comments: 0,
      content: LONG,
      published: expect.stringMatching(TIMESTAMP),
      updated: expect.stringMatching(TIMESTAMP),
    });
    expect(res.body).not.toHaveProperty('summary');
    // (4 × 5.0 + 10) / 5
    expect(res.body.book.rating).toEqual({ max: 10, numRaters: 5, average: '6.0', min: 0 });
    expect(await rating('2400001')).toEqual({ max: 10, numRaters: 5, average: '6.0', min: 0 });
  });

  it('takes an unrated review (rating left out or empty) and JSON bodies', async () => {
    const token = await tokenFor(reviewer);
    const res = await post('/v2/book/reviews', { token, json: { book: '2400002', title: '无评分', content: LONG, rating: '' } });
    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty('rating');
    expect(await rating('2400002')).toEqual({ max: 10, numRaters: 4, average: '5.0', min: 0 });
  });

  it.each([
    ['no book', 400, 1002, { title: 't', content: LONG }],
    ['a book id that is not digits', 400, 1016, { book: 'abc', title: 't', content: LONG }],
    ['no title', 400, 1012, { book: '2400003', content: LONG }],
    ['a blank title', 400, 1012, { book: '2400003', title: '   ', content: LONG }],
    ['a title of 101 characters', 400, 1016, { book: '2400003', title: 't'.repeat(101), content: LONG }],
    ['no content', 400, 1002, { book: '2400003', title: 't' }],
    ['content of 150 characters', 400, 6004, { book: '2400003', title: 't', content: '书'.repeat(150) }],
    ['rating 0', 400, 1016, { book: '2400003', title: 't', content: LONG, rating: '0' }],
    ['rating 6', 400, 1016, { book: '2400003', title: 't', content: LONG, rating: '6' }],
  ])('rejects %s with %i/%i and changes nothing', async (_, status, code, form) => {
    const res = await post('/v2/book/reviews', { token: await tokenFor(reviewer), form: form as Record<string, string> });
    expectError(res, status, code, 'POST /v2/book/reviews');
    if (code === 6004) expect(res.body.msg).toBe('review_content_short(should more than 150)');
    expect(await rating('2400003')).toEqual({ max: 10, numRaters: 4, average: '5.0', min: 0 });
  });

  it('answers 404/6000 for a missing book, however long its id', async () => {
    for (const book of [MISSING_BOOK, '9'.repeat(200)]) {
      expectError(await post('/v2/book/reviews', { token: await tokenFor(reviewer), form: { book, title: 't', content: LONG } }), 404, 6000);
    }
  });

  it('needs a logged-in user and the scope service_basic_common', async () => {
    expectError(await post('/v2/book/reviews', { form: { book: '2400003', title: 't', content: LONG } }), 403, 1000);
    expectError(await post('/v2/book/reviews', { token: await tokenFor(reviewer, Apps.bookOnly), form: { book: '2400003', title: 't', content: LONG } }), 403, 109);
    expectError(
      await post('/v2/book/reviews', { token: await tokenFor(reviewer, Apps.premium, 'book_basic_r,book_basic_w'), form: { book: '2400003', title: 't', content: LONG } }),
      403,
      109,
    );
  });
});

describe('PUT and DELETE /v2/book/review/:id', () => {
  let id: number;

  beforeAll(async () => {
    const res = await post('/v2/book/reviews', { token: await tokenFor(reviewer), form: { book: '2400004', title: '初稿', content: LONG, rating: 1 } });
    id = res.body.id;
    expect(await rating('2400004')).toEqual({ max: 10, numRaters: 5, average: '4.4', min: 0 });
  });

  it('lets the author change it: 202 with the full content; the book\'s rating follows', async () => {
    const content = `${LONG}改`;
    const res = await put(`/v2/book/review/${id}`, { token: await tokenFor(reviewer), form: { title: '定稿', content, rating: 4 } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ id, title: '定稿', content, rating: { max: 5, value: '4', min: 0 } });
    expect(res.body.updated).toMatch(TIMESTAMP);
    // (4 × 5.0 + 8) / 5
    expect(await rating('2400004')).toEqual({ max: 10, numRaters: 5, average: '5.6', min: 0 });
  });

  it('refuses everyone else with 403/6002 and changes nothing', async () => {
    const peer = await tokenFor(revPeer);
    expectError(await put(`/v2/book/review/${id}`, { token: peer, form: { title: 'mine now', content: LONG, rating: 1 } }), 403, 6002, `PUT /v2/book/review/${id}`);
    expectError(await del(`/v2/book/review/${id}`, { token: peer }), 403, 6002);
    expect(await rating('2400004')).toEqual({ max: 10, numRaters: 5, average: '5.6', min: 0 });
  });

  it('checks the same limits on update', async () => {
    const token = await tokenFor(reviewer);
    expectError(await put(`/v2/book/review/${id}`, { token, form: { title: 't', content: 'short' } }), 400, 6004);
    expectError(await put(`/v2/book/review/${id}`, { token, form: { content: LONG } }), 400, 1012);
    expectError(await put(`/v2/book/review/${id}`, { token, form: { title: 't' } }), 400, 1002);
    expectError(await put(`/v2/book/review/${id}`, { token, form: { title: 't', content: LONG, rating: '9' } }), 400, 1016);
    expect(await rating('2400004')).toEqual({ max: 10, numRaters: 5, average: '5.6', min: 0 });
  });

  it('answers 404/6006 for a missing review', async () => {
    const token = await tokenFor(reviewer);
    expectError(await put('/v2/book/review/999999999', { token, form: { title: 't', content: LONG } }), 404, 6006);
    expectError(await del('/v2/book/review/999999999', { token }), 404, 6006, 'DELETE /v2/book/review/999999999');
    expectError(await del('/v2/book/review/12345678901234567890', { token }), 404, 6006);
  });

  it('lets the author delete it: 200 with {}; the rating leaves the book', async () => {
    const token = await tokenFor(reviewer);
    const res = await del(`/v2/book/review/${id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(await rating('2400004')).toEqual({ max: 10, numRaters: 4, average: '5.0', min: 0 });
    expectError(await del(`/v2/book/review/${id}`, { token }), 404, 6006);
    expectError(await put(`/v2/book/review/${id}`, { token, form: { title: 't', content: LONG } }), 404, 6006);
  });
});
