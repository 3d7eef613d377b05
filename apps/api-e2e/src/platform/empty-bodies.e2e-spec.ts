import { tokenFor } from '../support/auth';
import { crowd } from '../support/fixtures';
import { api, expectError, get, post } from '../support/http';
import { importRecords } from '../support/import';

/**
 * Clients that send `Content-Type: application/json` on every request, bodiless writes included
 * (docs/DECISIONS.md, "An empty body with any declared type is an empty body"): a like, an
 * unlike, a note's deletion, joining and wishing an event answer as they do without the header.
 */
const EVENT = '69901';
const json = (token: string) => ({ token, headers: { 'content-type': 'application/json' } });

describe('bodiless writes with a declared JSON body type', () => {
  let writer: string;
  let reader: string;

  beforeAll(async () => {
    [writer, reader] = await Promise.all([tokenFor(crowd(181)), tokenFor(crowd(182))]);
    const run = importRecords([{
      kind: 'event', id: EVENT, title: 'Empty bodies', content: 'An event for clients that always send a type.', category: 'party',
      begin_time: '2099-06-01 19:00:00', end_time: '2099-06-01 22:00:00', loc_id: '108288', owner: { id: '10181' }, address: 'Somewhere',
    }]);
    expect(run.status).toBe(0);
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

  it('joins and wishes an event, and leaves and unwishes it', async () => {
    for (const list of ['participants', 'wishers']) {
      const joined = await api('POST', `/v2/event/${EVENT}/${list}`, json(reader));
      expect(joined.status).toBeLessThan(300);
      const left = await api('DELETE', `/v2/event/${EVENT}/${list}`, json(reader));
      expect(left.status).toBeLessThan(300);
    }
    const { body } = await get(`/v2/event/${EVENT}`);
    expect({ participant_count: body.participant_count, wisher_count: body.wisher_count }).toEqual({ participant_count: 0, wisher_count: 0 });
  });
});
