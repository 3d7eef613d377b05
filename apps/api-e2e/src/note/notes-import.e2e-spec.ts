import { tokenFor } from '../support/auth';
import { PASSWORD, user } from '../support/fixtures';
import { expectError, get, post } from '../support/http';
import { ImportRun, importRecords } from '../support/import';

/**
 * Import of notes, comments and likes (docs/api/note.md, "Import"). Users of its own (4081-4083);
 * note and comment ids of this run (9 digits), so the suite passes again on a stack it ran on.
 */
const Ida = user('4081', 'note_imp_ida', 'Ida');
const Ivo = user('4082', 'note_imp_ivo', 'Ivo');
const Ian = user('4083', 'note_imp_ian', 'Ian');
const RUN = String(Date.now()).slice(-6);
const noteId = (n: number) => `8${RUN}${n}`;
const commentId = (n: number) => `7${RUN}${n}`;
/**
 * Ids of refused lines: below this run's imported notes, so never one the API hands out next (an
 * import moves the note id sequence past the ids it brings, and other suites create notes meanwhile).
 */
const refusedNoteId = (n: number) => `6${RUN}${n}`;
const PICTURE = 'https://img.example.org/notes/blossoms.jpg';

function expectLoaded(result: ImportRun): void {
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
}

const users = [Ida, Ivo, Ian].map((u) => ({ kind: 'user', id: u.id, uid: u.uid, name: u.name, password: PASSWORD }));
const file = [
  ...users,
  {
    kind: 'note', id: noteId(1), author_id: Ida.id, title: '春天的散步', privacy: 'public', can_reply: true,
    content: 'Spring walk <b>by the river</b>.\n<图片p_1>\nmap at https://maps.example.org/river',
    photos: { 1: PICTURE }, publish_time: '2024-04-02 18:02:45', update_time: '2024-04-02 18:20:11',
  },
  // a picture with the layout and caption that `<图片p_N>` references take (an export's form)
  { kind: 'note', id: noteId(3), author_id: Ida.id, title: 'Ducks', content: '<图片p_1>', photos: { 1: { src: PICTURE, layout: 'r', desc: 'On the pond' } }, publish_time: '2024-04-04 09:00:00' },
  { kind: 'note', id: noteId(2), author: { uid: Ivo.uid }, title: 'Quiet', content: 'no pictures', privacy: 'friend', can_reply: 'false', publish_time: '2024-04-03T10:00:00+08:00' },
  { kind: 'note_comment', id: commentId(1), note_id: noteId(1), author_id: Ivo.id, content: 'Lovely!', created: '2024-04-02 19:00:00' },
  { kind: 'note_comment', id: commentId(2), note_id: noteId(1), author: { uid: Ian.uid }, content: '好看', created: '2024-04-02 20:00:00' },
  { kind: 'note_like', note_id: noteId(1), user_id: Ivo.id, created: '2024-04-02 19:30:00' },
  { kind: 'note_like', note_id: noteId(1), user_id: Ian.id, created: '2024-04-02 19:40:00' },
];

describe('note import (docs/api/note.md, "Import")', () => {
  let t: Record<'ida' | 'ivo' | 'ian', string>;
  const read = async (id: string, token = t.ida) => (await get(`/v2/note/${id}`, { token })).body;
  const snapshot = async () => Promise.all([
    read(noteId(1)), read(noteId(2), t.ivo), (await get(`/v2/note/${noteId(1)}/comments`, { token: t.ida })).body,
    (await get(`/v2/note/user_liked/${Ivo.id}`, { token: t.ivo })).body,
  ]);

  beforeAll(async () => {
    expectLoaded(importRecords(file));
    t = { ida: await tokenFor(Ida), ivo: await tokenFor(Ivo), ian: await tokenFor(Ian) };
  }, 60_000);

  it('keeps ids, times, the author, markup, pictures by address and exact counters', async () => {
    const note = await read(noteId(1));
    expect(note).toMatchObject({
      id: noteId(1), title: '春天的散步', privacy: 'public', can_reply: true,
      content: `Spring walk <b>by the river</b>.\n[img=1:C][/img]\nmap at [url="https://maps.example.org/river"]https://maps.example.org/river[/url]`,
      photos: { 1: PICTURE }, publish_time: '2024-04-02 18:02:45', update_time: '2024-04-02 18:20:11',
      comments_count: 2, liked_count: 2, author: { id: Ida.id, uid: Ida.uid, name: 'Ida' },
    });
    expect((await get(`/v2/note/${noteId(1)}`, { token: t.ivo, query: { format: 'html_full' } })).body.content).toContain(`<img src="${PICTURE}"`);
    expect(await read(noteId(2), t.ivo)).toMatchObject({ id: noteId(2), author: { id: Ivo.id }, privacy: 'friend', can_reply: false, publish_time: '2024-04-03 10:00:00', update_time: '2024-04-03 10:00:00', comments_count: 0, liked_count: 0 });
    expect(await read(noteId(3))).toMatchObject({ content: '[img=1:R]On the pond[/img]', photos: { 1: PICTURE } });
    const comments = (await get(`/v2/note/${noteId(1)}/comments`, { token: t.ian })).body;
    expect(comments).toMatchObject({ total: 2, comments: [
      { id: commentId(1), created: '2024-04-02 19:00:00', content: 'Lovely!', author: { id: Ivo.id } },
      { id: commentId(2), created: '2024-04-02 20:00:00', content: '好看', author: { id: Ian.id } },
    ] });
    expect((await get(`/v2/note/user_liked/${Ian.id}`, { token: t.ida })).body.notes.map((n: { id: string }) => n.id)).toEqual([noteId(1)]);
  });

  it('changes nothing when the same file is imported again', async () => {
    const before = await snapshot();
    expectLoaded(importRecords(file));
    expect(await snapshot()).toEqual(before);
  }, 60_000);

  it('keeps what users added on top, and the counters stay exact through another import', async () => {
    expect((await post(`/v2/note/${noteId(1)}/like`, { token: t.ida })).body.liked_count).toBe(3);
    const added = await post(`/v2/note/${noteId(1)}/comments`, { token: t.ida, json: { content: 'thanks' } });
    expect(added.status).toBe(201);
    expectLoaded(importRecords(file));
    expect(await read(noteId(1))).toMatchObject({ liked_count: 3, comments_count: 3 });
  }, 60_000);

  it('gives notes and comments written later through the API ids past the imported ones', async () => {
    const note = await post('/v2/notes', { token: t.ian, json: { title: 'after the import', content: 'new' } });
    expect(note.status).toBe(201);
    expect(BigInt(note.body.id)).toBeGreaterThan(BigInt(noteId(2)));
    const comment = await post(`/v2/note/${noteId(1)}/comments`, { token: t.ian, json: { content: 'later' } });
    expect(BigInt(comment.body.id)).toBeGreaterThan(BigInt(commentId(2)));
  });

  it('moves a re-imported comment to its new note, both counts following; a changed privacy reaches the likes', async () => {
    expectLoaded(importRecords([{ kind: 'note_comment', id: commentId(1), note_id: noteId(2), author_id: Ivo.id, content: 'moved', created: '2024-04-02 19:00:00' }]));
    expect((await read(noteId(1))).comments_count).toBe(3 - 1 + 1); // the API comment "thanks" and "later" stay, "Lovely!" left
    expect((await read(noteId(2), t.ivo)).comments_count).toBe(1);
    expectLoaded(importRecords([{ ...file[3], privacy: 'private' }]));
    // Ivo liked Ida's note, now private: another user no longer sees it among Ivo's likes
    expect((await get(`/v2/note/user_liked/${Ivo.id}`, { token: t.ian })).body.total).toBe(0);
    expectLoaded(importRecords([file[3]]));
    expect((await get(`/v2/note/user_liked/${Ivo.id}`, { token: t.ian })).body.total).toBe(1);
  }, 60_000);

  it('reports each bad line with its reason and stores nothing of it', async () => {
    const result = importRecords([
      { kind: 'note', id: refusedNoteId(5), author_id: '4999', title: 't', content: 'c', publish_time: '2024-01-01 00:00:00' },
      { kind: 'note', id: refusedNoteId(6), author_id: Ida.id, title: 't', content: '<图片p_2>', publish_time: '2024-01-01 00:00:00' },
      { kind: 'note', id: refusedNoteId(7), author_id: Ida.id, title: 't', content: 'c', photos: { 1: 'javascript:alert(1)' }, publish_time: '2024-01-01 00:00:00' },
      { kind: 'note', id: refusedNoteId(8), author_id: Ida.id, title: 't', content: 'c', privacy: 'everyone', publish_time: '2024-01-01 00:00:00' },
      { kind: 'note', id: refusedNoteId(9), author_id: Ida.id, title: 't', content: 'c', publish_time: 'yesterday' },
      { kind: 'note_comment', id: commentId(5), note_id: '999999999999', author_id: Ida.id, content: 'x', created: '2024-01-01 00:00:00' },
      { kind: 'note_comment', id: commentId(6), note_id: noteId(1), author_id: Ida.id, content: 'x'.repeat(1001), created: '2024-01-01 00:00:00' },
      { kind: 'note_like', note_id: '999999999999', user_id: Ida.id },
      { kind: 'note_like', note_id: noteId(1), user_id: '4999' },
      { kind: 'note', id: 'abc', author_id: Ida.id, title: 't', content: 'c', publish_time: '2024-01-01 00:00:00' },
      { kind: 'note', id: refusedNoteId(11), author_id: Ida.id, title: 't', content: 'c', photos: { 1: { src: PICTURE, layout: 'top' } }, publish_time: '2024-01-01 00:00:00' },
      { kind: 'note', id: refusedNoteId(12), author_id: Ida.id, title: 't', content: 'c', photos: { 1: { src: PICTURE, desc: 'x'.repeat(501) } }, publish_time: '2024-01-01 00:00:00' },
    ]);
    expect(result.status).toBe(1);
    const problems = result.stderr.trim().split('\n');
    expect(problems.map((l) => Number(/^line (\d+)/.exec(l)?.[1]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(problems[0]).toMatch(/unknown author 4999/);
    expect(problems[1]).toMatch(/picture/);
    expect(problems[2]).toMatch(/photos\.1 is not an http or https address/);
    expect(problems[3]).toMatch(/privacy/);
    expect(problems[4]).toMatch(/publish_time is not a timestamp/);
    expect(problems[5]).toMatch(/no note 999999999999/);
    expect(problems[6]).toMatch(/content/);
    expect(problems[7]).toMatch(/no note 999999999999/);
    expect(problems[8]).toMatch(/unknown user 4999/);
    expect(problems[9]).toMatch(/id must be a string of at most 15 digits/);
    expect(problems[10]).toMatch(/photos\.1\.layout is not L, C or R/);
    expect(problems[11]).toMatch(/photos\.1\.desc is not a text of at most 500 characters/);
    for (const n of [5, 6, 7, 8, 9, 11, 12]) expectError(await get(`/v2/note/${refusedNoteId(n)}`, { token: t.ida }), 400, 1006);
    expect((await read(noteId(1))).liked_count).toBe(3);
  }, 60_000);
});
