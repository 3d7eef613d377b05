import { tokenFor } from '../support/auth';
import { crowd } from '../support/fixtures';
import { del, expectError, get, post, put } from '../support/http';
import { createNote, expectStatus, multipart, NoteBody, NoteUsers, TIMESTAMP, tokensOf, withNoteDatabase } from './note-fixtures';

/**
 * Comments (docs/api/note.md, "Comments"). Cora owns the notes, Cole comments, Cid is a third user.
 */
describe('note comments', () => {
  let t: Record<'cora' | 'cole' | 'cid', string>;
  let note: NoteBody;
  const countOf = async (id: string) => (await get(`/v2/note/${id}`, { token: t.cora })).body.comments_count as number;

  beforeAll(async () => {
    t = await tokensOf('cora', 'cole', 'cid');
    note = await createNote(t.cora, { title: 'Talk to me', content: 'comments welcome' });
  });

  it('POST answers 201 with the Comment; comments_count follows', async () => {
    const res = await post(`/v2/note/${note.id}/comments`, { token: t.cole, json: { content: 'Nice <b>note</b>!' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^\d+$/),
      created: expect.stringMatching(TIMESTAMP),
      content: 'Nice <b>note</b>!',
      author: { id: NoteUsers.cole.id, uid: NoteUsers.cole.uid, name: 'Cole', signature: 'Cole keeps a diary', alt: expect.any(String), avatar: expect.any(String) },
    });
    expect(await countOf(note.id)).toBe(1);
    expect((await get(`/v2/note/${note.id}/comment/${res.body.id}`, { token: t.cid })).body).toEqual(res.body);
  });

  it('takes form and multipart bodies', async () => {
    expect((await post(`/v2/note/${note.id}/comments`, { token: t.cid, form: { content: 'from a form' } })).status).toBe(201);
    expect((await post(`/v2/note/${note.id}/comments`, { token: t.cora, multipart: multipart({ content: 'from parts' }) })).status).toBe(201);
  });

  it('lists comments oldest first in {start, count, total, comments}, paged', async () => {
    const all = await get(`/v2/note/${note.id}/comments`, { token: t.cid });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ start: 0, count: 3, total: 3 });
    expect(all.body.comments.map((c: { content: string }) => c.content)).toEqual(['Nice <b>note</b>!', 'from a form', 'from parts']);
    const page = await get(`/v2/note/${note.id}/comments`, { token: t.cid, query: { start: 1, count: 1, fields: 'content' } });
    expect(page.body).toEqual({ start: 1, count: 1, total: 3, comments: [{ content: 'from a form' }] });
  });

  it.each([
    ['no content', {}, 1002],
    ['empty content', { content: '' }, 1002],
    ['blank content', { content: '  \n ' }, 1002],
    ['1001 characters', { content: 'x'.repeat(1001) }, 1016],
    ['1001 Chinese characters', { content: '好'.repeat(1001) }, 1016],
  ])('refuses %s, storing nothing', async (_, json, code) => {
    const before = await countOf(note.id);
    expectError(await post(`/v2/note/${note.id}/comments`, { token: t.cole, json }), 400, code);
    expect(await countOf(note.id)).toBe(before);
  });

  it('takes exactly 1000 characters', async () => {
    const res = await post(`/v2/note/${note.id}/comments`, { token: t.cole, json: { content: '好'.repeat(1000) } });
    expect(res.status).toBe(201);
    expectStatus(await del(`/v2/note/${note.id}/comment/${res.body.id}`, { token: t.cole }), 204);
  });

  it('answers a missing note or comment with 400/1006', async () => {
    expectError(await get('/v2/note/999999999/comments', { token: t.cole }), 400, 1006);
    expectError(await post('/v2/note/999999999/comments', { token: t.cole, json: { content: 'x' } }), 400, 1006);
    expectError(await get(`/v2/note/${note.id}/comment/999999999`, { token: t.cole }), 400, 1006);
    expectError(await del(`/v2/note/${note.id}/comment/999999999`, { token: t.cole }), 400, 1006);
    // a comment is found only under its own note
    const other = await createNote(t.cora, { title: 'Other', content: 'x' });
    const comment = (await post(`/v2/note/${note.id}/comments`, { token: t.cole, json: { content: 'here' } })).body;
    expectError(await get(`/v2/note/${other.id}/comment/${comment.id}`, { token: t.cole }), 400, 1006);
    expectError(await del(`/v2/note/${other.id}/comment/${comment.id}`, { token: t.cora }), 400, 1006);
  });

  describe('deleting', () => {
    it("by a third user: 403/1000; by the comment's author or the note's owner: 204", async () => {
      const first = (await post(`/v2/note/${note.id}/comments`, { token: t.cole, json: { content: 'delete me' } })).body;
      const second = (await post(`/v2/note/${note.id}/comments`, { token: t.cole, json: { content: 'the owner deletes me' } })).body;
      const before = await countOf(note.id);

      expectError(await del(`/v2/note/${note.id}/comment/${first.id}`, { token: t.cid }), 403, 1000);
      expect(await countOf(note.id)).toBe(before);

      const byAuthor = await del(`/v2/note/${note.id}/comment/${first.id}`, { token: t.cole });
      expect(byAuthor.status).toBe(204);
      expect(byAuthor.text).toBe('');
      const byOwner = await del(`/v2/note/${note.id}/comment/${second.id}`, { token: t.cora });
      expect(byOwner.status).toBe(204);
      expect(await countOf(note.id)).toBe(before - 2);
      expectError(await get(`/v2/note/${note.id}/comment/${first.id}`, { token: t.cole }), 400, 1006);
      expectError(await del(`/v2/note/${note.id}/comment/${first.id}`, { token: t.cole }), 400, 1006);
      expect(await countOf(note.id)).toBe(before - 2);
    });
  });

  describe('can_reply', () => {
    it('false: nobody comments (403/1000), reading goes on; an update without it opens the note again', async () => {
      const closed = await createNote(t.cora, { title: 'Closed', content: 'no comments', can_reply: false });
      expectError(await post(`/v2/note/${closed.id}/comments`, { token: t.cole, json: { content: 'may I?' } }), 403, 1000);
      expectError(await post(`/v2/note/${closed.id}/comments`, { token: t.cora, json: { content: 'not even me' } }), 403, 1000);
      expect((await get(`/v2/note/${closed.id}/comments`, { token: t.cole })).body).toEqual({ start: 0, count: 0, total: 0, comments: [] });
      expect(await countOf(closed.id)).toBe(0);

      const reopened = await put(`/v2/note/${closed.id}`, { token: t.cora, json: { title: 'Open', content: 'comments welcome' } });
      expect(reopened.body.can_reply).toBe(true);
      expect((await post(`/v2/note/${closed.id}/comments`, { token: t.cole, json: { content: 'now I may' } })).status).toBe(201);
    });
  });

  describe('concurrency', () => {
    it('keeps comments_count exact when 40 users comment and 10 comments are deleted at once', async () => {
      const busy = await createNote(t.cora, { title: 'Busy', content: 'x' });
      const tokens = await Promise.all(Array.from({ length: 40 }, (_, i) => tokenFor(crowd(150 + i))));
      const early = await Promise.all(Array.from({ length: 10 }, (_, i) => post(`/v2/note/${busy.id}/comments`, { token: t.cole, json: { content: `early ${i}` } })));
      expect(early.map((r) => r.status)).toEqual(Array(10).fill(201));

      const results = await Promise.all([
        ...tokens.map((token, i) => post(`/v2/note/${busy.id}/comments`, { token, json: { content: `crowd ${i}` } })),
        ...early.map((r) => del(`/v2/note/${busy.id}/comment/${r.body.id}`, { token: t.cora })),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([...Array(40).fill(201), ...Array(10).fill(204)].sort());
      expect(await countOf(busy.id)).toBe(40);
      expect((await get(`/v2/note/${busy.id}/comments`, { token: t.cora, query: { count: 0 } })).body.total).toBe(40);
    }, 60_000);
  });

  it('deleting the note removes its comments', async () => {
    const doomed = await createNote(t.cora, { title: 'Doomed', content: 'x' });
    const comment = (await post(`/v2/note/${doomed.id}/comments`, { token: t.cole, json: { content: 'bye' } })).body;
    expectStatus(await del(`/v2/note/${doomed.id}`, { token: t.cora }), 200);
    expectError(await get(`/v2/note/${doomed.id}/comment/${comment.id}`, { token: t.cole }), 400, 1006);
    expectError(await get(`/v2/note/${doomed.id}/comments`, { token: t.cole }), 400, 1006);
    expect(await withNoteDatabase((db) => db.collection('note_comments').countDocuments({ note_id: doomed.id }))).toBe(0);
  });
});
