import { tokenFor } from '../support/auth';
import { del, expectError, get, post } from '../support/http';
import { Events, EventUsers, Locs } from './event-fixtures';

/**
 * 60005 is private (is_priv yes): owned by ev_private, with ev_guest taking part. It exists for
 * them only; everyone else, anonymous or logged in, gets 404/1001 and never sees it in a list.
 */
const party = Events.privateParty;
const ids = (body: { events: Array<{ id: string }> }) => body.events.map((e) => e.id);

describe('a private event', () => {
  let stranger: string;
  let guest: string;
  let owner: string;

  beforeAll(async () => {
    [stranger, guest, owner] = await Promise.all([
      tokenFor(EventUsers.stranger), tokenFor(EventUsers.guest), tokenFor(EventUsers.privateHost),
    ]);
  });

  it('is shown to its owner and to a participant', async () => {
    for (const token of [owner, guest]) {
      const res = await get(`/v2/event/${party}`, { token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: party, is_priv: 'yes', has_invited: 'yes', participant_count: 1, owner: { id: EventUsers.privateHost.id } });
    }
  });

  it('is 404/1001 for anyone else, anonymous or logged in', async () => {
    expectError(await get(`/v2/event/${party}`), 404, 1001);
    expectError(await get(`/v2/event/${party}`, { token: stranger }), 404, 1001);
  });

  it('hides its participants and wishers from anyone else', async () => {
    for (const what of ['participants', 'wishers']) {
      expectError(await get(`/v2/event/${party}/${what}`), 404, 1001);
      expectError(await get(`/v2/event/${party}/${what}`, { token: stranger }), 404, 1001);
      expect((await get(`/v2/event/${party}/${what}`, { token: guest })).status).toBe(200);
    }
    expect((await get(`/v2/event/${party}/participants`, { token: owner })).body.users.map((u: { id: string }) => u.id)).toEqual([EventUsers.guest.id]);
  });

  it('cannot be joined, left or wished by anyone else', async () => {
    for (const [send, what] of [[post, 'participants'], [del, 'participants'], [post, 'wishers'], [del, 'wishers']] as const) {
      expectError(await send(`/v2/event/${party}/${what}`, { token: stranger }), 404, 1001);
    }
    const seen = (await get(`/v2/event/${party}`, { token: owner })).body;
    expect({ p: seen.participant_count, w: seen.wisher_count }).toEqual({ p: 1, w: 0 });
  });

  it('is in the city list only for its owner and participants', async () => {
    expect(ids((await get('/v2/event/list', { query: { loc: Locs.beijing } })).body)).not.toContain(party);
    expect(ids((await get('/v2/event/list', { query: { loc: Locs.beijing }, token: stranger })).body)).not.toContain(party);
    for (const token of [owner, guest]) {
      const body = (await get('/v2/event/list', { query: { loc: Locs.beijing, type: 'party' }, token })).body;
      expect(ids(body)).toEqual([party]);
      expect(body.total).toBe(1);
    }
    expect((await get('/v2/event/list', { query: { loc: Locs.beijing, type: 'party' }, token: stranger })).body).toEqual({ start: 0, count: 0, total: 0, events: [] });
  });

  it("is in the owner's and the participant's user lists only for those who may see it", async () => {
    const created = `/v2/event/user_created/${EventUsers.privateHost.id}`;
    expect((await get(created)).body).toEqual({ start: 0, count: 0, total: 0, events: [] });
    expect((await get(created, { token: stranger })).body.total).toBe(0);
    expect(ids((await get(created, { token: owner })).body)).toEqual([party]);
    expect(ids((await get(created, { token: guest })).body)).toEqual([party]);

    const joined = `/v2/event/user_participated/${EventUsers.guest.id}`;
    expect((await get(joined, { token: stranger })).body).toMatchObject({ total: 1, events: [{ id: Events.festival }] });
    expect(ids((await get(joined, { token: guest })).body)).toEqual([Events.privateParty, Events.festival]);
    expect(ids((await get(joined, { token: owner, query: { status: 'ongoing' } })).body)).toEqual([Events.privateParty, Events.festival]);
  });

  // last: it leaves the event without its participant (each e2e run starts from fresh fixtures)
  it('can be joined and left by its owner; a participant who leaves loses sight of it', async () => {
    const joined = await post(`/v2/event/${party}/participants`, { token: owner });
    expect(joined.status).toBe(202);
    expect(joined.body.participant_count).toBe(2);
    const wished = await post(`/v2/event/${party}/wishers`, { token: guest });
    expect(wished.body.wisher_count).toBe(1);
    expect((await del(`/v2/event/${party}/wishers`, { token: guest })).body.wisher_count).toBe(0);
    expect((await del(`/v2/event/${party}/participants`, { token: owner })).body.participant_count).toBe(1);

    // the guest leaves (202 with the event as it now is), after which it is hidden from them too
    const left = await del(`/v2/event/${party}/participants`, { token: guest });
    expect(left.status).toBe(202);
    expect(left.body.participant_count).toBe(0);
    expectError(await get(`/v2/event/${party}`, { token: guest }), 404, 1001);
    expectError(await post(`/v2/event/${party}/participants`, { token: guest }), 404, 1001);
    expect((await get(`/v2/event/${party}`, { token: owner })).body.participant_count).toBe(0);
  });
});
