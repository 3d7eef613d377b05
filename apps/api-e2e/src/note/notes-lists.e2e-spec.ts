import { tokenFor } from '../support/auth';
import { PASSWORD, user } from '../support/fixtures';
import { del, get, post, put } from '../support/http';
import { importRecords } from '../support/import';
import { createNote, expectStatus, NoteBody } from './note-fixtures';

/**
 * A user's list (`GET /v2/note/user_created/:id`) stays right through every write of the note
 * service: on the local engine it is answered from the notes held by author, on MongoDB from an
 * index (docs/ENGINES.md), and the suite runs on both. Users of its own (4091-4093, imported here):
 * Ivy writes, Ian is her friend, Ida a stranger.
 */
const Ivy = user('4091', 'note_list_ivy', 'Ivy');
const Ian = user('4092', 'note_list_ian', 'Ian');
const Ida = user('4093', 'note_list_ida', 'Ida');

const SEES = { ivy: ['public', 'friend', 'private'], ian: ['public', 'friend'], ida: ['public'] } as const;
type Reader = keyof typeof SEES;

describe("a user's notes follow every write", () => {
  let t: Record<Reader, string>;
  /** Ivy's notes as each was last answered by a write, newest first (each is newer than the one after it). */
  let notes: NoteBody[] = [];

  const listOf = async (owner: { id: string }, reader: Reader, query: Record<string, number> = { count: 100 }) => {
    const res = await get(`/v2/note/user_created/${owner.id}`, { token: t[reader], query });
    expectStatus(res, 200);
    return res.body as { start: number; count: number; total: number; notes: NoteBody[] };
  };

  /** Every reader's list of Ivy's notes is exactly what a note read by id shows, of the privacies they may see. */
  async function expectLists(): Promise<void> {
    for (const reader of Object.keys(SEES) as Reader[]) {
      const visible = notes.filter((n) => (SEES[reader] as readonly string[]).includes(n.privacy));
      const list = await listOf(Ivy, reader);
      expect({ reader, total: list.total, ids: list.notes.map((n) => n.id) }).toEqual({ reader, total: visible.length, ids: visible.map((n) => n.id) });
      for (const note of list.notes) expect(note).toEqual((await get(`/v2/note/${note.id}`, { token: t.ivy })).body);
    }
  }

  const replace = (changed: NoteBody) => (notes = notes.map((n) => (n.id === changed.id ? changed : n)));

  beforeAll(async () => {
    const users = [Ivy, Ian, Ida].map((u) => ({ kind: 'user', id: u.id, uid: u.uid, name: u.name, password: PASSWORD }));
    const result = importRecords([...users, { kind: 'friendship', user_id: Ivy.id, friend_id: Ian.id }]);
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    t = { ivy: await tokenFor(Ivy), ian: await tokenFor(Ian), ida: await tokenFor(Ida) };
    // a stack the suite ran on before holds Ivy's notes of that run: they go first
    for (const note of (await listOf(Ivy, 'ivy')).notes) expectStatus(await del(`/v2/note/${note.id}`, { token: t.ivy }), 200);
  }, 60_000);

  it('lists new notes at once, each reader the privacies they may see', async () => {
    for (const privacy of ['public', 'friend', 'private', 'public', 'friend'] as const) {
      notes.unshift(await createNote(t.ivy, { title: `${privacy} ${notes.length + 1}`, content: `a ${privacy} note`, privacy }));
    }
    await expectLists();
    const page = await listOf(Ivy, 'ian', { start: 1, count: 2 });
    const friendVisible = notes.filter((n) => n.privacy !== 'private');
    expect({ total: page.total, count: page.count, ids: page.notes.map((n) => n.id) }).toEqual({ total: friendVisible.length, count: 2, ids: friendVisible.slice(1, 3).map((n) => n.id) });
    expect(await listOf(Ivy, 'ida', { count: 0 })).toEqual({ start: 0, count: 0, total: 2, notes: [] });
  });

  it('shows an edit, and a change of privacy moves the note into or out of each list', async () => {
    const [newest, , privateOne, , oldest] = notes;
    const edited = await put(`/v2/note/${oldest.id}`, { token: t.ivy, json: { title: 'edited', content: 'rewritten', privacy: 'public' } });
    expectStatus(edited, 202);
    replace(edited.body);
    for (const [note, privacy] of [[newest, 'private'], [privateOne, 'public']] as const) {
      const res = await put(`/v2/note/${note.id}`, { token: t.ivy, json: { title: note.title, content: note.content, privacy } });
      expectStatus(res, 202);
      replace(res.body);
    }
    await expectLists();
    expect((await listOf(Ivy, 'ida')).notes.map((n) => n.title)).toContain('edited');
  });

  it("shows each note's likes and comments as they are counted", async () => {
    const shared = notes.find((n) => n.privacy === 'friend') as NoteBody;
    const open = notes.find((n) => n.privacy === 'public') as NoteBody;
    expectStatus(await post(`/v2/note/${shared.id}/like`, { token: t.ian }), 202);
    expectStatus(await post(`/v2/note/${open.id}/like`, { token: t.ida }), 202);
    expectStatus(await post(`/v2/note/${open.id}/comments`, { token: t.ian, json: { content: 'nice' } }), 201);
    for (const id of [shared.id, open.id]) replace((await get(`/v2/note/${id}`, { token: t.ivy })).body);
    expect(notes.find((n) => n.id === open.id)).toMatchObject({ liked_count: 1, comments_count: 1 });
    await expectLists();
    expectStatus(await del(`/v2/note/${open.id}/like`, { token: t.ida }), 202);
    replace((await get(`/v2/note/${open.id}`, { token: t.ivy })).body);
    await expectLists();
  });

  it('drops a deleted note from every list', async () => {
    const doomed = notes.find((n) => n.privacy === 'public') as NoteBody;
    expectStatus(await del(`/v2/note/${doomed.id}`, { token: t.ivy }), 200);
    notes = notes.filter((n) => n.id !== doomed.id);
    await expectLists();
  });

  it("follows an import that rewrites a note, its author included, into both users' lists", async () => {
    const moved = notes.find((n) => n.privacy !== 'private') as NoteBody;
    const result = importRecords([{ kind: 'note', id: moved.id, author_id: Ian.id, title: 'now Ian’s', content: 'imported', privacy: 'public', publish_time: '2024-04-02 18:02:45' }]);
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    notes = notes.filter((n) => n.id !== moved.id);
    await expectLists();
    const ians = await listOf(Ian, 'ida');
    expect(ians.notes.map((n) => ({ id: n.id, title: n.title, author: n.author.id }))).toContainEqual({ id: moved.id, title: 'now Ian’s', author: Ian.id });
    expectStatus(await del(`/v2/note/${moved.id}`, { token: t.ian }), 200);
    expect((await listOf(Ian, 'ian')).notes.map((n) => n.id)).not.toContain(moved.id);
  }, 60_000);
});
