import { createHash } from 'node:crypto';
import { Apps, crowd } from '../support/fixtures';
import { clientToken, tokenFor } from '../support/auth';
import { del, expectError, get, post, put } from '../support/http';
import { BookUsers, MISSING_BOOK, multipart } from './book-support';

const { collector, peer, third, tagger, racer } = BookUsers;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Seconds between a `yyyy-MM-dd HH:mm:ss` in Asia/Shanghai (the default zone) and now. */
const secondsFromNow = (stamp: string) => Math.abs(Date.parse(`${stamp.replace(' ', 'T')}+08:00`) - Date.now()) / 1000;

describe('collection state table (docs/api/book.md, "Collections")', () => {
  const book = '2200001';
  const path = `/v2/book/${book}/collection`;

  it('no entry + POST → 201 and the Collection', async () => {
    const token = await tokenFor(collector);
    const res = await post(path, { token, form: { status: 'wish', tags: '小说  经典 小说', comment: '想读', rating: 4 } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      book: expect.objectContaining({ id: book, title: '收藏测试之书 Collectable 1' }),
      book_id: book,
      comment: '想读',
      id: expect.any(Number),
      rating: { max: 5, value: '4', min: 0 },
      status: 'wish',
      tags: ['小说', '经典'],
      updated: expect.stringMatching(TIMESTAMP),
      user_id: collector.id,
    });
    expect(secondsFromNow(res.body.updated)).toBeLessThan(120);
    expect(res.body.book).not.toHaveProperty('current_user_collection');
  });

  it('entry exists + POST → 409/6011, entry unchanged', async () => {
    const token = await tokenFor(collector);
    const before = await get(path, { token });
    const res = await post(path, { token, form: { status: 'read', comment: 'changed?' } });
    expectError(res, 409, 6011, `POST ${path}`);
    expect(res.body.msg).toBe('collection_exist(try PUT if you want to update)');
    expect((await get(path, { token })).body).toEqual(before.body);
  });

  it('entry exists + PUT → 202 with the status sent; doing is stored as reading', async () => {
    const token = await tokenFor(collector);
    const id = (await get(path, { token })).body.id;
    const res = await put(path, { token, form: { status: 'doing', tags: '经典', comment: '在读' } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ id, status: 'reading', tags: ['经典'], comment: '在读', user_id: collector.id });
    // PUT replaces the entry: the rating it left out is gone
    expect(res.body).not.toHaveProperty('rating');
  });

  it('done is stored as read', async () => {
    const token = await tokenFor(collector);
    expect((await put(path, { token, json: { status: 'done', rating: 5 } })).body).toMatchObject({ status: 'read', rating: { value: '5' } });
  });

  it('entry exists + DELETE → 204 with an empty body; then the entry is absent', async () => {
    const token = await tokenFor(collector);
    const res = await del(path, { token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await get(path, { token }), 404, 1001, `GET ${path}`);
    expectError(await del(path, { token }), 404, 1001);
    expectError(await put(path, { token, form: { status: 'wish' } }), 404, 1001);
    // and it can be created again
    expect((await post(path, { token, form: { status: 'wish' } })).status).toBe(201);
  });

  it('accepts JSON and multipart bodies too', async () => {
    const token = await tokenFor(collector);
    const json = await post('/v2/book/2200002/collection', { token, json: { status: 'reading', rating: 2, tags: ['a', 'b'] } });
    expect(json.status).toBe(201);
    expect(json.body).toMatchObject({ status: 'reading', rating: { value: '2' }, tags: ['a', 'b'] });
    const form = await put('/v2/book/2200002/collection', { token, multipart: multipart({ status: 'read', comment: 'multipart' }) });
    expect(form.status).toBe(202);
    expect(form.body).toMatchObject({ status: 'read', comment: 'multipart' });
  });
});

describe('collection writes: limits and errors', () => {
  const book = '2200004';
  const path = `/v2/book/${book}/collection`;

  beforeAll(async () => {
    expect((await post(path, { token: await tokenFor(peer), form: { status: 'wish', comment: 'original', rating: 3, tags: 'keep' } })).status).toBe(201);
  });

  it.each([
    ['no status', 400, 1002, {}],
    ['an empty status', 400, 1002, { status: '' }],
    ['an unknown status', 400, 1016, { status: 'finished' }],
    ['a comment of 351 characters', 400, 6010, { status: 'wish', comment: '评'.repeat(351) }],
    ['rating 0', 400, 1016, { status: 'wish', rating: 0 }],
    ['rating 6', 400, 1016, { status: 'wish', rating: 6 }],
    ['rating 4.5', 400, 1016, { status: 'wish', rating: '4.5' }],
    ['rating abc', 400, 1016, { status: 'wish', rating: 'abc' }],
    ['21 tags', 400, 1016, { status: 'wish', tags: Array.from({ length: 21 }, (_, i) => `t${i}`).join(' ') }],
    ['a tag of 51 characters', 400, 1016, { status: 'wish', tags: 'x'.repeat(51) }],
  ])('PUT with %s → %i/%i and nothing changes', async (_, status, code, form) => {
    const token = await tokenFor(peer);
    const before = await get(path, { token });
    expectError(await put(path, { token, form: form as Record<string, string> }), status, code, `PUT ${path}`);
    expect((await get(path, { token })).body).toEqual(before.body);
  });

  it('POST checks the same limits (6010 for a long comment) before anything is stored', async () => {
    const token = await tokenFor(third);
    expectError(await post('/v2/book/2200005/collection', { token, form: { status: 'wish', comment: 'x'.repeat(351) } }), 400, 6010);
    expectError(await get('/v2/book/2200005/collection', { token }), 404, 1001);
  });

  it('takes a comment of exactly 350 characters, and rating= as no rating', async () => {
    const token = await tokenFor(third);
    const res = await post('/v2/book/2200005/collection', { token, form: { status: 'wish', comment: '评'.repeat(350), rating: '' } });
    expect(res.status).toBe(201);
    expect(res.body.comment).toHaveLength(350);
    expect(res.body).not.toHaveProperty('rating');
  });

  it('answers 404/6000 for a missing book on every write', async () => {
    const token = await tokenFor(peer);
    const missing = `/v2/book/${MISSING_BOOK}/collection`;
    expectError(await post(missing, { token, form: { status: 'wish' } }), 404, 6000);
    expectError(await put(missing, { token, form: { status: 'wish' } }), 404, 6000);
    expectError(await del(missing, { token }), 404, 6000);
  });

  it('needs a logged-in user with book_basic_w', async () => {
    expectError(await post(path, { form: { status: 'wish' } }), 403, 1000);
    expectError(await post(path, { token: await clientToken(Apps.premium), form: { status: 'wish' } }), 403, 1000);
    expectError(await post(path, { token: await tokenFor(peer, Apps.bookOnly), form: { status: 'wish' } }), 403, 109);
    expectError(await del(path, { token: await tokenFor(peer, Apps.premium, 'book_basic_r') }), 403, 109);
  });

  it('never touches another user\'s entry: a PUT or DELETE by someone else acts on their own (absent) entry', async () => {
    const other = await tokenFor(third);
    expectError(await put(path, { token: other, form: { status: 'read' } }), 404, 1001);
    expectError(await del(path, { token: other }), 404, 1001);
    expect((await get(path, { token: await tokenFor(peer) })).body).toMatchObject({ status: 'wish', comment: 'original' });
  });
});

describe('GET /v2/book/:id/collection', () => {
  const book = '2200006';
  const path = `/v2/book/${book}/collection`;

  beforeAll(async () => {
    expect((await post(path, { token: await tokenFor(collector), form: { status: 'read', comment: 'public one' } })).status).toBe(201);
    expect((await post(path, { token: await tokenFor(peer), form: { status: 'wish', privacy: 'private', comment: 'secret' } })).status).toBe(201);
  });

  it('without user_id needs a logged-in user (403/1000) and returns the caller\'s entry', async () => {
    expectError(await get(path), 403, 1000, `GET ${path}`);
    expect((await get(path, { token: await tokenFor(collector) })).body.comment).toBe('public one');
  });

  it('with user_id (uid or numeric id) returns that user\'s public entry, to anyone', async () => {
    for (const ref of [collector.uid, collector.id]) {
      const res = await get(path, { query: { user_id: ref } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ user_id: collector.id, comment: 'public one', book_id: book });
    }
  });

  it('treats any privacy but private as public (docs/api/book.md, "POST /v2/book/:id/collection"), however long', async () => {
    for (const [owner, privacy] of [[crowd(199), 'friends'], [crowd(200), 'x'.repeat(300)]] as const) {
      expect((await post(path, { token: await tokenFor(owner), form: { status: 'wish', privacy } })).status).toBe(201);
      expect((await get(path, { query: { user_id: owner.uid } })).body).toMatchObject({ user_id: owner.id, status: 'wish' });
    }
  });

  it('gives 404/1001 for a private entry to everyone but its owner', async () => {
    expectError(await get(path, { query: { user_id: peer.uid } }), 404, 1001);
    expectError(await get(path, { query: { user_id: peer.id }, token: await tokenFor(collector) }), 404, 1001);
    expect((await get(path, { token: await tokenFor(peer) })).body.comment).toBe('secret');
    expect((await get(path, { query: { user_id: peer.uid }, token: await tokenFor(peer) })).body.comment).toBe('secret');
  });

  it('gives 404/1001 for a user without an entry, 404/6008 for an unknown user, 404/6000 for a missing book', async () => {
    expectError(await get(path, { query: { user_id: third.uid } }), 404, 1001);
    expectError(await get(path, { query: { user_id: 'no_such_reader' } }), 404, 6008);
    expectError(await get(`/v2/book/${MISSING_BOOK}/collection`, { query: { user_id: collector.uid } }), 404, 6000);
  });

  it('shows current_user_collection on the book for the private owner only', async () => {
    expect((await get(`/v2/book/${book}`, { token: await tokenFor(peer) })).body.current_user_collection).toMatchObject({ status: 'wish', user_id: peer.id });
    expect((await get(`/v2/book/${book}`, { token: await tokenFor(collector) })).body.current_user_collection).toMatchObject({ status: 'read', user_id: collector.id });
    expect((await get(`/v2/book/${book}`, { token: await tokenFor(third) })).body).not.toHaveProperty('current_user_collection');
  });
});

describe('a user\'s collections and tags', () => {
  // tagger: 2200007 public (读书 科幻, 5), 2200008 private (读书 私密, 2), 2200009 public (读书, no rating, wish)
  beforeAll(async () => {
    const token = await tokenFor(tagger);
    const writes: Array<[string, Record<string, string | number>]> = [
      ['2200007', { status: 'read', tags: '读书 科幻', rating: 5 }],
      ['2200008', { status: 'reading', tags: '读书 私密', rating: 2, privacy: 'private' }],
      ['2200009', { status: 'wish', tags: '读书' }],
    ];
    for (const [book, form] of writes) {
      const res = await post(`/v2/book/${book}/collection`, { token, form });
      expect(res.status).toBe(201);
      await new Promise((r) => setTimeout(r, 1100)); // distinct update times, one second apart
    }
  });

  const path = `/v2/book/user/${tagger.uid}/collections`;
  const bookIds = (body: { collections: Array<{ book_id: string }> }) => body.collections.map((c) => c.book_id);

  it('lists the newest change first; others see public entries only', async () => {
    const mine = await get(path, { token: await tokenFor(tagger) });
    expect(mine.body).toMatchObject({ start: 0, count: 3, total: 3 });
    expect(bookIds(mine.body)).toEqual(['2200009', '2200008', '2200007']);
    const theirs = await get(path);
    expect(theirs.body).toMatchObject({ count: 2, total: 2 });
    expect(bookIds(theirs.body)).toEqual(['2200009', '2200007']);
    expect(theirs.body.collections[0].book).toMatchObject({ id: '2200009' });
    expect(bookIds((await get(`/v2/book/user/${tagger.id}/collections`, { token: await tokenFor(peer) })).body)).toEqual(['2200009', '2200007']);
  });

  it('filters by status (doing and done accepted; all, the default, filters nothing), tag and rating', async () => {
    const token = await tokenFor(tagger);
    expect(bookIds((await get(path, { token, query: { status: 'all' } })).body)).toEqual(['2200009', '2200008', '2200007']);
    expectError(await get(path, { token, query: { status: 'any' } }), 400, 1016);
    expect(bookIds((await get(path, { token, query: { status: 'doing' } })).body)).toEqual(['2200008']);
    expect(bookIds((await get(path, { token, query: { status: 'done' } })).body)).toEqual(['2200007']);
    expect(bookIds((await get(path, { token, query: { tag: '科幻' } })).body)).toEqual(['2200007']);
    expect(bookIds((await get(path, { token, query: { tag: '读书', rating: 2 } })).body)).toEqual(['2200008']);
    expect((await get(path, { query: { tag: '私密' } })).body.total).toBe(0);
  });

  it('filters by update time with RFC 3339 from and to', async () => {
    const token = await tokenFor(tagger);
    const all = (await get(path, { token })).body.collections as Array<{ book_id: string; updated: string }>;
    // the middle entry's update time, as an instant with an explicit offset
    const middle = `${all[1].updated.replace(' ', 'T')}+08:00`;
    expect(bookIds((await get(path, { token, query: { from: middle } })).body)).toEqual(['2200009', '2200008']);
    expect(bookIds((await get(path, { token, query: { to: middle } })).body)).toEqual(['2200008', '2200007']);
    expect(bookIds((await get(path, { token, query: { from: middle, to: middle } })).body)).toEqual(['2200008']);
    const utc = new Date(Date.parse(middle)).toISOString();
    expect(bookIds((await get(path, { token, query: { from: utc, to: utc } })).body)).toEqual(['2200008']);
    expect((await get(path, { token, query: { from: '2099-01-01T00:00:00Z' } })).body.total).toBe(0);
  });

  it.each([
    [{ status: 'finished' }],
    [{ rating: 9 }],
    [{ rating: 'x' }],
    [{ from: 'yesterday' }],
    [{ to: '2024-13-01T00:00:00Z' }],
    [{ from: '2024-05-01' }],
  ])('rejects %j with 400/1016', async (query) => {
    expectError(await get(path, { query: query as Record<string, string> }), 400, 1016, `GET ${path}`);
  });

  it('pages, applies fields, and answers 404/6008 for an unknown user', async () => {
    const token = await tokenFor(tagger);
    const page = await get(path, { token, query: { start: 1, count: 1, fields: 'book_id,status' } });
    expect(page.body).toEqual({ start: 1, count: 1, total: 3, collections: [{ book_id: '2200008', status: 'reading' }] });
    expectError(await get('/v2/book/user/nobody_here/collections'), 404, 6008);
  });

  it('sends a signed-in user\'s page as the service wrote it: JSON as JSON.stringify writes it, with its ETag and JSONP (docs/ARCHITECTURE.md, "Request lifecycle", step 6)', async () => {
    const token = await tokenFor(tagger);
    const page = await get(path, { token });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(page.text).toBe(JSON.stringify(JSON.parse(page.text)));
    expect(page.body).toMatchObject({ start: 0, count: 3, total: 3 });
    expect(Number(page.headers.get('content-length'))).toBe(Buffer.byteLength(page.text));
    const etag = page.headers.get('etag') as string;
    expect(etag).toBe(`"${createHash('sha1').update(page.text).digest('base64url')}"`);
    expect((await get(path, { token, headers: { 'if-none-match': etag } })).status).toBe(304);
    const jsonp = await get(path, { token, query: { callback: 'show_page' } });
    expect(jsonp.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(jsonp.text).toBe(`/**/show_page(${page.text});`);
  });

  it('counts a user\'s tags: the owner sees all, others only public entries\' tags', async () => {
    const tagsPath = `/v2/book/user/${tagger.uid}/tags`;
    expect((await get(tagsPath, { token: await tokenFor(tagger) })).body).toEqual({
      start: 0, count: 3, total: 3,
      tags: [{ count: 3, title: '读书' }, { count: 1, title: '私密' }, { count: 1, title: '科幻' }],
    });
    expect((await get(tagsPath)).body).toEqual({ start: 0, count: 2, total: 2, tags: [{ count: 2, title: '读书' }, { count: 1, title: '科幻' }] });
    expect((await get(tagsPath, { query: { count: 1, start: 1 } })).body).toEqual({ start: 1, count: 1, total: 2, tags: [{ count: 1, title: '科幻' }] });
    expectError(await get('/v2/book/user/nobody_here/tags'), 404, 6008);
  });

  it('serves the deprecated /v2/book/user_tags/:id with the same result (scope service_basic_common)', async () => {
    const res = await get(`/v2/book/user_tags/${tagger.id}`);
    expect(res.body).toEqual((await get(`/v2/book/user/${tagger.uid}/tags`)).body);
    expectError(await get(`/v2/book/user_tags/${tagger.id}`, { token: await tokenFor(tagger, Apps.bookOnly) }), 403, 109);
    expectError(await get('/v2/book/user_tags/2999999'), 404, 6008);
    expectError(await get(`/v2/book/user_tags/${tagger.uid}`), 404, 1001);
  });
});

describe('collections feed the book\'s tags and rating (docs/api/book.md, "Decisions")', () => {
  const book = '2200003';
  const path = `/v2/book/${book}/collection`;

  it('adds, changes and removes one user\'s share; private entries count too; cached reads follow', async () => {
    // the owner's list follows each write (on the local engine it is answered from memory)
    const listed = async () =>
      ((await get(`/v2/book/user/${collector.uid}/collections`, { token: await tokenFor(collector), query: { count: 100 } })).body.collections as Array<{ book_id: string; status: string; rating?: { value: string } }>)
        .filter((c) => c.book_id === book)
        .map((c) => ({ status: c.status, rating: c.rating?.value }));
    const anonymousBefore = await get(`/v2/book/${book}`);
    expect(anonymousBefore.body.rating).toEqual({ max: 10, numRaters: 0, average: '0.0', min: 0 });
    expect(anonymousBefore.body.tags).toEqual([{ count: 2, name: '小说' }]);

    const token = await tokenFor(collector);
    const created = await post(path, { token, form: { status: 'read', rating: 5, tags: '小说 科幻', privacy: 'private' } });
    expect(created.body.book.rating).toEqual({ max: 10, numRaters: 1, average: '10.0', min: 0 });
    expect(await listed()).toEqual([{ status: 'read', rating: '5' }]);
    const afterCreate = await get(`/v2/book/${book}`);
    expect(afterCreate.body.rating).toEqual({ max: 10, numRaters: 1, average: '10.0', min: 0 });
    expect(afterCreate.body.tags).toEqual([{ count: 3, name: '小说' }, { count: 1, name: '科幻' }]);
    expect((await get(`/v2/book/${book}/tags`)).body.tags).toEqual([{ count: 3, title: '小说' }, { count: 1, title: '科幻' }]);
    expect((await get('/v2/book/isbn/9780000022003')).body.rating.numRaters).toBe(1);

    const peerToken = await tokenFor(peer);
    await post(path, { token: peerToken, form: { status: 'read', rating: 2, tags: '科幻' } });
    expect((await get(`/v2/book/${book}`)).body.rating).toEqual({ max: 10, numRaters: 2, average: '7.0', min: 0 });

    await put(path, { token, form: { status: 'read', rating: 3, tags: '科幻' } });
    expect(await listed()).toEqual([{ status: 'read', rating: '3' }]);
    const afterUpdate = await get(`/v2/book/${book}`);
    expect(afterUpdate.body.rating).toEqual({ max: 10, numRaters: 2, average: '5.0', min: 0 });
    expect(afterUpdate.body.tags).toEqual([{ count: 2, name: '小说' }, { count: 2, name: '科幻' }]);
    // the tag is found by tag search now
    expect((await get('/v2/book/search', { query: { tag: '科幻', q: 'Collectable 3' } })).body.total).toBe(1);

    await put(path, { token, form: { status: 'read' } });
    expect((await get(`/v2/book/${book}`)).body.rating).toEqual({ max: 10, numRaters: 1, average: '4.0', min: 0 });

    await del(path, { token });
    expect(await listed()).toEqual([]);
    await del(path, { token: peerToken });
    const afterDelete = await get(`/v2/book/${book}`);
    expect(afterDelete.body.rating).toEqual({ max: 10, numRaters: 0, average: '0.0', min: 0 });
    expect(afterDelete.body.tags).toEqual([{ count: 2, name: '小说' }]);
    expect((await get('/v2/book/search', { query: { tag: '科幻', q: 'Collectable 3' } })).body.total).toBe(0);
  });
});

describe('concurrency', () => {
  it('50 concurrent POSTs of the same collection give exactly one 201', async () => {
    const token = await tokenFor(racer);
    const path = '/v2/book/2200098/collection';
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => post(path, { token, form: { status: 'read', rating: (i % 5) + 1, tags: `t${i}` } })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe(6011);
    const winner = results.find((r) => r.status === 201)?.body;
    const book = (await get('/v2/book/2200098')).body;
    expect(book.rating.numRaters).toBe(1);
    expect(book.rating.average).toBe((Number(winner.rating.value) * 2).toFixed(1));
    expect(book.tags).toEqual([{ count: 1, name: winner.tags[0] }]);
  });

  it('shows an entry in the user\'s list as GET /v2/book/:id/collection shows it, and its change at once', async () => {
    const token = await tokenFor(racer);
    const list = `/v2/book/user/${racer.uid}/collections`;
    const [before] = (await get(list, { token })).body.collections;
    expect(before).toEqual((await get('/v2/book/2200098/collection', { token })).body);
    expect((await put('/v2/book/2200098/collection', { token, form: { status: 'wish', comment: '改了主意', tags: before.tags.join(' ') } })).status).toBe(202);
    const [after] = (await get(list, { token })).body.collections;
    expect(after).toMatchObject({ book_id: '2200098', status: 'wish', comment: '改了主意' });
    expect(after).not.toHaveProperty('rating');
    expect(after).toEqual((await get('/v2/book/2200098/collection', { token })).body);
  });

  it('many users rating one book at once give the exact numRaters, average and tag count', async () => {
    const raters = Array.from({ length: 60 }, (_, i) => crowd(i + 1));
    const tokens = await Promise.all(raters.map((u) => tokenFor(u)));
    const started = Date.now();
    const results = await Promise.all(
      tokens.map((token, i) => post('/v2/book/2200099/collection', { token, form: { status: 'read', rating: (i % 5) + 1, tags: '并发 测试' } })),
    );
    const elapsed = Date.now() - started;
    expect(results.map((r) => r.status)).toEqual(raters.map(() => 201));
    // the catalogue's 10 raters at 6.0, plus 60 users: twelve each of 1..5, counted as 2r
    const sum = 10 * 6 + 12 * (2 + 4 + 6 + 8 + 10);
    const book = (await get('/v2/book/2200099')).body;
    expect(book.rating).toEqual({ max: 10, numRaters: 70, average: (Math.round((sum / 70) * 10) / 10).toFixed(1), min: 0 });
    expect(book.tags).toEqual([{ count: 60, name: '并发' }, { count: 60, name: '测试' }]);
    process.stdout.write(`[book e2e] 60 concurrent ratings of one book took ${elapsed} ms\n`);

    // concurrent changes of their entries move it exactly, each entry as its PUT left it
    const changed = await Promise.all(tokens.map((token) => put('/v2/book/2200099/collection', { token, form: { status: 'reading', rating: 5, tags: '并发' } })));
    expect(changed.map((r) => r.status)).toEqual(raters.map(() => 202));
    const rerated = (await get('/v2/book/2200099')).body;
    expect(rerated.rating).toEqual({ max: 10, numRaters: 70, average: (Math.round(((10 * 6 + 60 * 10) / 70) * 10) / 10).toFixed(1), min: 0 });
    expect(rerated.tags).toEqual([{ count: 60, name: '并发' }]);
    const own = await Promise.all(tokens.slice(0, 5).map((token) => get('/v2/book/2200099/collection', { token })));
    expect(own.map((r) => [r.body.status, r.body.rating?.value, r.body.tags])).toEqual(own.map(() => ['reading', '5', ['并发']]));

    // and concurrent removals bring it back exactly
    const removed = await Promise.all(tokens.slice(0, 30).map((token) => del('/v2/book/2200099/collection', { token })));
    expect(removed.map((r) => r.status)).toEqual(tokens.slice(0, 30).map(() => 204));
    const after = (await get('/v2/book/2200099')).body;
    const remaining = 10 * 6 + 30 * 10;
    expect(after.rating).toEqual({ max: 10, numRaters: 40, average: (Math.round((remaining / 40) * 10) / 10).toFixed(1), min: 0 });
    expect(after.tags).toEqual([{ count: 30, name: '并发' }]);
  });
});
