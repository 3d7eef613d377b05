import { tokenFor } from '../support/auth';
import { expectError, get, post, put } from '../support/http';
import { readCutList } from '../support/paging';
import { createNote, NoteUsers } from './note-fixtures';

/**
 * What a note may hold, judged on what is stored and sent back (docs/api/note.md "Limits"):
 * - content of control characters only is no content (400/1002), as a blank one;
 * - the stored form (links and pictures written out) keeps the 100 000-character limit, so what
 *   a client reads back as `text` it can always PUT again;
 * - a page of long notes is cut to what one NATS message carries, its `count` saying how many came.
 */
const lena = NoteUsers.lena;
const created = async (token: string) => (await get(`/v2/note/user_created/${lena.id}`, { token })).body.total as number;

describe('note limits', () => {
  it('refuses content, a title or a comment made of control characters only, and stores nothing', async () => {
    const token = await tokenFor(lena);
    const before = await created(token);
    expectError(await post('/v2/notes', { token, json: { title: 'Controls', content: '\u0000\u0001' } }), 400, 1002, 'POST /v2/notes');
    expectError(await post('/v2/notes', { token, json: { title: 'Controls', content: '\u0007\n\u001f ' } }), 400, 1002);
    expectError(await post('/v2/notes', { token, json: { title: '\u0000', content: 'Some text.' } }), 400, 1012);
    expect(await created(token)).toBe(before);

    const note = await createNote(token, { title: 'Kept', content: 'Kept as it is.' });
    expectError(await put(`/v2/note/${note.id}`, { token, json: { title: 'Kept', content: '\u0000' } }), 400, 1002);
    expectError(await post(`/v2/note/${note.id}/comments`, { token, json: { content: '\u0001\n' } }), 400, 1002);
    const after = (await get(`/v2/note/${note.id}`, { token })).body;
    expect(after.content).toBe('Kept as it is.');
    expect(after.comments_count).toBe(0);
  });

  it('refuses content whose stored form passes 100 000 characters, and stores nothing', async () => {
    const token = await tokenFor(lena);
    const before = await created(token);
    // 99 990 + 21 characters as sent; the bare address is stored as [url="…"]…[/url]
    const content = `${'a'.repeat(99_990)} https://example.org/`;
    const res = await post('/v2/notes', { token, json: { title: 'Too long once stored', content } });
    expectError(res, 400, 1016);
    expect(res.body.msg).toBe('invalid_args');
    expect(await created(token)).toBe(before);
  });

  it('takes back, unchanged, a note near the limit read as text', async () => {
    const token = await tokenFor(lena);
    const note = await createNote(token, { title: 'Near the limit', content: `${'a'.repeat(99_900)} https://example.org/` });
    const text = (await get(`/v2/note/${note.id}?format=text`, { token })).body.content as string;
    expect(text.length).toBeGreaterThan(99_900);
    expect(text.length).toBeLessThanOrEqual(100_000);
    const res = await put(`/v2/note/${note.id}`, { token, json: { title: 'Near the limit', content: text } });
    expect(res.status).toBe(202);
    expect((await get(`/v2/note/${note.id}?format=text`, { token })).body.content).toBe(text);
  });

  it('cuts a page of long notes to what one message carries; paging on from start + count loses none', async () => {
    const token = await tokenFor(lena);
    const long = '春'.repeat(100_000); // 300 KB of JSON each: fifteen pass the page's 4 MiB
    const ids = new Set<string>((await get(`/v2/note/user_created/${lena.id}?count=100`, { token })).body.notes.map((n: { id: string }) => n.id));
    for (let i = 0; i < 15; i++) ids.add((await createNote(token, { title: `Long ${i}`, content: long })).id);

    const { ids: seen } = await readCutList(`/v2/note/user_created/${lena.id}`, 'notes', ids.size, token);
    expect(new Set(seen)).toEqual(ids);
    expect(seen).toHaveLength(ids.size);
    // the default page (20) of these is over the 1 MiB NATS carries by default: whole, not a 504
    const byDefault = await get(`/v2/note/user_created/${lena.id}`, { token });
    expect(byDefault.status).toBe(200);
    expect(byDefault.body.notes[0].content).toBe(long);
  }, 120_000);
});
