import { clientToken, tokenFor } from '../support/auth';
import { Apps } from '../support/fixtures';
import { del, expectError, get, post } from '../support/http';
import { Events, EventUsers } from './event-fixtures';

const eventUser = (u: { id: string; uid: string; name: string }) => ({
  avatar: expect.stringMatching(/^https?:\/\//),
  alt: expect.stringMatching(/^https?:\/\//),
  id: u.id,
  name: u.name,
  uid: u.uid,
});

const countsOf = async (id: string) => {
  const { body } = await get(`/v2/event/${id}`);
  return { participant_count: body.participant_count, wisher_count: body.wisher_count };
};

describe('event writes: who may write', () => {
  const paths = [
    ['POST', `/v2/event/${Events.hike}/participants`],
    ['DELETE', `/v2/event/${Events.hike}/participants`],
    ['POST', `/v2/event/${Events.treePlanting}/wishers`],
    ['DELETE', `/v2/event/${Events.treePlanting}/wishers`],
  ] as const;
  const send = (method: string, path: string, token?: string) => (method === 'POST' ? post(path, { token }) : del(path, { token }));

  it.each(paths)('%s %s without a token is 403/1000', async (method, path) => {
    expectError(await send(method, path), 403, 1000, `${method} ${path}`);
  });

  it.each(paths)('%s %s with an app-only token is 403/1000', async (method, path) => {
    expectError(await send(method, path, await clientToken(Apps.premium)), 403, 1000);
  });

  it.each(paths)('%s %s with a token lacking event_basic_w is 403/109', async (method, path) => {
    expectError(await send(method, path, await tokenFor(EventUsers.stranger, Apps.premium, 'event_basic_r')), 403, 109);
  });

  it('changed nothing on the way', async () => {
    expect(await countsOf(Events.hike)).toEqual({ participant_count: 0, wisher_count: 0 });
    expect(await countsOf(Events.treePlanting)).toEqual({ participant_count: 0, wisher_count: 0 });
  });

  it.each([['POST', 'participants'], ['DELETE', 'participants'], ['POST', 'wishers'], ['DELETE', 'wishers']])(
    '%s on the %s of a missing event is 404/1001', async (method, what) => {
      const token = await tokenFor(EventUsers.stranger);
      expectError(await send(method, `/v2/event/69999/${what}`, token), 404, 1001);
    },
  );
});

describe('POST and DELETE /v2/event/:id/participants', () => {
  const path = `/v2/event/${Events.hike}/participants`;

  it('joins (202 with the Event), and joining again changes nothing', async () => {
    const token = await tokenFor(EventUsers.joiner);
    const first = await post(path, { token });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ id: Events.hike, title: '周末徒步', participant_count: 1, wisher_count: 0, category: 'travel' });
    expect(first.body.owner).toEqual(eventUser(EventUsers.host));
    const again = await post(path, { token });
    expect(again.status).toBe(202);
    expect(again.body.participant_count).toBe(1);
    expect(await countsOf(Events.hike)).toEqual({ participant_count: 1, wisher_count: 0 });
  });

  it('shows the participant in the event user list and the event in their list', async () => {
    const users = (await get(path)).body;
    expect(users).toEqual({ start: 0, count: 1, total: 1, users: [eventUser(EventUsers.joiner)] });
    const theirs = (await get(`/v2/event/user_participated/${EventUsers.joiner.id}`, { query: { status: 'ongoing' } })).body;
    expect(theirs.events.map((e: { id: string }) => e.id)).toEqual([Events.hike]);
  });

  it('leaves (202 with the Event), and leaving again changes nothing', async () => {
    const token = await tokenFor(EventUsers.joiner);
    const first = await del(path, { token });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ id: Events.hike, participant_count: 0 });
    const again = await del(path, { token });
    expect(again.status).toBe(202);
    expect(again.body.participant_count).toBe(0);
    expect((await get(path)).body).toEqual({ start: 0, count: 0, total: 0, users: [] });
    expect((await get(`/v2/event/user_participated/${EventUsers.joiner.id}`)).body.total).toBe(0);
  });

  it('leaving an event one never joined changes nothing', async () => {
    const before = await countsOf(Events.festival);
    const res = await del(`/v2/event/${Events.festival}/participants`, { token: await tokenFor(EventUsers.nobody) });
    expect(res.status).toBe(202);
    expect(res.body.participant_count).toBe(before.participant_count);
    expect(await countsOf(Events.festival)).toEqual(before);
  });
});

describe('participate_date', () => {
  const path = `/v2/event/${Events.datedExhibition}/participants`;

  it.each([['2099-02-30'], ['2099-13-01'], ['2099-00-10'], ['2099-1-5'], ['20991101'], ['tomorrow'], ['2099-11-01 10:00:00'], ['2100-02-29']])(
    'refuses %j with 400/1016 and joins no one', async (participate_date) => {
      const res = await post(path, { token: await tokenFor(EventUsers.dater), form: { participate_date } });
      expectError(res, 400, 1016);
      expect((await countsOf(Events.datedExhibition)).participant_count).toBe(0);
    },
  );

  it('takes a real date from a form, JSON, multipart or the query string; an empty one means undecided', async () => {
    const token = await tokenFor(EventUsers.dater);
    const form = await post(path, { token, form: { participate_date: '2099-11-02' } });
    expect(form.status).toBe(202);
    expect(form.body.participant_count).toBe(1);
    const json = await post(path, { token, json: { participate_date: '2096-02-29' } });
    expect(json.status).toBe(202);
    const parts = new FormData();
    parts.set('participate_date', '2099-11-03');
    expect((await post(path, { token, multipart: parts })).status).toBe(202);
    expect((await post(path, { token, query: { participate_date: '2099-11-04' } })).status).toBe(202);
    expect((await post(path, { token, form: { participate_date: '' } })).status).toBe(202);
    expectError(await post(path, { token, json: { participate_date: 20991101 } }), 400, 1016);
    // changing the day is not a second participation
    expect((await countsOf(Events.datedExhibition)).participant_count).toBe(1);
    expect((await del(path, { token })).body.participant_count).toBe(0);
  });
});

describe('POST and DELETE /v2/event/:id/wishers', () => {
  const path = `/v2/event/${Events.treePlanting}/wishers`;

  it('marks interest (202 with the Event); marking again changes nothing', async () => {
    const token = await tokenFor(EventUsers.wisher);
    const first = await post(path, { token });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ id: Events.treePlanting, wisher_count: 1, participant_count: 0 });
    expect((await post(path, { token })).body.wisher_count).toBe(1);
    expect((await get(path)).body).toEqual({ start: 0, count: 1, total: 1, users: [eventUser(EventUsers.wisher)] });
    expect((await get(`/v2/event/user_wished/${EventUsers.wisher.id}`)).body.events.map((e: { id: string }) => e.id)).toEqual([Events.treePlanting]);
  });

  it('removes interest (202 with the Event); removing again changes nothing', async () => {
    const token = await tokenFor(EventUsers.wisher);
    const first = await del(path, { token });
    expect(first.status).toBe(202);
    expect(first.body.wisher_count).toBe(0);
    expect((await del(path, { token })).body.wisher_count).toBe(0);
    expect((await get(path)).body).toEqual({ start: 0, count: 0, total: 0, users: [] });
  });

  it('removing interest one never had changes nothing', async () => {
    const before = await countsOf(Events.festival);
    const res = await del(`/v2/event/${Events.festival}/wishers`, { token: await tokenFor(EventUsers.nobody) });
    expect(res.status).toBe(202);
    expect(await countsOf(Events.festival)).toEqual(before);
  });
});

describe('GET /v2/event/:id/participants and wishers', () => {
  it('lists the users of an event in the event user shape', async () => {
    const body = (await get(`/v2/event/${Events.festival}/participants`)).body;
    expect(body).toMatchObject({ start: 0, count: 2, total: 2 });
    expect(body.users).toEqual(expect.arrayContaining([eventUser(EventUsers.guest), eventUser(EventUsers.lister)]));
    for (const u of body.users) expect(Object.keys(u).sort()).toEqual(['alt', 'avatar', 'id', 'name', 'uid']);
    expect((await get(`/v2/event/${Events.festival}/wishers`)).body).toEqual({ start: 0, count: 1, total: 1, users: [eventUser(EventUsers.fan)] });
  });

  it('pages and shapes: count=1, count=0 with the total, fields on each user, bad start', async () => {
    const one = (await get(`/v2/event/${Events.festival}/participants`, { query: { count: 1 } })).body;
    expect(one).toMatchObject({ start: 0, count: 1, total: 2 });
    const rest = (await get(`/v2/event/${Events.festival}/participants`, { query: { start: 1, count: 1 } })).body;
    expect(rest.users[0].id).not.toBe(one.users[0].id);
    expect((await get(`/v2/event/${Events.festival}/participants`, { query: { count: 0 } })).body).toEqual({ start: 0, count: 0, total: 2, users: [] });
    const ids = (await get(`/v2/event/${Events.festival}/participants`, { query: { fields: 'uid' } })).body;
    expect(ids.users).toEqual(expect.arrayContaining([{ uid: EventUsers.guest.uid }, { uid: EventUsers.lister.uid }]));
    expectError(await get(`/v2/event/${Events.festival}/wishers`, { query: { start: '-3' } }), 400, 1016);
  });

  it('answers a missing event with 404/1001', async () => {
    expectError(await get('/v2/event/69999/participants'), 404, 1001);
    expectError(await get('/v2/event/69999/wishers'), 404, 1001);
  });

  it('answers as JSONP', async () => {
    const res = await get(`/v2/event/${Events.festival}/wishers`, { query: { callback: 'w', fields: 'id' } });
    expect(res.text).toBe(`/**/w({"start":0,"count":1,"total":1,"users":[{"id":"${EventUsers.fan.id}"}]});`);
  });
});
