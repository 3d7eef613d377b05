import { expectError, get } from '../support/http';
import { Events, EventUsers, Locs, MARKET_COUNT, ShanghaiByType } from './event-fixtures';

const ids = (body: { events: Array<{ id: string }> }) => body.events.map((e) => e.id);
const list = (query: Record<string, string | number>) => get('/v2/event/list', { query });
/** The Shenzhen markets are 60301..60405, one a day, in id order. */
const market = (n: number) => String(60300 + n);

describe('GET /v2/event/list: parameters', () => {
  it('requires loc (400/1002), an empty loc counting as missing', async () => {
    expectError(await list({}), 400, 1002, 'GET /v2/event/list');
    expectError(await list({ loc: '' }), 400, 1002);
    // a blank one too, as every other parameter here (it named no city: 404/1001 before)
    expectError(await list({ loc: '  ' }), 400, 1002);
    expectError(await list({ day_type: 'today' }), 400, 1002);
  });

  it('answers an unknown city with 404/1001', async () => {
    expectError(await list({ loc: '999999' }), 404, 1001);
    expectError(await list({ loc: 'atlantis' }), 404, 1001);
  });

  it.each([['day_type', 'someday'], ['day_type', '1'], ['type', 'concert'], ['type', '9'], ['type', '19']])(
    'refuses %s=%s with 400/1016', async (name, value) => {
      expectError(await list({ loc: Locs.shanghai, [name]: value }), 400, 1016);
    },
  );

  it('takes the city as id, uid or Chinese name', async () => {
    const byId = (await list({ loc: Locs.shanghai })).body;
    expect((await list({ loc: 'shanghai' })).body).toEqual(byId);
    expect((await list({ loc: '上海' })).body).toEqual(byId);
  });
});

describe('GET /v2/event/list: types', () => {
  const shanghaiAll = Object.values(ShanghaiByType).flat().sort();

  it('lists every event of the city that has not ended, soonest first (default day_type future, type all)', async () => {
    const res = await list({ loc: Locs.shanghai });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(shanghaiAll);
    expect(res.body).toMatchObject({ start: 0, count: 11, total: 11 });
    expect(ids(res.body)).not.toContain('60112');
    expect(res.body.events.every((e: { loc_id: string; loc_name: string }) => e.loc_id === Locs.shanghai && e.loc_name === '上海')).toBe(true);
    expect(ids((await list({ loc: Locs.shanghai, type: 'all', day_type: 'future' })).body)).toEqual(shanghaiAll);
  });

  it.each(Object.entries(ShanghaiByType))('type=%s gives only that type', async (type, expected) => {
    const res = await list({ loc: Locs.shanghai, type });
    expect(ids(res.body)).toEqual(expected);
    expect(res.body.total).toBe(expected.length);
  });

  it.each([[10, 'music'], [11, 'drama'], [12, 'exhibition'], [13, 'salon'], [14, 'party'], [15, 'sports'], [16, 'travel'], [17, 'commonweal'], [18, 'film']])(
    'type=%s is the same as %s', async (number, word) => {
      const res = await list({ loc: Locs.shanghai, type: number });
      expect(ids(res.body)).toEqual(ShanghaiByType[word]);
      expect(res.body.events[0].category).toBe(word);
    },
  );

  it('takes a type word in any case', async () => {
    expect(ids((await list({ loc: Locs.shanghai, type: 'MUSIC' })).body)).toEqual(ShanghaiByType.music);
  });

  it('gives an empty page, not an error, for a city whose events have all ended', async () => {
    expect((await list({ loc: Locs.hangzhou })).body).toEqual({ start: 0, count: 0, total: 0, events: [] });
  });
});

describe('GET /v2/event/list: windows on the real clock (the fixed-clock spec checks the boundaries)', () => {
  const publicBeijing = [Events.longExhibition, Events.festival, Events.film, Events.marathon, Events.hike, Events.treePlanting, Events.datedExhibition];

  it('future: every public Beijing event not yet ended, by begin time; never the ended one', async () => {
    const body = (await list({ loc: Locs.beijing })).body;
    expect(ids(body)).toEqual(publicBeijing);
    expect(body.total).toBe(publicBeijing.length);
  });

  it.each(['today', 'tomorrow', 'weekend', 'week'])('%s: only the exhibition that runs from 2001 to 2099', async (day_type) => {
    expect(ids((await list({ loc: Locs.beijing, day_type })).body)).toEqual([Events.longExhibition]);
  });
});

describe('GET /v2/event/list: paging and shaping', () => {
  it('pages 20 at a time by default, with the true total', async () => {
    const body = (await list({ loc: Locs.shenzhen })).body;
    expect(body).toMatchObject({ start: 0, count: 20, total: MARKET_COUNT });
    expect(ids(body)).toEqual(Array.from({ length: 20 }, (_, i) => market(i + 1)));
  });

  it('cuts an over-large count to 100', async () => {
    const body = (await list({ loc: Locs.shenzhen, count: 500 })).body;
    expect(body).toMatchObject({ start: 0, count: 100, total: MARKET_COUNT });
    expect(body.events).toHaveLength(100);
  });

  it('continues from start; past the end is an empty page', async () => {
    const body = (await list({ loc: Locs.shenzhen, start: 100, count: 50 })).body;
    expect(body).toMatchObject({ start: 100, count: 5, total: MARKET_COUNT });
    expect(ids(body)).toEqual([market(101), market(102), market(103), market(104), market(105)]);
    expect((await list({ loc: Locs.shenzhen, start: 1000 })).body).toEqual({ start: 1000, count: 0, total: MARKET_COUNT, events: [] });
  });

  it('answers count=0 with no events and the true total', async () => {
    expect((await list({ loc: Locs.shenzhen, count: 0 })).body).toEqual({ start: 0, count: 0, total: MARKET_COUNT, events: [] });
  });

  it.each([[{ start: -1 }], [{ start: 'x' }], [{ count: -5 }], [{ count: '1.5' }]])('refuses paging %j with 400/1016', async (paging) => {
    expectError(await list({ loc: Locs.shenzhen, ...(paging as Record<string, string | number>) }), 400, 1016);
  });

  it('applies fields to each event and keeps the envelope', async () => {
    const body = (await list({ loc: Locs.shenzhen, count: 3, fields: 'id,title' })).body;
    expect(body).toEqual({
      start: 0, count: 3, total: MARKET_COUNT,
      events: [
        { id: market(1), title: '深圳周末市集 #1' },
        { id: market(2), title: '深圳周末市集 #2' },
        { id: market(3), title: '深圳周末市集 #3' },
      ],
    });
  });

  it('answers as JSONP', async () => {
    const res = await list({ loc: Locs.hangzhou, callback: 'events_cb' });
    expect(res.text).toBe('/**/events_cb({"start":0,"count":0,"total":0,"events":[]});');
  });
});

describe('GET /v2/event/user_created/:id', () => {
  it("lists a user's events, latest beginning first", async () => {
    const body = (await get(`/v2/event/user_created/${EventUsers.market.id}`)).body;
    expect(body).toMatchObject({ start: 0, count: 20, total: MARKET_COUNT });
    expect(ids(body).slice(0, 3)).toEqual([market(105), market(104), market(103)]);
    expect(body.events[0].owner.id).toBe(EventUsers.market.id);
  });

  it('pages like every list: cut count, count=0, bad start', async () => {
    expect((await get(`/v2/event/user_created/${EventUsers.market.id}`, { query: { count: 1000 } })).body.count).toBe(100);
    expect((await get(`/v2/event/user_created/${EventUsers.market.id}`, { query: { count: 0 } })).body).toEqual({ start: 0, count: 0, total: MARKET_COUNT, events: [] });
    expectError(await get(`/v2/event/user_created/${EventUsers.market.id}`, { query: { start: 'first' } }), 400, 1016);
  });

  it('gives an empty list for a user who created nothing, and 404/1001 for a missing user', async () => {
    expect((await get(`/v2/event/user_created/${EventUsers.nobody.id}`)).body).toEqual({ start: 0, count: 0, total: 0, events: [] });
    expectError(await get('/v2/event/user_created/69999'), 404, 1001);
    expectError(await get('/v2/event/user_created/ev_market'), 404, 1001);
  });
});

describe('GET /v2/event/user_participated/:id and user_wished/:id', () => {
  const lister = EventUsers.lister.id;

  it('lists the events a user takes part in, latest beginning first; status splits ongoing and expired', async () => {
    const all = (await get(`/v2/event/user_participated/${lister}`)).body;
    expect(ids(all)).toEqual([Events.festival, Events.pastSalon, Events.longExhibition]);
    expect(all).toMatchObject({ start: 0, count: 3, total: 3 });
    expect(ids((await get(`/v2/event/user_participated/${lister}`, { query: { status: 'ongoing' } })).body)).toEqual([Events.festival, Events.longExhibition]);
    expect(ids((await get(`/v2/event/user_participated/${lister}`, { query: { status: 'expired' } })).body)).toEqual([Events.pastSalon]);
    expect(ids((await get(`/v2/event/user_participated/${lister}`, { query: { status: 'ONGOING' } })).body)).toEqual([Events.festival, Events.longExhibition]);
  });

  it('lists the events a user is interested in, with the same status filter', async () => {
    expect(ids((await get(`/v2/event/user_wished/${lister}`)).body)).toEqual([Events.film, Events.hangzhouPast]);
    expect(ids((await get(`/v2/event/user_wished/${lister}`, { query: { status: 'ongoing' } })).body)).toEqual([Events.film]);
    expect(ids((await get(`/v2/event/user_wished/${lister}`, { query: { status: 'expired' } })).body)).toEqual([Events.hangzhouPast]);
  });

  it('pages: count=0 keeps the total, count=1 gives the first', async () => {
    expect((await get(`/v2/event/user_participated/${lister}`, { query: { count: 0 } })).body).toEqual({ start: 0, count: 0, total: 3, events: [] });
    const second = (await get(`/v2/event/user_participated/${lister}`, { query: { start: 1, count: 1 } })).body;
    expect(second).toMatchObject({ start: 1, count: 1, total: 3 });
    expect(ids(second)).toEqual([Events.pastSalon]);
  });

  it('refuses a bad status with 400/1016', async () => {
    expectError(await get(`/v2/event/user_participated/${lister}`, { query: { status: 'past' } }), 400, 1016);
    expectError(await get(`/v2/event/user_wished/${lister}`, { query: { status: 'all' } }), 400, 1016);
  });

  it('gives empty lists for a user linked to nothing and 404/1001 for a missing user', async () => {
    expect((await get(`/v2/event/user_participated/${EventUsers.nobody.id}`)).body).toEqual({ start: 0, count: 0, total: 0, events: [] });
    expect((await get(`/v2/event/user_wished/${EventUsers.nobody.id}`)).body).toEqual({ start: 0, count: 0, total: 0, events: [] });
    expectError(await get('/v2/event/user_participated/69999'), 404, 1001);
    expectError(await get('/v2/event/user_wished/69999'), 404, 1001);
  });

  it('applies fields to each event', async () => {
    const body = (await get(`/v2/event/user_wished/${lister}`, { query: { fields: 'id,participant_count' } })).body;
    expect(body.events).toEqual([{ id: Events.film, participant_count: 0 }, { id: Events.hangzhouPast, participant_count: 0 }]);
  });
});
