import { tokenFor } from '../support/auth';
import { PASSWORD, user } from '../support/fixtures';
import { get, post } from '../support/http';
import { ImportRun, importRecords } from '../support/import';

/**
 * Import of users' book content (docs/api/book.md, "Import of users' content"): collection
 * entries, reviews and annotations. A book and users of its own (2081-2083), ids of this run.
 */
const Bea = user('2081', 'book_imp_bea', 'Bea');
const Ben = user('2082', 'book_imp_ben', 'Ben');
const Bob = user('2083', 'book_imp_bob', 'Bob');
const RUN = String(Date.now()).slice(-6);
const BOOK = `29${RUN}1`;
const OTHER_BOOK = `29${RUN}2`;
const rid = (prefix: string, n: number) => `${prefix}${RUN}${n}`;

function expectLoaded(result: ImportRun): void {
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
}

const file = [
  ...[Bea, Ben, Bob].map((u) => ({ kind: 'user', id: u.id, uid: u.uid, name: u.name, password: PASSWORD })),
  { kind: 'book', id: BOOK, title: '导入用户内容的书', author: ['某人'] },
  { kind: 'book', id: OTHER_BOOK, title: '另一本书', author: ['某人'] },
  { kind: 'collection', id: rid('81', 1), user_id: Bea.id, book_id: BOOK, status: 'read', rating: { value: 4 }, tags: ['小说', '经典'], comment: '好书', updated: '2024-03-01 10:00:00' },
  { kind: 'collection', id: rid('81', 2), user: { uid: Ben.uid }, book_id: BOOK, status: 'wish', tags: '小说', privacy: 'private', updated: '2024-03-02 10:00:00' },
  { kind: 'book_review', id: rid('82', 1), book_id: BOOK, author_id: Bob.id, title: '评论', content: '很好的一本书。'.repeat(30), rating: 2, published: '2024-03-03 10:00:00', votes: 5 },
  { kind: 'annotation', id: rid('83', 1), book_id: BOOK, author_id: Bea.id, content: '第一页的笔记，写得足够长一些。', page_no: 1, created: '2024-03-04 10:00:00' },
  { kind: 'annotation', id: rid('83', 2), book_id: BOOK, author_id: Ben.id, content: '私密的章节笔记，也写得足够长。', chapter: '第一章', privacy: 'private', created: '2024-03-05 10:00:00' },
];

const book = async () => (await get(`/v2/book/${BOOK}`)).body;
const tagsOf = (b: { tags: Array<{ name: string; count: number }> }) => Object.fromEntries(b.tags.map((t) => [t.name, t.count]));

describe('import of users\' book content (docs/api/book.md)', () => {
  beforeAll(() => expectLoaded(importRecords(file)), 120_000);

  it('counts imported entries and reviews in the book\'s rating and tags', async () => {
    const b = await book();
    expect(b.rating.numRaters).toBe(2);
    expect(Number(b.rating.average)).toBe(6);
    expect(tagsOf(b)).toEqual({ 小说: 2, 经典: 1 });
  });

  it('shows entries with their ids, times and privacy', async () => {
    const entry = (await get(`/v2/book/${BOOK}/collection`, { query: { user_id: Bea.uid } })).body;
    expect(entry).toMatchObject({ id: Number(rid('81', 1)), status: 'read', rating: { value: '4' }, tags: ['小说', '经典'], comment: '好书', updated: '2024-03-01 10:00:00', user_id: Bea.id, book_id: BOOK });
    expect((await get(`/v2/book/${BOOK}/collection`, { query: { user_id: Ben.uid } })).status).toBe(404);
    const own = (await get(`/v2/book/${BOOK}/collection`, { token: await tokenFor(Ben) })).body;
    expect(own).toMatchObject({ id: Number(rid('81', 2)), status: 'wish', tags: ['小说'] });
    expect((await get(`/v2/book/user/${Bea.uid}/collections`)).body).toMatchObject({ total: 1, collections: [{ id: Number(rid('81', 1)) }] });
    expect((await get(`/v2/book/user/${Bea.uid}/tags`)).body.tags).toEqual(expect.arrayContaining([{ count: 1, title: '小说' }, { count: 1, title: '经典' }]));
  });

  it('shows annotations with their ids, placement and privacy', async () => {
    const a = (await get(`/v2/book/annotation/${rid('83', 1)}`)).body;
    expect(a).toMatchObject({ id: rid('83', 1), book_id: BOOK, author_id: Bea.id, page_no: 1, chapter: '' });
    expect((await get(`/v2/book/annotation/${rid('83', 2)}`)).status).toBe(404);
    expect((await get(`/v2/book/${BOOK}/annotations`)).body).toMatchObject({ total: 1, annotations: [{ id: rid('83', 1) }] });
  });

  it('changes nothing when the same file is imported again', async () => {
    const snapshot = async () => Promise.all([
      book(), (await get(`/v2/book/${BOOK}/collection`, { query: { user_id: Bea.uid } })).body, (await get(`/v2/book/annotation/${rid('83', 1)}`)).body,
      (await get(`/v2/book/user/${Bea.uid}/collections`)).body,
    ]);
    const before = await snapshot();
    expectLoaded(importRecords(file));
    expect(await snapshot()).toEqual(before);
  }, 120_000);

  it('keeps the rating right when an imported entry changes, and gives later API writes larger ids', async () => {
    expectLoaded(importRecords([{ ...file[5], rating: 1, tags: '经典' }]));
    const b = await book();
    expect(b.rating.numRaters).toBe(2);
    expect(Number(b.rating.average)).toBe(3);
    expect(tagsOf(b)).toEqual({ 小说: 1, 经典: 1 });
    const created = await post(`/v2/book/${OTHER_BOOK}/collection`, { token: await tokenFor(Bob), form: { status: 'read', rating: '5' } });
    expect(created.status).toBe(201);
    expect(created.body.id).toBeGreaterThan(Number(rid('81', 2)));
    const annotation = await post(`/v2/book/${OTHER_BOOK}/annotations`, { token: await tokenFor(Bob), form: { content: '后来写的笔记，长度要够十六个字。', page: '3' } });
    expect(annotation.status).toBe(201);
    expect(BigInt(annotation.body.id)).toBeGreaterThan(BigInt(rid('83', 2)));
    const review = await post('/v2/book/reviews', { token: await tokenFor(Bob), form: { book: OTHER_BOOK, title: '后来的评论', content: '内容'.repeat(100), rating: '3' } });
    expect(review.status).toBe(201);
    expect(review.body.id).toBeGreaterThan(Number(rid('82', 1)));
  }, 120_000);

  it('reports each bad line with its reason and stores nothing of it', async () => {
    // new ids far above the imported ones: entries other suites create on the shared stack take
    // the ids right after those (an import moves the id sequence)
    const result = importRecords([
      { kind: 'collection', id: rid('88', 5), user_id: '2999', book_id: BOOK, status: 'read', updated: '2024-03-01 10:00:00' },
      { kind: 'collection', id: rid('88', 6), user_id: Bob.id, book_id: '2999999999', status: 'read', updated: '2024-03-01 10:00:00' },
      { kind: 'collection', id: rid('88', 7), user_id: Bob.id, book_id: BOOK, status: 'gone', updated: '2024-03-01 10:00:00' },
      { kind: 'collection', id: rid('88', 8), user_id: Bob.id, book_id: BOOK, status: 'read', rating: 6, updated: '2024-03-01 10:00:00' },
      { kind: 'book_review', id: rid('82', 5), book_id: BOOK, author_id: Bob.id, title: 't', content: 'c', published: 'soon' },
      { kind: 'annotation', id: rid('83', 5), book_id: BOOK, author_id: Bob.id, content: '没有位置的笔记内容足够长', created: '2024-03-01 10:00:00' },
      // ids never collide: Bea's entry's id for Bob's entry, and Bea's entry again under another id
      { kind: 'collection', id: rid('81', 1), user_id: Bob.id, book_id: BOOK, status: 'read', rating: 5, updated: '2024-03-01 10:00:00' },
      { kind: 'collection', id: rid('88', 9), user_id: Bea.id, book_id: BOOK, status: 'wish', updated: '2024-03-01 10:00:00' },
    ]);
    expect(result.status).toBe(1);
    const problems = result.stderr.trim().split('\n');
    expect(problems.map((l) => Number(/^line (\d+)/.exec(l)?.[1]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(problems[0]).toMatch(/unknown user 2999/);
    expect(problems[1]).toMatch(/no book 2999999999/);
    expect(problems[2]).toMatch(/status/);
    expect(problems[3]).toMatch(/rating/);
    expect(problems[4]).toMatch(/published is not a timestamp/);
    expect(problems[5]).toMatch(/page_no or chapter is required/);
    expect(problems[6]).toMatch(new RegExp(`id ${rid('81', 1)} is already the id of another collection entry \\(user ${Bea.id}, book ${BOOK}\\)`));
    expect(problems[7]).toMatch(new RegExp(`user ${Bea.id} already has collection entry ${rid('81', 1)} for book ${BOOK}`));
    expect((await get(`/v2/book/${BOOK}/collection`, { query: { user_id: Bob.uid } })).status).toBe(404);
    // Bea's entry unchanged: its id, status and place in her list
    expect((await get(`/v2/book/${BOOK}/collection`, { query: { user_id: Bea.uid } })).body).toMatchObject({ id: Number(rid('81', 1)), status: 'read' });
    expect((await get(`/v2/book/user/${Bea.uid}/collections`)).body).toMatchObject({ total: 1, collections: [{ id: Number(rid('81', 1)) }] });
    expect((await book()).rating.numRaters).toBe(2);
  }, 120_000);
});
