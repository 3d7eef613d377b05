import { ResolvedLoc, RESOLVE_LOC } from '@plaza/contracts';
import { ServiceBus } from '@plaza/platform';
import { connect, NatsConnection } from 'nats';
import { expectError, get } from '../support/http';
import { natsOptionsAs } from '../support/stack-info';
import { Locs } from './event-fixtures';

const LOC_FIELDS = ['habitable', 'id', 'name', 'parent', 'uid'];

describe('GET /v2/loc/:id', () => {
  it('answers a city with its parent region uid', async () => {
    const res = await get(`/v2/loc/${Locs.beijing}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: '108288', name: '北京', uid: 'beijing', parent: 'china', habitable: 'yes' });
    expect((await get(`/v2/loc/${Locs.shanghai}`)).body).toEqual({ id: '108296', name: '上海', uid: 'shanghai', parent: 'china', habitable: 'yes' });
    expect((await get(`/v2/loc/${Locs.hangzhou}`)).body).toEqual({ id: '118172', name: '杭州', uid: 'hangzhou', parent: 'zhejiang', habitable: 'yes' });
  });

  it('answers regions too: not habitable, and the top one has no parent', async () => {
    expect((await get('/v2/loc/100011')).body).toEqual({ id: '100011', name: '浙江', uid: 'zhejiang', parent: 'china', habitable: 'no' });
    expect((await get(`/v2/loc/${Locs.china}`)).body).toEqual({ id: '100000', name: '中国', uid: 'china', parent: '', habitable: 'no' });
  });

  it('answers a missing city, and an id that is not digits, with 404/1001', async () => {
    expectError(await get('/v2/loc/999'), 404, 1001, 'GET /v2/loc/999');
    expectError(await get('/v2/loc/beijing'), 404, 1001);
    expectError(await get(`/v2/loc/${'1'.repeat(30)}`), 404, 1001);
  });

  it('applies fields and JSONP', async () => {
    expect((await get(`/v2/loc/${Locs.beijing}`, { query: { fields: 'name,uid' } })).body).toEqual({ name: '北京', uid: 'beijing' });
    const res = await get(`/v2/loc/${Locs.beijing}`, { query: { callback: 'cb1' } });
    expect(res.text).toBe('/**/cb1({"id":"108288","name":"北京","uid":"beijing","parent":"china","habitable":"yes"});');
  });
});

describe('GET /v2/loc/list', () => {
  const all = async () => (await get('/v2/loc/list', { query: { count: 100 } })).body;

  it('lists cities and regions under locs, ordered by numeric id, with the true total', async () => {
    const body = await all();
    expect(body.start).toBe(0);
    expect(body.count).toBe(body.locs.length);
    expect(body.total).toBe(body.locs.length);
    const ids: string[] = body.locs.map((l: { id: string }) => l.id);
    expect(ids).toEqual(expect.arrayContaining(Object.values(Locs)));
    expect(ids.map(Number)).toEqual([...ids.map(Number)].sort((a, b) => a - b));
    for (const loc of body.locs) expect(Object.keys(loc).sort()).toEqual(LOC_FIELDS);
    expect(body.locs.find((l: { id: string }) => l.id === Locs.shenzhen)).toEqual({ id: '118282', name: '深圳', uid: 'shenzhen', parent: 'guangdong', habitable: 'yes' });
  });

  it('pages with start and count (default 20)', async () => {
    const everything = await all();
    const page = (await get('/v2/loc/list', { query: { start: 2, count: 3 } })).body;
    expect(page).toEqual({ start: 2, count: 3, total: everything.total, locs: everything.locs.slice(2, 5) });
    const first = (await get('/v2/loc/list')).body;
    expect(first.count).toBe(Math.min(20, everything.total));
  });

  it('answers count=0 with no locs and the true total; a start past the end with none', async () => {
    const total = (await all()).total;
    expect((await get('/v2/loc/list', { query: { count: 0 } })).body).toEqual({ start: 0, count: 0, total, locs: [] });
    expect((await get('/v2/loc/list', { query: { start: 5000 } })).body).toEqual({ start: 5000, count: 0, total, locs: [] });
  });

  it('cuts an over-large count to 100 and refuses bad start and count with 400/1016', async () => {
    const res = await get('/v2/loc/list', { query: { count: 100000 } });
    expect(res.status).toBe(200);
    expect(res.body.count).toBeLessThanOrEqual(100);
    expectError(await get('/v2/loc/list', { query: { start: -1 } }), 400, 1016);
    expectError(await get('/v2/loc/list', { query: { count: 'ten' } }), 400, 1016);
  });

  it('applies fields to each loc and keeps the envelope', async () => {
    const body = (await get('/v2/loc/list', { query: { fields: 'uid', count: 2 } })).body;
    expect(Object.keys(body).sort()).toEqual(['count', 'locs', 'start', 'total']);
    for (const loc of body.locs) expect(Object.keys(loc)).toEqual(['uid']);
  });
});

describe('event.v1.loc.resolve (asked by the movie service for in_theaters?city=)', () => {
  let nc: NatsConnection;
  let bus: ServiceBus;

  beforeAll(async () => {
    // as the movie service, which asks it
    nc = await connect(natsOptionsAs('movie'));
    bus = new ServiceBus(nc);
  });
  afterAll(async () => {
    await nc.close();
  });

  const beijing: ResolvedLoc = { id: '108288', name: '北京', uid: 'beijing' };

  it.each([['108288'], ['beijing'], ['北京'], ['BeiJing']])('resolves %s to 北京', async (ref) => {
    await expect(bus.request(RESOLVE_LOC, { ref })).resolves.toEqual(beijing);
  });

  it('answers an unknown city with 404/1001', async () => {
    await expect(bus.request(RESOLVE_LOC, { ref: '火星' })).rejects.toMatchObject({ status: 404, code: 1001 });
    await expect(bus.request(RESOLVE_LOC, { ref: '424242' })).rejects.toMatchObject({ status: 404, code: 1001 });
  });
});
