import { tokenFor } from '../support/auth';
import { PASSWORD, user } from '../support/fixtures';
import { del, get, post, put } from '../support/http';
import { importRecords } from '../support/import';

/**
 * The order of search results follows what users do, and a user's tags follow their entries: the
 * ranking fields stored with each book, `book_tag_ranks` and `user_tag_counts` on the MongoDB
 * branch, the in-memory indexes on the local one (this suite runs in `e2e` and `e2e-mongodb`).
 * Its own books (2170001–2170004) and users (2170101–2170103).
 */
const users = [user('2170101', 'so_first'), user('2170102', 'so_second'), user('2170103', 'so_third')];
const TAG = '次序标签';
const book = (id: string, title: string, raters: number, extra: object = {}) => ({ kind: 'book', id, title, rating: { numRaters: raters, average: '7.0' }, ...extra });
const ids = (body: { books: Array<{ id: string }> }) => body.books.map((b) => b.id);
const tagSearch = async () => ids((await get('/v2/book/search', { query: { tag: TAG } })).body);
const path = (id: string) => `/v2/book/${id}/collection`;

describe('search order and user tags after writes', () => {
  const tokens: string[] = [];
  beforeAll(async () => {
    const run = importRecords([
      ...users.map((u) => ({ kind: 'user', id: u.id, uid: u.uid, name: u.name, password: PASSWORD })),
      book('2170001', '次序之书 Orderbook', 48, { tags: [{ name: TAG, count: 2 }] }),
      book('2170002', 'Orderbook Companion', 50, { tags: [{ name: TAG, count: 3 }] }),
      book('2170003', 'Something Else', 500, { author: ['Orderbook Author'] }),
      book('2170004', 'Orderbook', 0),
    ]);
    expect(run.status).toBe(0);
    for (const u of users) tokens.push(await tokenFor(u));
  });

  it('ranks the exact title, then titles by raters, then other fields; ratings move a book within its tier', async () => {
    expect(ids((await get('/v2/book/search', { query: { q: 'orderbook' } })).body)).toEqual(['2170004', '2170002', '2170001', '2170003']);
    for (const token of tokens) expect((await post(path('2170001'), { token, form: { status: 'read', rating: 4 } })).status).toBe(201);
    // 48 + 3 raters: now above the 50 of 2170002, still below the exact title
    expect(ids((await get('/v2/book/search', { query: { q: 'orderbook' } })).body)).toEqual(['2170004', '2170001', '2170002', '2170003']);
    const page = (await get('/v2/book/search', { query: { q: 'orderbook', start: 1, count: 2 } })).body;
    expect({ ids: ids(page), total: page.total }).toEqual({ ids: ['2170001', '2170002'], total: 4 });
    for (const token of tokens) expect((await del(path('2170001'), { token })).status).toBe(204);
    expect(ids((await get('/v2/book/search', { query: { q: 'orderbook' } })).body)).toEqual(['2170004', '2170002', '2170001', '2170003']);
  });

  it('orders a tag by how often the book got it, users included, as their entries come and go', async () => {
    expect(await tagSearch()).toEqual(['2170002', '2170001']);
    for (const token of tokens.slice(0, 2)) expect((await post(path('2170001'), { token, form: { status: 'wish', tags: TAG } })).status).toBe(201);
    // 2 + 2 users: above the 3 of 2170002
    expect(await tagSearch()).toEqual(['2170001', '2170002']);
    expect((await put(path('2170001'), { token: tokens[0], form: { status: 'wish', tags: '别的' } })).status).toBe(202);
    // 3 each: the lower id first
    expect(await tagSearch()).toEqual(['2170001', '2170002']);
    expect((await del(path('2170001'), { token: tokens[1] })).status).toBe(204);
    expect(await tagSearch()).toEqual(['2170002', '2170001']);
    // a users' tag only: found while counted, gone with its last entry
    expect((await post(path('2170004'), { token: tokens[2], form: { status: 'wish', tags: '只此一家' } })).status).toBe(201);
    expect(ids((await get('/v2/book/search', { query: { tag: '只此一家' } })).body)).toEqual(['2170004']);
    expect((await del(path('2170004'), { token: tokens[2] })).status).toBe(204);
    expect((await get('/v2/book/search', { query: { tag: '只此一家' } })).body.total).toBe(0);
  });

  it("pages a user's tags, the most used first, private entries for the owner only", async () => {
    const [token] = tokens.slice(2);
    const owner = users[2].uid;
    expect((await post(path('2170002'), { token, form: { status: 'read', tags: '甲 乙' } })).status).toBe(201);
    expect((await post(path('2170003'), { token, form: { status: 'read', tags: '甲', privacy: 'private' } })).status).toBe(201);
    const mine = (await get(`/v2/book/user/${owner}/tags`, { token })).body;
    expect(mine).toEqual({ start: 0, count: 2, total: 2, tags: [{ count: 2, title: '甲' }, { count: 1, title: '乙' }] });
    const theirs = (await get(`/v2/book/user/${owner}/tags`, { query: { start: 1, count: 1 } })).body;
    expect(theirs).toEqual({ start: 1, count: 1, total: 2, tags: [{ count: 1, title: '甲' }] });
    // the private entry made public, then retagged: counts follow
    expect((await put(path('2170003'), { token, form: { status: 'read', tags: '丙' } })).status).toBe(202);
    expect((await get(`/v2/book/user/${owner}/tags`)).body.tags).toEqual([{ count: 1, title: '丙' }, { count: 1, title: '乙' }, { count: 1, title: '甲' }]);
  });
});
