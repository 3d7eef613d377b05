import { tokenFor } from '../support/auth';
import { expectError, get } from '../support/http';
import { createNote, NoteUsers } from './note-fixtures';

/**
 * Users whose uid is made of digits (docs/api/oauth.md allows it): `digits` (id 4073) has the
 * uid "4071", which is also `abe`'s id; `nines` (id 4075) has the uid "4099", which is no one's id.
 * A path's `:id` names a user by id, and an author is always shown as the user who wrote.
 */
const { abe, digits, nines } = NoteUsers;

describe('notes and uids of digits', () => {
  it('gives 404/1001 for the notes of an id no user has, even when a uid reads the same', async () => {
    const token = await tokenFor(abe);
    expectError(await get(`/v2/note/user_created/${nines.uid}`, { token }), 404, 1001);
    expectError(await get(`/v2/note/user_liked/${nines.uid}`, { token }), 404, 1001);
    expect((await get(`/v2/note/user_created/${nines.id}`, { token })).status).toBe(200);
  });

  it('shows each note with its own author, whichever was looked up first', async () => {
    const abeToken = await tokenFor(abe);
    // the username is the uid (docs/api/oauth.md): "4071" signs in digits, not the user of id 4071
    const digitsToken = await tokenFor(digits);
    const byAbe = await createNote(abeToken, { title: 'By Abe', content: 'Abe wrote this.' });
    const byDigits = await createNote(digitsToken, { title: 'By Digits', content: 'Digits wrote this.' });
    expect(byDigits.author).toMatchObject({ id: digits.id, uid: digits.uid, name: digits.name });

    // the note service has just looked up user 4073, whose uid is "4071"
    expect((await get(`/v2/note/${byDigits.id}`, { token: abeToken })).body.author).toMatchObject({ id: digits.id, name: digits.name });
    expect((await get(`/v2/note/${byAbe.id}`, { token: abeToken })).body.author).toMatchObject({ id: abe.id, uid: abe.uid, name: abe.name });
    const listed = (await get(`/v2/note/user_created/${abe.id}`, { token: abeToken })).body.notes;
    expect(listed.map((n: { author: { id: string } }) => n.author.id)).toEqual([abe.id]);
  });
});
