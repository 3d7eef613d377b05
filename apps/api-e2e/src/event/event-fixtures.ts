import { user } from '../support/fixtures';

/** Users, cities and events of fixtures/event.ndjson (ids 6000s), named by their role in the tests. */
export const EventUsers = {
  /** Owns most Beijing events; imported with its own avatar and alt. */
  host: user('6001', 'ev_host', '活动主人 Host'),
  /** Takes part in 60001 and in the private 60005. */
  guest: user('6002', 'ev_guest', 'Guest 嘉宾'),
  /** Linked to nothing: sees only public events. */
  stranger: user('6003', 'ev_stranger', 'Stranger'),
  /** Wishes 60001. */
  fan: user('6004', 'ev_fan', 'Fan'),
  /** Joins and leaves 60007 (event-participation.e2e-spec.ts). */
  joiner: user('6005', 'ev_joiner', 'Joiner'),
  /** Wishes and unwishes 60008 (event-participation.e2e-spec.ts). */
  wisher: user('6006', 'ev_wisher', 'Wisher'),
  /** Owns the 105 Shenzhen markets. */
  market: user('6007', 'ev_market', '深圳市集 Market'),
  /** Takes part in 60001 (future), 60003 (ended), 60004 (ongoing); wishes 60002 (future) and 60201 (ended). */
  lister: user('6008', 'ev_lister', 'Lister'),
  /** Owns the private 60005. */
  privateHost: user('6009', 'ev_private', 'Private host'),
  nobody: user('6010', 'ev_nobody', 'Nobody'),
  /** Joins 60009 with dates (event-participation.e2e-spec.ts). */
  dater: user('6011', 'ev_dater', 'Dater'),
};

export const Locs = {
  china: '100000',
  beijing: '108288',
  shanghai: '108296',
  hangzhou: '118172',
  guangzhou: '118281',
  shenzhen: '118282',
};

export const Events = {
  festival: '60001',
  film: '60002',
  pastSalon: '60003',
  longExhibition: '60004',
  privateParty: '60005',
  marathon: '60006',
  hike: '60007',
  treePlanting: '60008',
  datedExhibition: '60009',
  hangzhouPast: '60201',
  firstMarket: '60301',
};

/** The Shanghai events by type, all in 2099 (60112 ended in 2002 and never shows). */
export const ShanghaiByType: Record<string, string[]> = {
  music: ['60101'], drama: ['60102'], exhibition: ['60103'], salon: ['60104'], party: ['60105'],
  sports: ['60106'], travel: ['60107'], commonweal: ['60108'], film: ['60109'], others: ['60110', '60111'],
};

export const MARKET_COUNT = 105;
