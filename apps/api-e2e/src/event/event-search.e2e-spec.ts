import { tokenFor } from '../support/auth';
import { PASSWORD, user } from '../support/fixtures';
import { expectError, get } from '../support/http';
import { ImportRun, importRecords } from '../support/import';
import { Locs } from './event-fixtures';

/**
 * GET /v2/event/search (docs/api/event.md). The events are made here, each holding a word of this
 * run (`zq<run>`), so the suite sees only its own records and passes again on a stack it ran on;
 * in Guangzhou and a city of its own, with users of its own, so no other suite's list sees them.
 */
const Owner = user('6020', 'ev_search_owner', 'Search owner');
const Guest = user('6021', 'ev_search_guest', 'Search guest');
const CITY = { id: '118999', uid: 'ev_search_city', name: '搜索城' };
const RUN = String(Date.now()).slice(-5);
const WORD = `zq${RUN}`;
const id = (n: number) => `69${RUN}${String(n).padStart(2, '0')}`;
const search = (query: Record<string, string | number>, token?: string) => get('/v2/event/search', { query, ...(token ? { token } : {}) });
const ids = (body: { events: Array<{ id: string }> }) => body.events.map((e) => e.id);

function expectLoaded(result: ImportRun): void {
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
}

const event = (n: number, title: string, extra: Record<string, unknown> = {}) => ({
  kind: 'event', id: id(n), title, category: 'music', begin_time: '2099-05-01 19:30:00', end_time: '2099-05-01 22:30:00',
  loc_id: Locs.guangzhou, owner: { id: Owner.id }, ...extra,
});

describe('GET /v2/event/search (docs/api/event.md)', () => {
  beforeAll(() => {
    expectLoaded(importRecords([
      { kind: 'user', id: Owner.id, uid: Owner.uid, name: Owner.name, password: PASSWORD },
      { kind: 'user', id: Guest.id, uid: Guest.uid, name: Guest.name, password: PASSWORD },
      { kind: 'loc', id: CITY.id, uid: CITY.uid, name: CITY.name, parent: 'guangdong', habitable: 'yes' },
      event(1, `春天音乐节 ${WORD}`, { begin_time: '2099-05-03 10:00:00', end_time: '2099-05-03 12:00:00' }),
      event(2, `秋天的戏剧 ${WORD}`, { category: 'drama', begin_time: '2099-05-02 10:00:00', end_time: '2099-05-02 12:00:00', loc_id: CITY.id }),
      event(3, `Spring Jazz Night ${WORD}`, { begin_time: '2099-05-01 10:00:00', end_time: '2099-05-01 12:00:00', address: '工人体育场' }),
      // found by its content's opening only
      event(4, `Open air ${WORD}`, { category: '15', content: '一场关于春天的长跑。', begin_time: '2099-05-04 10:00:00', end_time: '2099-05-04 12:00:00' }),
      // under way since 2020: in every window, today's included
      event(5, `长期展览 ${WORD}`, { category: 'exhibition', begin_time: '2020-01-01 10:00:00', end_time: '2099-12-31 12:00:00' }),
      // ended: never listed
      event(6, `春天音乐节 往届 ${WORD}`, { begin_time: '2001-05-01 10:00:00', end_time: '2001-05-01 12:00:00' }),
      // private: never listed, not even to its owner or a participant
      event(7, `春天 私人聚会 ${WORD}`, { is_priv: 'yes', category: 'party' }),
      { kind: 'event_participant', event_id: id(7), user_id: Guest.id },
    ]));
  }, 60_000);

  it('finds events by every term of q, Chinese by characters and pairs, other words whole, case-insensitively; soonest first', async () => {
    const { status, body } = await search({ q: WORD });
    expect(status).toBe(200);
    expect({ start: body.start, count: body.count, total: body.total }).toEqual({ start: 0, count: 5, total: 5 });
    expect(ids(body)).toEqual([id(5), id(3), id(2), id(1), id(4)]);
    expect((await search({ q: `天音 ${WORD}` })).body.events.map((e: { title: string }) => e.title)).toEqual([`春天音乐节 ${WORD}`]);
    expect(ids((await search({ q: `${WORD.toUpperCase()} 春天` })).body)).toEqual([id(1), id(4)]);
    expect(ids((await search({ q: `jazz ${WORD}` })).body)).toEqual([id(3)]);
    expect(ids((await search({ q: `ｊａｚｚ ${WORD}` })).body)).toEqual([id(3)]);
    expect(ids((await search({ q: `体育场 ${WORD}` })).body)).toEqual([id(3)]);
    expect((await search({ q: `jazz 不存在 ${WORD}` })).body).toEqual({ start: 0, count: 0, total: 0, events: [] });
  });

  it('shows each event as /v2/event/:id does', async () => {
    const [found, one] = await Promise.all([search({ q: `jazz ${WORD}` }), get(`/v2/event/${id(3)}`)]);
    expect(found.body.events).toEqual([one.body]);
  });

  it('takes q as text: no pattern, no operator; only punctuation matches nothing', async () => {
    expect((await search({ q: '.*' })).body).toEqual({ start: 0, count: 0, total: 0, events: [] });
    expect((await search({ q: `${WORD}|.*` })).body.total).toBe(5);
    expectError(await get(`/v2/event/search?q[$ne]=x`), 400, 1002);
  });

  it('filters by loc (id, uid or Chinese name), type (word or number) and day_type, as the list does', async () => {
    for (const loc of [CITY.id, CITY.uid, CITY.name]) expect(ids((await search({ q: WORD, loc })).body)).toEqual([id(2)]);
    expect(ids((await search({ q: WORD, type: 'drama' })).body)).toEqual([id(2)]);
    expect(ids((await search({ q: WORD, type: '15' })).body)).toEqual([id(4)]);
    expect(ids((await search({ q: WORD, type: 'music', loc: Locs.guangzhou })).body)).toEqual([id(3), id(1)]);
    expect(ids((await search({ q: WORD, type: 'all', day_type: 'future' })).body)).toHaveLength(5);
    for (const day_type of ['today', 'tomorrow', 'weekend', 'week']) expect(ids((await search({ q: WORD, day_type })).body)).toEqual([id(5)]);
    expect((await search({ q: WORD, loc: Locs.hangzhou })).body.total).toBe(0);
  });

  it('never lists a private event (even to its owner or a participant) or an ended one', async () => {
    for (const who of [undefined, Owner, Guest]) {
      const token = who ? await tokenFor(who) : undefined;
      const found = ids((await search({ q: `春天 ${WORD}` }, token)).body);
      expect(found).toEqual([id(1), id(4)]);
    }
  });

  it('pages like every list: start, count, total, count=0, count cut to 100', async () => {
    const page = (await search({ q: WORD, start: 1, count: 2 })).body;
    expect({ start: page.start, count: page.count, total: page.total, ids: ids(page) }).toEqual({ start: 1, count: 2, total: 5, ids: [id(3), id(2)] });
    expect((await search({ q: WORD, count: 0 })).body).toEqual({ start: 0, count: 0, total: 5, events: [] });
    expect((await search({ q: WORD, start: 5 })).body).toEqual({ start: 5, count: 0, total: 5, events: [] });
    expect((await search({ q: WORD, count: 1000 })).body.count).toBe(5);
  });

  it('applies fields and callback', async () => {
    const res = await search({ q: `jazz ${WORD}`, fields: 'id,title' });
    expect(res.body.events).toEqual([{ id: id(3), title: `Spring Jazz Night ${WORD}` }]);
    const jsonp = await search({ q: `jazz ${WORD}`, fields: 'id', callback: 'cb' });
    expect(jsonp.text).toBe(`/**/cb(${JSON.stringify({ start: 0, count: 1, total: 1, events: [{ id: id(3) }] })});`);
  });

  it.each([
    ['no q', {}, 400, 1002],
    ['an empty q', { q: '' }, 400, 1002],
    ['a blank q', { q: '   ' }, 400, 1002],
    ['q over 100 characters', { q: '春'.repeat(101) }, 400, 1016],
    ['a bad day_type', { q: WORD, day_type: 'yesterday' }, 400, 1016],
    ['a bad type', { q: WORD, type: '19' }, 400, 1016],
    ['a bad start', { q: WORD, start: -1 }, 400, 1016],
    ['a bad count', { q: WORD, count: 'x' }, 400, 1016],
    ['an unknown city', { q: WORD, loc: '火星' }, 404, 1001],
    ['a loc over 100 characters', { q: WORD, loc: 'x'.repeat(101) }, 400, 1016],
  ] as const)('answers %s with the error docs/api/event.md gives it', async (_, query, status, code) => {
    expectError(await search(query as Record<string, string | number>), status, code, 'GET /v2/event/search');
  });

  it('follows a re-imported event: the old words no longer find it, the new ones do; the same file again changes nothing', async () => {
    expectLoaded(importRecords([event(8, `冬季马拉松 ${WORD}`, { category: 'sports' })]));
    expect(ids((await search({ q: `马拉松 ${WORD}` })).body)).toEqual([id(8)]);
    expectLoaded(importRecords([event(8, `夏季游泳 ${WORD}`, { category: 'sports' })]));
    expect((await search({ q: `马拉松 ${WORD}` })).body.total).toBe(0);
    const before = (await search({ q: WORD, count: 100 })).body;
    expect(ids((await search({ q: `游泳 ${WORD}` })).body)).toEqual([id(8)]);
    expectLoaded(importRecords([event(8, `夏季游泳 ${WORD}`, { category: 'sports' })]));
    expect((await search({ q: WORD, count: 100 })).body).toEqual(before);
  }, 60_000);
});
