import { reconcileMessage } from '@plaza/contracts';
import { ServiceBus } from '@plaza/platform';
import { connect } from 'nats';
import { tokenFor } from '../support/auth';
import { crowd, CROWD_SIZE } from '../support/fixtures';
import { del, expectError, get, post } from '../support/http';
import { natsOptionsAs } from '../support/stack-info';
import { createNote, expectStatus, NoteBody, NoteUsers, tokensOf, withNoteDatabase } from './note-fixtures';

/**
 * Likes (docs/api/note.md): POST and DELETE /v2/note/:id/like answer 202 with the Note,
 * repeating one changes nothing, liked_count is exact under concurrency. Lea writes, Lou likes,
 * Lia is a stranger, Lee is Lea's friend.
 */
describe('note likes', () => {
  let t: Record<'lea' | 'lou' | 'lia' | 'lee', string>;

  beforeAll(async () => {
    t = await tokensOf('lea', 'lou', 'lia', 'lee');
  });

  it('like and unlike answer 202 with the Note; repeating either changes nothing', async () => {
    const note = await createNote(t.lea, { title: 'Likeable', content: 'x' });
    const liked = await post(`/v2/note/${note.id}/like`, { token: t.lou });
    expect(liked.status).toBe(202);
    expect(liked.body).toEqual({ ...note, liked_count: 1 });
    const again = await post(`/v2/note/${note.id}/like`, { token: t.lou });
    expect(again.status).toBe(202);
    expect(again.body.liked_count).toBe(1);
    expect((await post(`/v2/note/${note.id}/like`, { token: t.lia })).body.liked_count).toBe(2);
    // a like is no edit
    expect((await get(`/v2/note/${note.id}`, { token: t.lea })).body).toEqual({ ...note, liked_count: 2 });

    const unliked = await del(`/v2/note/${note.id}/like`, { token: t.lou });
    expect(unliked.status).toBe(202);
    expect(unliked.body).toEqual({ ...note, liked_count: 1 });
    expect((await del(`/v2/note/${note.id}/like`, { token: t.lou })).body.liked_count).toBe(1);
    expect((await del(`/v2/note/${note.id}/like`, { token: t.lee })).body.liked_count).toBe(1);
  });

  it('answers a missing note with 400/1006', async () => {
    expectError(await post('/v2/note/999999999/like', { token: t.lou }), 400, 1006, 'POST /v2/note/999999999/like');
    expectError(await del('/v2/note/999999999/like', { token: t.lou }), 400, 1006, 'DELETE /v2/note/999999999/like');
  });

  describe("a user's liked notes: GET /v2/note/user_liked/:id", () => {
    let notes: NoteBody[];

    beforeAll(async () => {
      notes = [];
      for (const n of [1, 2, 3]) {
        notes.push(await createNote(t.lea, { title: `Liked ${n}`, content: `liked ${n}`, privacy: n === 3 ? 'friend' : 'public' }));
      }
      for (const note of notes) expectStatus(await post(`/v2/note/${note.id}/like`, { token: t.lee }), 202);
    });

    it('lists them newest like first in {start, count, total, notes}', async () => {
      const res = await get(`/v2/note/user_liked/${NoteUsers.lee.id}`, { token: t.lee });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ start: 0, count: 3, total: 3 });
      expect(res.body.notes.map((n: NoteBody) => n.id)).toEqual(notes.map((n) => n.id).reverse());
      expect(res.body.notes[0].liked_count).toBe(1);
    });

    it('pages, and counts only what the viewer may see', async () => {
      const page = await get(`/v2/note/user_liked/${NoteUsers.lee.id}`, { token: t.lee, query: { start: 2, count: 5 } });
      expect(page.body).toMatchObject({ start: 2, count: 1, total: 3 });
      expect(page.body.notes[0].id).toBe(notes[0].id);
      const forStranger = await get(`/v2/note/user_liked/${NoteUsers.lee.id}`, { token: t.lia, query: { format: 'abstract', fields: 'id,content' } });
      expect(forStranger.body).toEqual({ start: 0, count: 2, total: 2, notes: [{ id: notes[1].id, content: 'liked 2' }, { id: notes[0].id, content: 'liked 1' }] });
    });

    it('drops an unliked note', async () => {
      expectStatus(await del(`/v2/note/${notes[1].id}/like`, { token: t.lee }), 202);
      const res = await get(`/v2/note/user_liked/${NoteUsers.lee.id}`, { token: t.lee });
      expect(res.body.notes.map((n: NoteBody) => n.id)).toEqual([notes[2].id, notes[0].id]);
    });
  });

  describe('concurrency', () => {
    let note: NoteBody;
    let tokens: string[];

    beforeAll(async () => {
      note = await createNote(t.lea, { title: 'Popular', content: 'everyone likes this' });
      tokens = [];
      // password grants a few at a time: the test is about the note service, not the token endpoint
      for (let i = 0; i < CROWD_SIZE; i += 20) {
        tokens.push(...(await Promise.all(Array.from({ length: 20 }, (_, j) => tokenFor(crowd(i + j + 1))))));
      }
    }, 180_000);

    it('counts 200 users liking at the same time as 200', async () => {
      const results = await Promise.all(tokens.map((token) => post(`/v2/note/${note.id}/like`, { token })));
      expect(results.map((r) => r.status)).toEqual(Array(CROWD_SIZE).fill(202));
      expect(Math.max(...results.map((r) => r.body.liked_count))).toBe(CROWD_SIZE);
      expect((await get(`/v2/note/${note.id}`, { token: t.lea })).body.liked_count).toBe(CROWD_SIZE);
    }, 120_000);

    it('stays exact when 50 like again while 30 others unlike, all at once', async () => {
      const results = await Promise.all([
        ...tokens.slice(0, 50).map((token) => post(`/v2/note/${note.id}/like`, { token })),
        ...tokens.slice(100, 130).map((token) => del(`/v2/note/${note.id}/like`, { token })),
      ]);
      expect(results.every((r) => r.status === 202)).toBe(true);
      expect((await get(`/v2/note/${note.id}`, { token: t.lea })).body.liked_count).toBe(CROWD_SIZE - 30);
      expect((await get(`/v2/note/user_liked/${crowd(1).id}`, { token: t.lea })).body.notes.map((n: NoteBody) => n.id)).toContain(note.id);
    }, 120_000);

    it("agrees with the service's reconciliation, which counts the likes again (npm run reconcile)", async () => {
      const nc = await connect({ ...natsOptionsAs('reconcile'), name: 'notes-likes-test' });
      try {
        const r = await new ServiceBus(nc, 60_000).request(reconcileMessage('note'), { repair: false });
        expect(r.checked.notes).toBeGreaterThan(0);
        expect(r.checked.note_likes).toBeGreaterThanOrEqual(CROWD_SIZE - 30);
        expect(r.samples.filter((d) => d.id === note.id)).toEqual([]);
      } finally {
        await nc.close();
      }
    }, 60_000);

    it('deleting the note removes its likes', async () => {
      expectStatus(await del(`/v2/note/${note.id}`, { token: t.lea }), 200);
      expect((await get(`/v2/note/user_liked/${crowd(1).id}`, { token: t.lea })).body.notes.map((n: NoteBody) => n.id)).not.toContain(note.id);
      const left = await withNoteDatabase((db) => db.collection('note_likes').countDocuments({ note_id: note.id }));
      expect(left).toBe(0);
    });
  });
});
