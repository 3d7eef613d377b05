import { tokenFor } from '../support/auth';
import { Apps } from '../support/fixtures';
import { api, expectError, get } from '../support/http';
import { stackInfo } from '../support/stack-info';
import { Events, EventUsers } from './event-fixtures';

const web = () => `${stackInfo().baseUrl}/web`;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** The Event fields of docs/api/event.md ("Event"), category and category_name included, and nothing else. */
const EVENT_FIELDS = [
  'id', 'title', 'content', 'alt', 'adapt_url', 'image', 'image-hlarge', 'image-lmobile', 'begin_time', 'end_time', 'owner', 'geo',
  'address', 'loc_id', 'loc_name', 'album', 'is_priv', 'has_invited', 'can_invite', 'participant_count', 'wisher_count',
  'category', 'category_name',
].sort();

describe('GET /v2/event/:id', () => {
  it('answers an anonymous http request with every Event field in its format', async () => {
    const res = await get(`/v2/event/${Events.festival}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(EVENT_FIELDS);
    expect(res.body).toEqual({
      id: '60001',
      title: '北京草地音乐节',
      content: '北京草地音乐节：活动介绍。',
      alt: `${web()}/event/60001/`,
      adapt_url: `${web()}/m/event/60001/`,
      image: 'https://img.example.org/event/60001/poster.jpg',
      'image-hlarge': 'https://img.example.org/event/60001/hlarge.jpg',
      'image-lmobile': 'https://img.example.org/event/60001/lmobile.jpg',
      begin_time: '2099-05-01 19:30:00',
      end_time: '2099-05-01 22:30:00',
      owner: {
        avatar: 'https://img.example.org/avatar/ev_host.jpg',
        alt: 'https://people.example.org/ev_host/',
        id: EventUsers.host.id,
        name: EventUsers.host.name,
        uid: EventUsers.host.uid,
      },
      geo: '39.9042 116.4074',
      address: '北京草地音乐节 的地址',
      loc_id: '108288',
      loc_name: '北京',
      album: '880001',
      is_priv: 'no',
      has_invited: 'no',
      can_invite: 'yes',
      participant_count: 2,
      wisher_count: 1,
      category: 'music',
      category_name: '音乐',
    });
    expect(res.body.begin_time).toMatch(TIMESTAMP);
    expect(res.body.geo).toMatch(/^-?\d+(\.\d+)? -?\d+(\.\d+)?$/);
  });

  it('keeps imported addresses, fills the two poster sizes from image, and takes a type number as its word', async () => {
    const { body } = await get(`/v2/event/${Events.film}`);
    expect(body.alt).toBe('https://events.example.org/60002/');
    expect(body.adapt_url).toBe('https://m.events.example.org/60002/');
    expect(body['image-hlarge']).toBe(body.image);
    expect(body['image-lmobile']).toBe(body.image);
    expect(body).toMatchObject({ category: 'film', category_name: '电影', album: '', has_invited: 'no', can_invite: 'no', wisher_count: 1 });
  });

  it.each([
    ['60101', 'music', '音乐'],
    ['60102', 'drama', '戏剧'],
    ['60103', 'exhibition', '展览'],
    ['60104', 'salon', '讲座'],
    ['60105', 'party', '聚会'],
    ['60106', 'sports', '运动'],
    ['60107', 'travel', '旅行'],
    ['60108', 'commonweal', '公益'],
    ['60109', 'film', '电影'],
    ['60110', 'others', '其他'],
    ['60111', 'others', '其他'],
  ])('event %s (imported as a word or a number) has category %s, %s', async (id, category, name) => {
    const { body } = await get(`/v2/event/${id}`);
    expect({ category: body.category, category_name: body.category_name }).toEqual({ category, category_name: name });
  });

  it('shows an owner without a picture of their own with the identity defaults', async () => {
    const { body } = await get(`/v2/event/${Events.firstMarket}`);
    expect(body.owner).toEqual({
      avatar: expect.stringMatching(/^https?:\/\/\S+$/),
      alt: expect.stringMatching(/^https?:\/\/\S+$/),
      id: EventUsers.market.id,
      name: EventUsers.market.name,
      uid: EventUsers.market.uid,
    });
  });

  it('answers a missing event, and an id that is not digits, with 404/1001', async () => {
    expectError(await get('/v2/event/69999'), 404, 1001, 'GET /v2/event/69999');
    expectError(await get('/v2/event/abc'), 404, 1001);
    expectError(await get(`/v2/event/${'9'.repeat(30)}`), 404, 1001);
  });

  it('answers another method on the path with 400/1014', async () => {
    expectError(await api('PUT', `/v2/event/${Events.festival}`), 400, 1014);
  });

  it('reads the same with a token carrying event_basic_r', async () => {
    const token = await tokenFor(EventUsers.stranger, Apps.premium, 'event_basic_r');
    const res = await get(`/v2/event/${Events.festival}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(Events.festival);
  });

  it('refuses a token without event_basic_r (403/109) and an invalid token (401/103)', async () => {
    const bookOnly = await tokenFor(EventUsers.stranger, Apps.bookOnly);
    expectError(await get(`/v2/event/${Events.festival}`, { token: bookOnly }), 403, 109);
    expectError(await get(`/v2/event/${Events.festival}`, { token: 'not-a-token' }), 401, 103);
  });

  it('returns only the named fields', async () => {
    const res = await get(`/v2/event/${Events.festival}`, { query: { fields: 'id, title,owner,nonsense' } });
    expect(res.body).toEqual({ id: '60001', title: '北京草地音乐节', owner: expect.objectContaining({ id: EventUsers.host.id }) });
  });

  it('answers as JSONP with a callback', async () => {
    const res = await get(`/v2/event/${Events.festival}`, { query: { callback: 'show_event' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.text.startsWith('/**/show_event({')).toBe(true);
    const json = JSON.parse(res.text.slice('/**/show_event('.length, -2));
    expect(json.id).toBe(Events.festival);
  });
});
