import { tokenFor } from '../support/auth';
import { crowd } from '../support/fixtures';
import { api, expectError, get, post } from '../support/http';

/**
 * Clients that send `Content-Type: application/json` on every request, bodiless writes included
 * (docs/DECISIONS.md, "An empty body with any declared type is an empty body"): a like, an
 * unlike and a note's deletion answer as they do without the header (one rule in the gateway for
 * every route: event participation and interest take the same path).
 */
const json = (token: string) => ({ token, headers: { 'content-type': 'application/json' } });

describe('bodiless writes with a declared JSON body type', () => {
  let writer: string;
  let reader: string;

  beforeAll(async () => {
    [writer, reader] = await Promise.all([tokenFor(crowd(181)), tokenFor(crowd(182))]);
  });

  it('likes, unlikes and deletes a note', async () => {
    const note = await post('/v2/notes', { token: writer, form: { title: 'Typed', content: 'always typed' } });
    expect(note.status).toBe(201);
    const id = note.body.id as string;
    const liked = await api('POST', `/v2/note/${id}/like`, json(reader));
    expect({ status: liked.status, liked_count: liked.body.liked_count }).toEqual({ status: 202, liked_count: 1 });
    const unliked = await api('DELETE', `/v2/note/${id}/like`, json(reader));
    expect({ status: unliked.status, liked_count: unliked.body.liked_count }).toEqual({ status: 202, liked_count: 0 });
    const deleted = await api('DELETE', `/v2/note/${id}`, json(writer));
    expect(deleted.status).toBeLessThan(300);
    // a missing note is 400/1006 (docs/api/note.md)
    expectError(await get(`/v2/note/${id}`, { token: writer }), 400, 1006);
  });
});
