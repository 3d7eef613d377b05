import { tokenFor } from '../support/auth';
import { PASSWORD, user } from '../support/fixtures';
import { del, expectError, get, post } from '../support/http';
import { importRecords } from '../support/import';

/**
 * An event's participants and wishers and a user's lists follow every write: join, leave, wish,
 * unwish, joining again, imported links and re-imported events. On the local engine these lists
 * are held in memory and kept by the event service's writes (docs/ENGINES.md), on MongoDB they
 * are indexed queries: this suite runs on both (jest.mongodb.config.js). Users, city and events
 * of its own (8 920 000s), so no other suite sees them.
 */
const [ann, ben, cat, owner] = [user('8921', 'evl_ann', 'Ann'), user('8922', 'evl_ben', 'Ben'), user('8923', 'evl_cat', 'Cat'), user('8924', 'evl_owner', 'Owner')];
const CITY = '892001';
const E = { june: '8920001', july: '8920002', secret: '8920003', ended: '8920004' };

const event = (id: string, title: string, begin: string, end: string, extra: Record<string, unknown> = {}) => ({
  kind: 'event', id, title, category: 'party', begin_time: begin, end_time: end, loc_id: CITY, owner: { id: owner.id }, ...extra,
});

const userIds = async (path: string, token?: string) => {
  const { body } = await get(path, { token, query: { count: 100 } });
  expect(body.count).toBe(body.users.length);
  return { total: body.total as number, ids: body.users.map((u: { id: string }) => u.id) as string[] };
};
const eventIds = async (path: string, token?: string, query: Record<string, string> = {}) => {
  const { body } = await get(path, { token, query: { count: 100, ...query } });
  return { total: body.total as number, ids: body.events.map((e: { id: string }) => e.id) as string[] };
};
const participants = (id: string, token?: string) => userIds(`/v2/event/${id}/participants`, token);
const wishers = (id: string) => userIds(`/v2/event/${id}/wishers`);
const participated = (u: { id: string }, token?: string, query?: Record<string, string>) => eventIds(`/v2/event/user_participated/${u.id}`, token, query);
const wished = (u: { id: string }) => eventIds(`/v2/event/user_wished/${u.id}`);
const created = (token?: string) => eventIds(`/v2/event/user_created/${owner.id}`, token);
const counts = async (id: string, token?: string) => {
  const { body } = await get(`/v2/event/${id}`, { token });
  return [body.participant_count, body.wisher_count];
};

/** Each write a millisecond apart at least: the lists put the latest first, ties by id. */
const later = () => new Promise((r) => setTimeout(r, 5));
async function write(method: 'POST' | 'DELETE', what: 'participants' | 'wishers', id: string, token: string): Promise<void> {
  await later();
  const res = method === 'POST' ? await post(`/v2/event/${id}/${what}`, { token }) : await del(`/v2/event/${id}/${what}`, { token });
  expect(res.status).toBe(202);
}

describe('the event lists after each write', () => {
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    const run = importRecords([
      ...[ann, ben, cat, owner].map((u) => ({ kind: 'user', id: u.id, uid: u.uid, name: u.name, password: PASSWORD })),
      { kind: 'loc', id: CITY, uid: 'event-list-upkeep-city', name: '名单城', parent: 'china' },
      event(E.june, '六月聚会', '2099-06-01 19:00:00', '2099-06-01 22:00:00'),
      event(E.july, '七月聚会', '2099-07-01 19:00:00', '2099-07-01 22:00:00'),
      event(E.secret, '私人聚会', '2099-08-01 19:00:00', '2099-08-01 22:00:00', { is_priv: 'yes' }),
      event(E.ended, '旧聚会', '2001-05-01 19:00:00', '2001-05-01 22:00:00'),
    ]);
    expect(run.status).toBe(0);
    for (const u of [ann, ben, cat, owner]) tokens[u.id] = await tokenFor(u);
  }, 60_000);

  it('join, leave and join again: the participants the latest first, the user lists and the counter with them', async () => {
    for (const u of [ann, ben, cat]) await write('POST', 'participants', E.june, tokens[u.id]);
    expect(await participants(E.june)).toEqual({ total: 3, ids: [cat.id, ben.id, ann.id] });
    expect(await participated(ann)).toEqual({ total: 1, ids: [E.june] });

    await write('DELETE', 'participants', E.june, tokens[ann.id]);
    expect(await participants(E.june)).toEqual({ total: 2, ids: [cat.id, ben.id] });
    expect(await participated(ann)).toEqual({ total: 0, ids: [] });
    // leaving twice changes nothing
    await write('DELETE', 'participants', E.june, tokens[ann.id]);
    expect(await participants(E.june)).toEqual({ total: 2, ids: [cat.id, ben.id] });

    await write('POST', 'participants', E.june, tokens[ann.id]);
    // joining again: the latest to join, once
    await write('POST', 'participants', E.june, tokens[ann.id]);
    expect(await participants(E.june)).toEqual({ total: 3, ids: [ann.id, cat.id, ben.id] });
    expect(await counts(E.june)).toEqual([3, 0]);

    await write('POST', 'participants', E.july, tokens[ann.id]);
    await write('POST', 'participants', E.ended, tokens[ann.id]);
    expect(await participated(ann)).toEqual({ total: 3, ids: [E.july, E.june, E.ended] });
    expect(await participated(ann, undefined, { status: 'ongoing' })).toEqual({ total: 2, ids: [E.july, E.june] });
    expect(await participated(ann, undefined, { status: 'expired' })).toEqual({ total: 1, ids: [E.ended] });
    // paging the user list and the event's list
    expect((await get(`/v2/event/user_participated/${ann.id}`, { query: { start: 1, count: 1 } })).body).toMatchObject({ start: 1, count: 1, total: 3, events: [{ id: E.june }] });
    expect((await get(`/v2/event/${E.june}/participants`, { query: { start: 2, count: 5 } })).body).toMatchObject({ start: 2, count: 1, total: 3, users: [{ id: ben.id }] });
  });

  it('wish, unwish and wish again: the wishers and the user lists follow', async () => {
    await write('POST', 'wishers', E.june, tokens[ann.id]);
    await write('POST', 'wishers', E.july, tokens[ann.id]);
    await write('POST', 'wishers', E.june, tokens[ben.id]);
    expect(await wishers(E.june)).toEqual({ total: 2, ids: [ben.id, ann.id] });
    expect(await wished(ann)).toEqual({ total: 2, ids: [E.july, E.june] });

    await write('DELETE', 'wishers', E.june, tokens[ann.id]);
    expect(await wishers(E.june)).toEqual({ total: 1, ids: [ben.id] });
    expect(await wished(ann)).toEqual({ total: 1, ids: [E.july] });

    await write('POST', 'wishers', E.june, tokens[ann.id]);
    expect(await wishers(E.june)).toEqual({ total: 2, ids: [ann.id, ben.id] });
    expect(await wished(ann)).toEqual({ total: 2, ids: [E.july, E.june] });
    expect(await counts(E.june)).toEqual([3, 2]);
    // taking part and being interested stay apart
    expect(await participants(E.june)).toEqual({ total: 3, ids: [ann.id, cat.id, ben.id] });
  });

  it("an imported participation is in the lists at once; a private event only in the lists of those who may see it", async () => {
    const run = importRecords([
      { kind: 'event_participant', event_id: E.secret, user_id: ben.id },
      // again, as an import run twice would: nothing changes
      { kind: 'event_participant', event_id: E.june, user_id: cat.id },
    ]);
    expect(run.status).toBe(0);
    expect(await participants(E.secret, tokens[owner.id])).toEqual({ total: 1, ids: [ben.id] });
    expect(await participants(E.june)).toEqual({ total: 3, ids: [ann.id, cat.id, ben.id] });
    expect(await counts(E.secret, tokens[ben.id])).toEqual([1, 0]);

    expect(await participated(ben, tokens[ben.id])).toEqual({ total: 2, ids: [E.secret, E.june] });
    expect(await participated(ben, tokens[owner.id])).toEqual({ total: 2, ids: [E.secret, E.june] });
    expect(await participated(ben, tokens[cat.id])).toEqual({ total: 1, ids: [E.june] });
    expect(await participated(ben)).toEqual({ total: 1, ids: [E.june] });
    expect(await created(tokens[ben.id])).toEqual({ total: 4, ids: [E.secret, E.july, E.june, E.ended] });
    expect(await created(tokens[cat.id])).toEqual({ total: 3, ids: [E.july, E.june, E.ended] });
    expectError(await get(`/v2/event/${E.secret}/participants`, { token: tokens[cat.id] }), 404, 1001);

    // leaving hides it again
    await write('DELETE', 'participants', E.secret, tokens[ben.id]);
    expect(await participated(ben, tokens[ben.id])).toEqual({ total: 1, ids: [E.june] });
    expect(await created(tokens[ben.id])).toEqual({ total: 3, ids: [E.july, E.june, E.ended] });
    expect(await participants(E.secret, tokens[owner.id])).toEqual({ total: 0, ids: [] });
  });

  it('a re-imported event moves in the lists: a new beginning reorders them, a new owner moves it between owners', async () => {
    const run = importRecords([event(E.july, '七月聚会', '2099-05-01 19:00:00', '2099-05-01 22:00:00', { owner: { id: cat.id } })]);
    expect(run.status).toBe(0);
    expect(await participated(ann)).toEqual({ total: 3, ids: [E.june, E.july, E.ended] });
    expect(await wished(ann)).toEqual({ total: 2, ids: [E.june, E.july] });
    expect(await created()).toEqual({ total: 2, ids: [E.june, E.ended] });
    expect(await eventIds(`/v2/event/user_created/${cat.id}`)).toEqual({ total: 1, ids: [E.july] });
    // the counters survive the re-import, and the page shows them
    const shown = (await get(`/v2/event/user_participated/${ann.id}`, { query: { fields: 'id,participant_count,wisher_count,begin_time' } })).body.events;
    expect(shown[1]).toEqual({ id: E.july, participant_count: 1, wisher_count: 1, begin_time: '2099-05-01 19:00:00' });
  });
});
