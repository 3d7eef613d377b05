import { tokenFor } from '../support/auth';
import { Apps } from '../support/fixtures';
import { api, del, expectError, get, post, put } from '../support/http';
import { stackInfo } from '../support/stack-info';
import { createNote, multipart, NoteBody, NoteUsers, sleep, TIMESTAMP, tokensOf } from './note-fixtures';

/** Notes: create, read, update, delete, the user's list, and every error of the note area (docs/api/note.md, "Endpoints" and "Errors"). */
describe('notes: create, read, update, delete', () => {
  let t: Record<'nina' | 'otto', string>;

  beforeAll(async () => {
    t = await tokensOf('nina', 'otto');
  });

  describe('create', () => {
    it('creates a note from JSON: 201 with the Note, public and open to replies by default', async () => {
      const res = await post('/v2/notes', { token: t.nina, json: { title: 'First note', content: 'Hello, diary.' } });
      expect(res.status).toBe(201);
      const note = res.body as NoteBody;
      expect(note).toEqual({
        id: expect.stringMatching(/^\d+$/),
        alt: `${stackInfo().baseUrl}/web/note/${note.id}/`,
        title: 'First note',
        summary: 'Hello, diary.',
        content: 'Hello, diary.',
        privacy: 'public',
        can_reply: true,
        photos: {},
        update_time: expect.stringMatching(TIMESTAMP),
        publish_time: expect.stringMatching(TIMESTAMP),
        comments_count: 0,
        liked_count: 0,
        recs_count: 0,
        author: {
          id: NoteUsers.nina.id, uid: NoteUsers.nina.uid, name: 'Nina 妮娜', signature: 'Nina 妮娜 keeps a diary',
          alt: expect.stringContaining('note_nina'), avatar: expect.any(String),
        },
      });
      expect(note.update_time).toBe(note.publish_time);
      expect((await get(`/v2/note/${note.id}`, { token: t.nina })).body).toEqual(note);
    });

    it('takes a form body, with privacy and can_reply=0', async () => {
      const res = await post('/v2/notes', { token: t.nina, form: { title: 'Form', content: 'from a form', privacy: 'private', can_reply: '0' } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ title: 'Form', content: 'from a form', privacy: 'private', can_reply: false });
    });

    it('takes a multipart body without pictures', async () => {
      const res = await post('/v2/notes', { token: t.nina, multipart: multipart({ title: 'Multipart', content: 'parts', privacy: 'friend', can_reply: 'true' }) });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ title: 'Multipart', content: 'parts', privacy: 'friend', can_reply: true, photos: {} });
    });

    it('gives increasing digit ids', async () => {
      const a = await createNote(t.nina, { title: 'a', content: 'a' });
      const b = await createNote(t.nina, { title: 'b', content: 'b' });
      expect(Number(b.id)).toBeGreaterThan(Number(a.id));
    });

    it.each([
      ['no title', { content: 'x' }, 1012],
      ['an empty title', { title: '', content: 'x' }, 1012],
      ['a blank title', { title: '  \n ', content: 'x' }, 1012],
      ['no content', { title: 'x' }, 1002],
      ['empty content', { title: 'x', content: '' }, 1002],
      ['blank content', { title: 'x', content: ' \n\t ' }, 1002],
      ['an unknown privacy', { title: 'x', content: 'x', privacy: 'friends' }, 1016],
      ['a can_reply that is no boolean', { title: 'x', content: 'x', can_reply: 'maybe' }, 1016],
      ['a title over 200 characters', { title: 't'.repeat(201), content: 'x' }, 1016],
    ])('refuses %s', async (_, json, code) => {
      const before = (await get(`/v2/note/user_created/${NoteUsers.nina.id}`, { token: t.nina, query: { count: 0 } })).body.total;
      expectError(await post('/v2/notes', { token: t.nina, json }), 400, code, 'POST /v2/notes');
      expect((await get(`/v2/note/user_created/${NoteUsers.nina.id}`, { token: t.nina, query: { count: 0 } })).body.total).toBe(before);
    });
  });

  describe('read', () => {
    let note: NoteBody;

    beforeAll(async () => {
      note = await createNote(t.nina, { title: 'Readable', content: 'x'.repeat(120) });
    });

    it('answers a missing note with 400/1006', async () => {
      expectError(await get('/v2/note/999999999', { token: t.nina }), 400, 1006, 'GET /v2/note/999999999');
    });

    it('applies fields', async () => {
      const res = await get(`/v2/note/${note.id}`, { token: t.otto, query: { fields: 'id, title,liked_count' } });
      expect(res.body).toEqual({ id: note.id, title: 'Readable', liked_count: 0 });
    });

    it('refuses an unknown format with 400/1016', async () => {
      expectError(await get(`/v2/note/${note.id}`, { token: t.nina, query: { format: 'html' } }), 400, 1016);
    });

    it('sends an ETag and answers If-None-Match with 304', async () => {
      const first = await get(`/v2/note/${note.id}`, { token: t.nina });
      const etag = first.headers.get('etag')!;
      expect(etag).toBeTruthy();
      expect((await get(`/v2/note/${note.id}`, { token: t.nina, headers: { 'if-none-match': etag } })).status).toBe(304);
    });
  });

  describe('update', () => {
    it('answers 202 with the changed note; update_time moves, publish_time does not', async () => {
      const note = await createNote(t.nina, { title: 'Before', content: 'old text', privacy: 'friend', can_reply: false });
      await sleep(1100);
      const res = await put(`/v2/note/${note.id}`, { token: t.nina, json: { title: 'After', content: 'new text' } });
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({
        id: note.id, title: 'After', content: 'new text', summary: 'new text', publish_time: note.publish_time,
        // can_reply is true unless sent (docs/api/note.md); privacy stays unless sent
        can_reply: true, privacy: 'friend',
      });
      expect(res.body.update_time > note.update_time).toBe(true);
      expect((await get(`/v2/note/${note.id}`, { token: t.nina })).body).toEqual(res.body);
    });

    it('changes privacy and can_reply when sent, from a form', async () => {
      const note = await createNote(t.nina, { title: 'p', content: 'p' });
      const res = await put(`/v2/note/${note.id}`, { token: t.nina, form: { title: 'p', content: 'p', privacy: 'private', can_reply: 'false' } });
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ privacy: 'private', can_reply: false });
    });

    it('needs title and content like create', async () => {
      const note = await createNote(t.nina, { title: 'p', content: 'p' });
      expectError(await put(`/v2/note/${note.id}`, { token: t.nina, json: { content: 'c' } }), 400, 1012);
      expectError(await put(`/v2/note/${note.id}`, { token: t.nina, json: { title: 't' } }), 400, 1002);
      expect((await get(`/v2/note/${note.id}`, { token: t.nina })).body).toEqual(note);
    });

    it("refuses another user's change with 403/1000 and changes nothing", async () => {
      const note = await createNote(t.nina, { title: 'mine', content: 'mine' });
      expectError(await put(`/v2/note/${note.id}`, { token: t.otto, json: { title: 'yours', content: 'yours' } }), 403, 1000);
      expect((await get(`/v2/note/${note.id}`, { token: t.nina })).body.title).toBe('mine');
    });

    it('answers a missing note with 400/1006', async () => {
      expectError(await put('/v2/note/999999999', { token: t.nina, json: { title: 't', content: 'c' } }), 400, 1006);
    });
  });

  describe('delete', () => {
    it('answers 200 with {}; the note is gone afterwards', async () => {
      const note = await createNote(t.nina, { title: 'doomed', content: 'bye' });
      expectError(await del(`/v2/note/${note.id}`, { token: t.otto }), 403, 1000);
      const res = await del(`/v2/note/${note.id}`, { token: t.nina });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expectError(await get(`/v2/note/${note.id}`, { token: t.nina }), 400, 1006);
      expectError(await del(`/v2/note/${note.id}`, { token: t.nina }), 400, 1006);
      const list = await get(`/v2/note/user_created/${NoteUsers.nina.id}`, { token: t.nina, query: { count: 100 } });
      expect(list.body.notes.map((n: NoteBody) => n.id)).not.toContain(note.id);
    });
  });

  describe("a user's notes: GET /v2/note/user_created/:id", () => {
    let mine: NoteBody[];

    beforeAll(async () => {
      mine = [];
      for (const n of [1, 2, 3]) mine.push(await createNote(t.otto, { title: `Otto ${n}`, content: `<b>note</b> ${n} ${'y'.repeat(100)}` }));
    });

    it('lists them newest first in {start, count, total, notes}', async () => {
      const res = await get(`/v2/note/user_created/${NoteUsers.otto.id}`, { token: t.otto });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ start: 0, count: 3, total: 3 });
      expect(res.body.notes.map((n: NoteBody) => n.id)).toEqual(mine.map((n) => n.id).reverse());
      expect(res.body.notes[0]).toEqual(mine[2]);
    });

    it('pages with start and count, and count=0 gives the total only', async () => {
      const page = await get(`/v2/note/user_created/${NoteUsers.otto.id}`, { token: t.nina, query: { start: 1, count: 1 } });
      expect(page.body).toMatchObject({ start: 1, count: 1, total: 3 });
      expect(page.body.notes[0].id).toBe(mine[1].id);
      const none = await get(`/v2/note/user_created/${NoteUsers.otto.id}`, { token: t.nina, query: { count: 0 } });
      expect(none.body).toEqual({ start: 0, count: 0, total: 3, notes: [] });
      expectError(await get(`/v2/note/user_created/${NoteUsers.otto.id}`, { token: t.nina, query: { start: -1 } }), 400, 1016);
    });

    it('renders every note in the format asked for, and applies fields to each', async () => {
      const res = await get(`/v2/note/user_created/${NoteUsers.otto.id}`, { token: t.nina, query: { format: 'html_short', fields: 'id,content' } });
      expect(res.body.total).toBe(3);
      expect(res.body.notes[0]).toEqual({ id: mine[2].id, content: `&lt;b&gt;note&lt;/b&gt; 3 ${'y'.repeat(86)}...` });
    });

    it('answers an unknown user with 404/1001', async () => {
      expectError(await get('/v2/note/user_created/4999', { token: t.nina }), 404, 1001);
      expectError(await get('/v2/note/user_liked/4999', { token: t.nina }), 404, 1001);
    });
  });

  describe('access and routing', () => {
    const routes: Array<[string, string]> = [
      ['POST', '/v2/notes'], ['GET', '/v2/note/1000'], ['PUT', '/v2/note/1000'], ['POST', '/v2/note/1000'], ['DELETE', '/v2/note/1000'],
      ['POST', '/v2/note/1000/like'], ['DELETE', '/v2/note/1000/like'], ['GET', `/v2/note/user_created/${NoteUsers.nina.id}`],
      ['GET', `/v2/note/user_liked/${NoteUsers.nina.id}`], ['GET', '/v2/note/1000/comments'], ['POST', '/v2/note/1000/comments'],
      ['GET', '/v2/note/1000/comment/1000'], ['DELETE', '/v2/note/1000/comment/1000'],
    ];

    it.each(routes)('%s %s needs a logged-in user: 403/1000', async (method, path) => {
      expectError(await api(method, path), 403, 1000, `${method} ${path}`);
    });

    it('needs the community_basic_note scope: 403/109', async () => {
      const bookOnly = await tokenFor(NoteUsers.nina, Apps.premium, 'book_basic_r');
      expectError(await get(`/v2/note/user_created/${NoteUsers.nina.id}`, { token: bookOnly }), 403, 109);
      expectError(await post('/v2/notes', { token: bookOnly, json: { title: 't', content: 'c' } }), 403, 109);
    });

    it('answers a known path under another method with 400/1014', async () => {
      expectError(await put('/v2/notes', { token: t.nina, json: {} }), 400, 1014, 'PUT /v2/notes');
      expectError(await put('/v2/note/1000/like', { token: t.nina }), 400, 1014);
      expectError(await del('/v2/note/1000/comments', { token: t.nina }), 400, 1014);
      expectError(await post('/v2/note/user_created/4001', { token: t.nina }), 400, 1014);
    });

    it('answers paths outside the wildcards with 404/1001', async () => {
      expectError(await get('/v2/note/abc', { token: t.nina }), 404, 1001);
      expectError(await get('/v2/note/user_created/nina', { token: t.nina }), 404, 1001);
      expectError(await get('/v2/note/1000/comment/x1', { token: t.nina }), 404, 1001);
    });

    it('wraps a note-area error in JSONP', async () => {
      const res = await get('/v2/note/999999999', { token: t.nina, query: { callback: 'cb' } });
      expect(res.status).toBe(400);
      expect(res.text).toBe('/**/cb({"msg":"target_not_found","code":1006,"request":"GET /v2/note/999999999"});');
    });
  });
});
