import { del, expectError, get, post, put } from '../support/http';
import { createNote, expectStatus, NoteBody, NoteUsers, tokensOf } from './note-fixtures';

/**
 * Privacy on every read path (docs/api/note.md): public notes for everyone, friends-only notes
 * for the owner and the owner's friends, private notes for the owner. Pia owns the notes, Finn is her
 * friend, Sam is a stranger. (Picture addresses: notes-pictures.e2e-spec.ts.)
 */
describe('note privacy', () => {
  let t: Record<'pia' | 'finn' | 'sam', string>;
  const notes = {} as Record<'public' | 'friend' | 'private', NoteBody>;
  const ids = (list: NoteBody[]) => list.map((n) => n.id).sort();

  beforeAll(async () => {
    t = await tokensOf('pia', 'finn', 'sam');
    for (const privacy of ['public', 'friend', 'private'] as const) {
      notes[privacy] = await createNote(t.pia, { title: `${privacy} note`, content: `only for ${privacy}`, privacy });
    }
  });

  describe('a single note', () => {
    it.each([
      ['pia', 'public', 200], ['pia', 'friend', 200], ['pia', 'private', 200],
      ['finn', 'public', 200], ['finn', 'friend', 200], ['finn', 'private', 403],
      ['sam', 'public', 200], ['sam', 'friend', 403], ['sam', 'private', 403],
    ] as const)('%s reading the %s note: %i', async (reader, privacy, status) => {
      const res = await get(`/v2/note/${notes[privacy].id}`, { token: t[reader] });
      if (status === 200) {
        expect(res.status).toBe(200);
        expect(res.body).toEqual(notes[privacy]);
      } else {
        expectError(res, 403, 1000);
        expect(res.text).not.toContain(`only for ${privacy}`);
      }
    });

    it('refuses changes by anyone but the owner, friends included', async () => {
      for (const reader of ['finn', 'sam'] as const) {
        expectError(await put(`/v2/note/${notes.friend.id}`, { token: t[reader], json: { title: 'x', content: 'x' } }), 403, 1000);
        expectError(await del(`/v2/note/${notes.friend.id}`, { token: t[reader] }), 403, 1000);
      }
      expect((await get(`/v2/note/${notes.friend.id}`, { token: t.pia })).body).toEqual(notes.friend);
    });
  });

  describe("the owner's list", () => {
    it.each([
      ['pia', ['public', 'friend', 'private']],
      ['finn', ['public', 'friend']],
      ['sam', ['public']],
    ] as const)('%s sees %j', async (reader, privacies) => {
      const res = await get(`/v2/note/user_created/${NoteUsers.pia.id}`, { token: t[reader] });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(privacies.length);
      expect(ids(res.body.notes)).toEqual(ids(privacies.map((p) => notes[p])));
    });
  });

  describe('comments', () => {
    let comment: { id: string };

    beforeAll(async () => {
      const res = await post(`/v2/note/${notes.friend.id}/comments`, { token: t.finn, json: { content: 'a friend says hi' } });
      expectStatus(res, 201);
      comment = res.body;
    });

    it('a friend reads and writes comments of a friends-only note', async () => {
      const res = await get(`/v2/note/${notes.friend.id}/comments`, { token: t.finn });
      expect(res.body).toMatchObject({ total: 1, comments: [{ id: comment.id, content: 'a friend says hi' }] });
      expect((await get(`/v2/note/${notes.friend.id}/comment/${comment.id}`, { token: t.finn })).status).toBe(200);
    });

    it('a stranger can neither read nor write them: 403/1000', async () => {
      expectError(await get(`/v2/note/${notes.friend.id}/comments`, { token: t.sam }), 403, 1000);
      expectError(await get(`/v2/note/${notes.friend.id}/comment/${comment.id}`, { token: t.sam }), 403, 1000);
      expectError(await post(`/v2/note/${notes.friend.id}/comments`, { token: t.sam, json: { content: 'let me in' } }), 403, 1000);
      expectError(await get(`/v2/note/${notes.private.id}/comments`, { token: t.finn }), 403, 1000);
      expect((await get(`/v2/note/${notes.friend.id}`, { token: t.pia })).body.comments_count).toBe(1);
    });
  });

  describe('likes', () => {
    beforeAll(async () => {
      for (const privacy of ['public', 'friend'] as const) expectStatus(await post(`/v2/note/${notes[privacy].id}/like`, { token: t.finn }), 202);
    });

    it('nobody likes a note they may not see: 403/1000', async () => {
      expectError(await post(`/v2/note/${notes.friend.id}/like`, { token: t.sam }), 403, 1000);
      expectError(await post(`/v2/note/${notes.private.id}/like`, { token: t.finn }), 403, 1000);
      expectError(await del(`/v2/note/${notes.private.id}/like`, { token: t.finn }), 403, 1000);
      expect((await get(`/v2/note/${notes.friend.id}`, { token: t.pia })).body.liked_count).toBe(1);
    });

    it.each([
      ['pia', ['public', 'friend']],
      ['finn', ['public', 'friend']],
      ['sam', ['public']],
    ] as const)("%s sees the liked notes %j in Finn's likes", async (reader, privacies) => {
      const res = await get(`/v2/note/user_liked/${NoteUsers.finn.id}`, { token: t[reader] });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(privacies.length);
      expect(ids(res.body.notes)).toEqual(ids(privacies.map((p) => notes[p])));
    });
  });

  describe('a change of privacy', () => {
    it('applies at once to the note, the lists and the likes', async () => {
      const note = notes.friend;
      expectStatus(await put(`/v2/note/${note.id}`, { token: t.pia, json: { title: note.title, content: note.content, privacy: 'private' } }), 202);
      expectError(await get(`/v2/note/${note.id}`, { token: t.finn }), 403, 1000);
      expectError(await get(`/v2/note/${note.id}/comments`, { token: t.finn }), 403, 1000);
      expect(ids((await get(`/v2/note/user_created/${NoteUsers.pia.id}`, { token: t.finn })).body.notes)).toEqual([notes.public.id]);
      const likedForFinn = await get(`/v2/note/user_liked/${NoteUsers.finn.id}`, { token: t.finn });
      expect({ total: likedForFinn.body.total, ids: ids(likedForFinn.body.notes) }).toEqual({ total: 1, ids: [notes.public.id] });

      expectStatus(await put(`/v2/note/${note.id}`, { token: t.pia, json: { title: note.title, content: note.content, privacy: 'public' } }), 202);
      expect((await get(`/v2/note/${note.id}`, { token: t.sam })).status).toBe(200);
      const likedForSam = await get(`/v2/note/user_liked/${NoteUsers.finn.id}`, { token: t.sam });
      expect({ total: likedForSam.body.total, ids: ids(likedForSam.body.notes) }).toEqual({ total: 2, ids: ids([notes.public, note]) });
    });
  });
});
