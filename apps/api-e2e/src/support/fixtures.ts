/**
 * Users and apps loaded from fixtures/platform.ndjson. Each area's suites use their own users
 * (id ranges: platform 1000s, book 2000s, movie 3000s, note 4000s, event 6000s, security 7000s,
 * crowd 10000s) so that suites running side by side never see each other's writes.
 */
export const PASSWORD = 'correct horse battery staple';

/** A 1×1 PNG, a picture every area takes. */
export const ONE_PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

export interface TestUser {
  id: string;
  uid: string;
  name: string;
}

export const user = (id: string, uid: string, name = uid): TestUser => ({ id, uid, name });

export const Users = {
  alice: user('1001', 'alice', 'Alice'),
  bob: user('1002', 'bob', 'Bob'),
  carol: user('1003', 'carol', 'Carol'),
  dave: user('1004', 'dave', 'Dave'),
  erin: user('1005', 'erin', 'Erin'),
  /** Used only by the brute-force test (it gets locked). */
  mallory: user('1006', 'mallory', 'Mallory'),
  /** Used only by the password-change test. */
  grace: user('1007', 'grace', 'Grace'),
};

/** 200 users `crowd1`..`crowd200` (ids 10001..10200) for concurrency tests. */
export const crowd = (n: number): TestUser => user(String(10000 + n), `crowd${n}`, `Crowd ${n}`);
export const CROWD_SIZE = 200;

export interface TestApp {
  clientId: string;
  secret?: string;
  tier: 'basic' | 'advance' | 'premium';
  redirectUri: string;
}

const app = (clientId: string, tier: TestApp['tier'], secret?: string): TestApp => ({
  clientId, tier, secret, redirectUri: 'http://127.0.0.1:9/callback',
});

export const Apps = {
  /** Trusted, premium, every scope: the default app of tests. */
  premium: app('test-premium', 'premium', 'test-premium-secret'),
  advance: app('test-advance', 'advance', 'test-advance-secret'),
  basic: app('test-basic', 'basic', 'test-basic-secret'),
  /** A public client (no secret): must use PKCE. */
  public: app('test-public', 'basic'),
  /** Confidential but not trusted: no password grant. */
  untrusted: app('test-untrusted', 'basic', 'test-untrusted-secret'),
  /** May only be granted book_basic_r. */
  bookOnly: app('test-book-only', 'premium', 'test-book-only-secret'),
  blocked: app('test-blocked', 'basic', 'test-blocked-secret'),
};
