import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientToken, tokenFor } from '../support/auth';
import { PASSWORD, TestApp, user } from '../support/fixtures';
import { expectError, get } from '../support/http';
import { fixtureRecord, importRecords } from '../support/import';
import { stackInfo } from '../support/stack-info';

/**
 * The change feed (docs/api/changes.md): an app follows `GET /v2/changes` from the first cursor
 * while imports of every catalogue kind run, and ends with exactly the catalogue's state; each
 * change of a record appears once, in order; a re-import changes nothing; access and cursor errors.
 * Its records have ids of their own (8 800 000s), so suites beside it are not disturbed.
 */

const IMPORTER = join(__dirname, '..', '..', '..', 'importer', 'dist', 'main.js');

const feedApp: TestApp = { clientId: 'test-changes', secret: 'test-changes-secret', tier: 'advance', redirectUri: 'http://127.0.0.1:9/callback' };
const noScopeApp: TestApp = { clientId: 'test-changes-noscope', secret: 'test-changes-noscope-secret', tier: 'advance', redirectUri: 'http://127.0.0.1:9/callback' };
const reader = user('8801', 'changes_reader', 'Changes Reader');

type Kind = 'book' | 'series' | 'movie' | 'celebrity' | 'event' | 'city';
interface Change { kind: Kind; id: string; op: 'create' | 'update' | 'delete'; at: string }


/** The importer as a child process that does not block this test's event loop (the follower runs meanwhile). */
function importAsync(records: object[]): Promise<{ status: number | null; output: string }> {
  const file = join(mkdtempSync(join(tmpdir(), 'plaza-changes-')), 'records.ndjson');
  writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [IMPORTER, file], { env: { ...process.env, NATS_URL: stackInfo().natsUrl } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) => resolve({ status, output }));
  });
}

/** Where the API shows a record of each kind (the celebrity read is the advance tier's). */
const readPath: Record<Kind, (id: string) => string> = {
  book: (id) => `/v2/book/${id}`,
  series: (id) => `/v2/book/series/${id}/books`,
  movie: (id) => `/v2/movie/subject/${id}`,
  celebrity: (id) => `/v2/movie/celebrity/${id}`,
  event: (id) => `/v2/event/${id}`,
  city: (id) => `/v2/loc/${id}`,
};

/** The parts of an answer that are the record's own (users' activity moves the counters, which the feed does not carry). */
function catalogueOf(kind: Kind, body: Record<string, unknown>): unknown {
  // a series is shown only through its books, each a record of its own: the series exists
  if (kind === 'series') return { series: true };
  const copy = { ...body };
  if (kind === 'book') delete copy.rating;
  if (kind === 'event') {
    delete copy.participant_count;
    delete copy.wisher_count;
    // the city's name, looked up when the event is shown: a `city` change (docs/api/changes.md)
    delete copy.loc_name;
  }
  if (kind === 'celebrity') {
    delete copy.works;
    delete copy.photos;
  }
  if (kind === 'movie') {
    delete copy.photos;
    delete copy.popular_reviews;
  }
  return copy;
}

describe('GET /v2/changes', () => {
  let appToken: string;

  beforeAll(async () => {
    const scopes = ['catalogue_changes_r', 'book_basic_r', 'movie_basic_r', 'movie_advance_r', 'event_basic_r', 'service_basic_common'];
    const run = importRecords([
      { kind: 'app', client_id: feedApp.clientId, client_secret: feedApp.secret, name: 'Change feed app', tier: 'advance', scopes, redirect_uris: [feedApp.redirectUri], trusted: true },
      { kind: 'app', client_id: noScopeApp.clientId, client_secret: noScopeApp.secret, name: 'No feed scope', tier: 'advance', scopes: ['book_basic_r'], redirect_uris: [noScopeApp.redirectUri], trusted: true },
      { kind: 'user', id: reader.id, uid: reader.uid, name: reader.name, password: PASSWORD },
    ]);
    expect(run.status).toBe(0);
    appToken = await clientToken(feedApp);
  });

  it('needs a token with catalogue_changes_r: none 403/1000, another scope 403/109; an app or a user token reads it', async () => {
    expectError(await get('/v2/changes'), 403, 1000);
    expectError(await get('/v2/changes', { token: await clientToken(noScopeApp) }), 403, 109);
    const asApp = await get('/v2/changes', { token: appToken, query: { since: 'now' } });
    expect(asApp.status).toBe(200);
    expect(asApp.body).toEqual({ changes: [], next: expect.stringMatching(/^[0-9]+$/) });
    const asUser = await get('/v2/changes', { token: await tokenFor(reader, feedApp), query: { count: 1 } });
    expect(asUser.status).toBe(200);
    expect(asUser.body.changes.length).toBeLessThanOrEqual(1);
  });

  it('refuses a cursor the feed does not hold with 410/1110, and malformed parameters with 400/1016', async () => {
    const { next } = (await get('/v2/changes', { token: appToken, query: { since: 'now' } })).body as { next: string };
    // beyond the end: a cursor of another (reset) feed
    expectError(await get('/v2/changes', { token: appToken, query: { since: String(Number(next) + 1000) } }), 410, 1110);
    expectError(await get('/v2/changes', { token: appToken, query: { kinds: 'book,note' } }), 400, 1016);
    expectError(await get('/v2/changes', { token: appToken, query: { since: 'yesterday' } }), 400, 1016);
    expectError(await get('/v2/changes', { token: appToken, query: { count: -1 } }), 400, 1016);
  });

  it('follows every change from the first cursor while imports run, once each and in order, and ends with the catalogue\'s state', async () => {
    const base = { book: fixtureRecord('book.ndjson', 'book'), movie: fixtureRecord('movie.ndjson', 'movie'), celebrity: fixtureRecord('movie.ndjson', 'celebrity'), event: fixtureRecord('event.ndjson', 'event'), loc: fixtureRecord('event.ndjson', 'loc') };
    const ids = (prefix: number, n: number) => Array.from({ length: n }, (_, i) => String(prefix + i + 1));
    const bookIds = ids(8800000, 40);
    const seriesIds = ids(8800000, 4);
    const movieIds = ids(8800000, 16);
    const celebrityIds = ids(8800000, 6);
    const eventIds = ids(8800000, 8);
    const cityIds = ids(880000, 3);
    // the shared stack's other suites count what their fixtures match (searches, a celebrity's
    // works, a city's events): these records share no word, tag, person or city with them
    const book = (id: string, version: number) => ({
      ...base.book, id, title: `变更 ${id} v${version}`, isbn10: undefined, isbn13: undefined, series: Number(id) % 10 === 1 ? { id: seriesIds[0] } : undefined,
      author: ['变更作者'], translator: [], publisher: '', tags: [], origin_title: '', subtitle: '', summary: '', author_intro: '', catalog: '',
    });
    const series = (id: string, version: number) => ({ kind: 'series', id, title: `丛书 ${id} v${version}` });
    const movie = (id: string, version: number) => ({
      ...base.movie, id, title: `变更电影 ${id} v${version}`, imdb: undefined,
      original_title: '', aka: [], directors: [], casts: [], writers: [], genres: [], tags: [], summary: '',
    });
    const celebrity = (id: string, version: number) => ({ ...base.celebrity, id, name: `变更人 ${id} v${version}`, name_en: '', aka: [], aka_en: [], summary: '' });
    const city = (id: string, version: number) => ({ kind: 'loc', id, uid: `changes-city-${id}`, name: `变更城 ${id} v${version}`, parent: 'china' });
    const event = (id: string, version: number) => ({ ...base.event, id, title: `变更活动 ${id} v${version}`, content: '变更', address: '', loc_id: cityIds[0], album: undefined });

    const start = await get('/v2/changes', { token: appToken, query: { count: 0 } });
    expect(start.status).toBe(200);
    const seen: Change[] = [];
    const mirror = new Map<string, unknown>();
    const mine = new Set<string>([
      ...bookIds.map((i) => `book:${i}`), ...seriesIds.map((i) => `series:${i}`), ...movieIds.map((i) => `movie:${i}`),
      ...celebrityIds.map((i) => `celebrity:${i}`), ...eventIds.map((i) => `event:${i}`), ...cityIds.map((i) => `city:${i}`),
    ]);
    const fetchInto = async (c: Change) => {
      const res = await get(readPath[c.kind](c.id), { token: appToken });
      mirror.set(`${c.kind}:${c.id}`, res.status === 200 ? catalogueOf(c.kind, res.body as Record<string, unknown>) : { status: res.status });
    };

    // the app: from the first cursor (no `since`: the oldest change kept), page after page
    let cursor: string | undefined;
    let stop = false;
    let pages = 0;
    const follow = async () => {
      for (;;) {
        const res = await get('/v2/changes', { token: appToken, query: { since: cursor, count: 200 } });
        expect(res.status).toBe(200);
        const page = res.body as { changes: Change[]; next: string };
        pages++;
        for (const c of page.changes) {
          seen.push(c);
          if (mine.has(`${c.kind}:${c.id}`)) await fetchInto(c);
        }
        const caughtUp = page.next === cursor || (cursor === undefined && page.changes.length === 0);
        cursor = page.next;
        if (caughtUp) {
          if (stop) return;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    };
    const follower = follow();

    // imports of every kind at once, then changes and re-imports of the same records, while the app reads
    const first = await Promise.all([
      importAsync([...seriesIds.map((i) => series(i, 1)), ...bookIds.slice(0, 20).map((i) => book(i, 1))]),
      importAsync([...celebrityIds.map((i) => celebrity(i, 1)), ...movieIds.map((i) => movie(i, 1))]),
      importAsync([...cityIds.map((i) => city(i, 1)), ...eventIds.map((i) => event(i, 1))]),
      importAsync(bookIds.slice(20).map((i) => book(i, 1))),
    ]);
    for (const run of first) expect(run).toEqual({ status: 0, output: expect.any(String) });
    const second = await Promise.all([
      // books 1-10 changed, 11-20 the same again
      importAsync(bookIds.slice(0, 20).map((i, n) => book(i, n < 10 ? 2 : 1))),
      importAsync([...movieIds.slice(0, 8).map((i) => movie(i, 2)), ...celebrityIds.map((i) => celebrity(i, 1))]),
      importAsync([...cityIds.slice(0, 1).map((i) => city(i, 2)), ...eventIds.slice(0, 4).map((i) => event(i, 2)), ...eventIds.slice(4).map((i) => event(i, 1))]),
      importAsync(seriesIds.slice(1).map((i) => series(i, 1))),
    ]);
    for (const run of second) expect(run).toEqual({ status: 0, output: expect.any(String) });
    stop = true;
    await follower;

    // exactly once per change of each record, creates before updates
    const opsOf = (key: string) => seen.filter((c) => `${c.kind}:${c.id}` === key).map((c) => c.op);
    const expected = new Map<string, string[]>();
    for (const key of mine) expected.set(key, ['create']);
    for (const i of bookIds.slice(0, 10)) expected.set(`book:${i}`, ['create', 'update']);
    for (const i of movieIds.slice(0, 8)) expected.set(`movie:${i}`, ['create', 'update']);
    for (const i of cityIds.slice(0, 1)) expected.set(`city:${i}`, ['create', 'update']);
    for (const i of eventIds.slice(0, 4)) expected.set(`event:${i}`, ['create', 'update']);
    const actual = new Map([...mine].map((key) => [key, opsOf(key)]));
    expect(actual).toEqual(expected);
    for (const c of seen) expect(c).toEqual({ kind: expect.any(String), id: expect.stringMatching(/^[0-9]+$/), op: expect.stringMatching(/^(create|update|delete)$/), at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) });

    // the mirror the app kept equals the catalogue now
    for (const key of mine) {
      const [kind, id] = key.split(':') as [Kind, string];
      const now = await get(readPath[kind](id), { token: appToken });
      expect(now.status).toBe(200);
      expect({ key, record: mirror.get(key) }).toEqual({ key, record: catalogueOf(kind, now.body as Record<string, unknown>) });
    }
    expect(((mirror.get(`book:${bookIds[0]}`) as { title: string }).title)).toBe(`变更 ${bookIds[0]} v2`);
    console.log(`[changes] ${seen.length} changes read in ${pages} pages; ${mine.size} records mirrored`);
  }, 240_000);

  it('reads one kind or several, the same changes in the same order as the whole feed', async () => {
    const all = (await get('/v2/changes', { token: appToken, query: { count: 1000 } })).body as { changes: Change[]; next: string };
    const since = undefined;
    const books = (await get('/v2/changes', { token: appToken, query: { since, kinds: 'book', count: 1000 } })).body as { changes: Change[] };
    const some = (await get('/v2/changes', { token: appToken, query: { since, kinds: 'movie, city', count: 1000 } })).body as { changes: Change[] };
    const firstBooks = all.changes.filter((c) => c.kind === 'book');
    expect(books.changes.slice(0, firstBooks.length)).toEqual(firstBooks);
    const firstSome = all.changes.filter((c) => c.kind === 'movie' || c.kind === 'city');
    expect(some.changes.slice(0, firstSome.length)).toEqual(firstSome);
    expect(books.changes.every((c) => c.kind === 'book')).toBe(true);
  });
});
