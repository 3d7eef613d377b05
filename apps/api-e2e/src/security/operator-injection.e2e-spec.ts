import { tokenFor } from '../support/auth';
import { Apps, PASSWORD } from '../support/fixtures';
import { exclusive } from '../support/exclusive';
import { api, ApiResponse, get, post } from '../support/http';
import { stackInfo } from '../support/stack-info';
import { CANARY, expectCleanError, gatewayRoutes, pictureForm, PNG, Route, routeKey, SecBooks, SecEvents, SecUsers } from './security-support';

/**
 * Query-operator injection (`q[$ne]=`, `{"$gt": ""}`, repeated parameters) in every query and
 * body parameter of every route (docs/DECISIONS.md, "Hostile input"). The routes come from the gateway's
 * sources (`gatewayRoutes()`), and the first test fails when a route has no row in INPUTS, so no
 * new endpoint can be forgotten here.
 *
 * The injection intruder sends the operators; the paths point at the injection owner's hidden
 * records (a private collection entry, annotation, note and event, a review). Every answer must
 * be a 4xx in the error shape or a normal answer that took the value as text (or ignored an
 * unknown `name[$op]` key): never a 5xx, never the owner's hidden data (CANARY.injection), and a
 * hidden target is never reached (always 4xx). Afterwards the owner's records read back unchanged.
 */
const { injOwner: owner, injIntruder: intruder } = SecUsers;
const BOOK = SecBooks.injection;
const EVENT = SecEvents.injection;
const SECRET = CANARY.injection;
const LONG_REVIEW = '这是一篇足够长的书评，'.repeat(20);

/** The ids of the owner's records, known once the suite has created them. */
interface Targets {
  annotation: string;
  review: string;
  note: string;
  comment: string;
  picture: string;
}

interface Inputs {
  /** Values for the path's wildcards. */
  path: (t: Targets) => Record<string, string>;
  /** Parameters read from the query string. */
  query?: string[];
  /** Parameters read from the body, with valid values, so that the injected one is what is judged. */
  body?: Record<string, string>;
  /** The path names a record the intruder may not see or change: every answer is a 4xx. */
  hidden?: boolean;
}

const GET_COMMON = ['fields', 'callback', 'start', 'count', 'apikey'];
const NOTE_BODY = { title: 'injected', content: 'plain text', privacy: 'public', can_reply: 'true', pids: 'p_1', layout_1: 'L', desc_1: 'caption' };
const ANNOTATION_BODY = { content: '这是一条足够长的批注内容，用来测试注入。', page: '3', chapter: '', privacy: 'public' };
const COLLECTION_BODY = { status: 'wish', tags: 'plain', comment: 'plain', privacy: 'public', rating: '3', user_id: owner.id };
const AUTHORIZE = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'];
const AUTHORIZE_BODY = {
  client_id: Apps.premium.clientId, redirect_uri: Apps.premium.redirectUri, response_type: 'code', scope: 'book_basic_r', state: 's',
  code_challenge: '', code_challenge_method: '',
};

const none = () => ({});
const INPUTS: Record<string, Inputs> = {
  // ---- books
  'GET /v2/book/:id': { path: () => ({ id: BOOK }) },
  'GET /v2/book/isbn/:name': { path: () => ({ name: '9787506365437' }) },
  'GET /v2/book/search': { path: none, query: ['q', 'tag'] },
  'GET /v2/book/:id/tags': { path: () => ({ id: BOOK }) },
  'GET /v2/book/user/:name/tags': { path: () => ({ name: owner.uid }) },
  'GET /v2/book/user/:name/collections': { path: () => ({ name: owner.uid }), query: ['status', 'tag', 'from', 'to', 'rating'] },
  'GET /v2/book/:id/collection': { path: () => ({ id: BOOK }), query: ['user_id'] },
  'GET /v2/book/user/:name/annotations': { path: () => ({ name: owner.uid }), query: ['format'] },
  'GET /v2/book/:id/annotations': { path: () => ({ id: BOOK }), query: ['format', 'order', 'page'] },
  'GET /v2/book/annotation/:id': { path: (t) => ({ id: t.annotation }), query: ['format'], hidden: true },
  'GET /v2/book/series/:id/books': { path: () => ({ id: '2900001' }) },
  'POST /v2/book/:id/collection': { path: () => ({ id: BOOK }), body: COLLECTION_BODY, query: ['user_id'] },
  'PUT /v2/book/:id/collection': { path: () => ({ id: BOOK }), body: COLLECTION_BODY, query: ['user_id'] },
  'DELETE /v2/book/:id/collection': { path: () => ({ id: BOOK }), query: ['user_id'] },
  'POST /v2/book/:id/annotations': { path: () => ({ id: BOOK }), body: ANNOTATION_BODY },
  'PUT /v2/book/annotation/:id': { path: (t) => ({ id: t.annotation }), body: ANNOTATION_BODY, hidden: true },
  'DELETE /v2/book/annotation/:id': { path: (t) => ({ id: t.annotation }), query: ['id'], hidden: true },
  'POST /v2/book/reviews': { path: none, body: { book: BOOK, title: 'injected', content: LONG_REVIEW, rating: '3' } },
  'PUT /v2/book/review/:id': { path: (t) => ({ id: t.review }), body: { title: 'injected', content: LONG_REVIEW, rating: '1' }, hidden: true },
  'DELETE /v2/book/review/:id': { path: (t) => ({ id: t.review }), query: ['id'], hidden: true },
  'GET /v2/book/user_tags/:id': { path: () => ({ id: owner.id }) },

  // ---- movies
  'GET /v2/movie/subject/:id': { path: () => ({ id: '2600001' }) },
  'GET /v2/movie/celebrity/:id': { path: () => ({ id: '1300001' }) },
  'GET /v2/movie/subject/:id/photos': { path: () => ({ id: '2600001' }) },
  'GET /v2/movie/subject/:id/reviews': { path: () => ({ id: '2600001' }) },
  'GET /v2/movie/subject/:id/comments': { path: () => ({ id: '2600001' }) },
  'GET /v2/movie/celebrity/:id/works': { path: () => ({ id: '1300001' }) },
  'GET /v2/movie/celebrity/:id/photos': { path: () => ({ id: '1300001' }) },
  'GET /v2/movie/search': { path: none, query: ['q', 'tag'] },
  'GET /v2/movie/imdb/:imdb': { path: () => ({ imdb: 'tt0260001' }) },
  'GET /v2/movie/top250': { path: none },
  'GET /v2/movie/us_box': { path: none },
  'GET /v2/movie/weekly': { path: none },
  'GET /v2/movie/new_movies': { path: none },
  'GET /v2/movie/in_theaters': { path: none, query: ['city'] },
  'GET /v2/movie/coming_soon': { path: none },

  // ---- notes
  'POST /v2/notes': { path: none, body: NOTE_BODY },
  'GET /v2/note/:id': { path: (t) => ({ id: t.note }), query: ['format'], hidden: true },
  'PUT /v2/note/:id': { path: (t) => ({ id: t.note }), body: NOTE_BODY, hidden: true },
  'POST /v2/note/:id': { path: (t) => ({ id: t.note }), body: { pids: 'p_1', layout_1: 'L', desc_1: 'c', content: 'x' }, hidden: true },
  'DELETE /v2/note/:id': { path: (t) => ({ id: t.note }), query: ['id'], hidden: true },
  'POST /v2/note/:id/like': { path: (t) => ({ id: t.note }), hidden: true },
  'DELETE /v2/note/:id/like': { path: (t) => ({ id: t.note }), hidden: true },
  'GET /v2/note/user_created/:id': { path: () => ({ id: owner.id }), query: ['format'] },
  'GET /v2/note/user_liked/:id': { path: () => ({ id: owner.id }), query: ['format'] },
  'GET /v2/note/:id/comments': { path: (t) => ({ id: t.note }), hidden: true },
  'POST /v2/note/:id/comments': { path: (t) => ({ id: t.note }), body: { content: 'plain' }, hidden: true },
  'GET /v2/note/:id/comment/:cid': { path: (t) => ({ id: t.note, cid: t.comment }), hidden: true },
  'DELETE /v2/note/:id/comment/:cid': { path: (t) => ({ id: t.note, cid: t.comment }), hidden: true },

  // ---- events and cities
  'GET /v2/event/:id': { path: () => ({ id: EVENT }), hidden: true },
  'GET /v2/event/:id/participants': { path: () => ({ id: EVENT }), hidden: true },
  'GET /v2/event/:id/wishers': { path: () => ({ id: EVENT }), hidden: true },
  'GET /v2/event/user_created/:id': { path: () => ({ id: owner.id }) },
  'GET /v2/event/user_participated/:id': { path: () => ({ id: owner.id }), query: ['status'] },
  'GET /v2/event/user_wished/:id': { path: () => ({ id: owner.id }), query: ['status'] },
  'GET /v2/event/list': { path: none, query: ['loc', 'day_type', 'type'] },
  'GET /v2/event/search': { path: none, query: ['q', 'loc', 'day_type', 'type'] },
  'GET /v2/loc/:id': { path: () => ({ id: '108288' }) },
  'GET /v2/loc/list': { path: none },
  'POST /v2/event/:id/participants': { path: () => ({ id: EVENT }), body: { participate_date: '2099-03-02' }, hidden: true },
  'DELETE /v2/event/:id/participants': { path: () => ({ id: EVENT }), hidden: true },
  'POST /v2/event/:id/wishers': { path: () => ({ id: EVENT }), hidden: true },
  'DELETE /v2/event/:id/wishers': { path: () => ({ id: EVENT }), hidden: true },

  // ---- users (public fields only: nothing to reach but profiles)
  'GET /v2/user/~me': { path: none },
  'GET /v2/user/:name': { path: () => ({ name: owner.uid }) },
  'GET /v2/user': { path: none, query: ['q'] },
  // the intruder's own account, with a wrong password beside each injected value: never deleted
  'POST /v2/user/~me/delete': { path: none, body: { password: 'not the password' } },
  // the intruder's own records only: the route takes no input but the token
  'GET /v2/user/~me/export': { path: none },

  // ---- the change feed (the intruder's token lacks its scope: every answer is a clean 403)
  'GET /v2/changes': { path: none, query: ['since', 'kinds', 'count'] },

  // ---- pictures: a private one, which only its signature opens
  'GET /v2/picture/:name': { path: (t) => ({ name: t.picture }), query: ['ck', 'e'], hidden: true },

  // ---- OAuth (the password is the intruder's own: a success is the intruder's token, never the owner's)
  'GET /auth2/auth': { path: none, query: AUTHORIZE },
  'POST /auth2/auth': { path: none, body: { ...AUTHORIZE_BODY, decision: 'approve', username: intruder.uid, password: PASSWORD } },
  'POST /auth2/token': {
    path: none,
    body: { grant_type: 'password', client_id: Apps.premium.clientId, client_secret: Apps.premium.secret!, username: intruder.uid, password: PASSWORD, scope: '', refresh_token: '', code: '', redirect_uri: '', code_verifier: '' },
  },
  'POST /auth2/revoke': { path: none, body: { token: 'not-a-token', token_type_hint: 'access_token', client_id: Apps.premium.clientId, client_secret: Apps.premium.secret! } },

  // ---- health
  'GET /health': { path: none },
  'GET /ready': { path: none },
};

interface Attempt {
  label: string;
  query?: string;
  json?: unknown;
  form?: string;
}

/** The injections for one parameter: in the query string, or in a JSON or form body beside valid values. */
function attempts(name: string, inBody: boolean, base: Record<string, string>): Attempt[] {
  if (!inBody) {
    return [
      { label: `${name}[$ne]=`, query: `${name}[$ne]=x&${name}[$gt]=` },
      { label: `${name} repeated`, query: `${name}=a&${name}=b` },
      { label: `${name}={"$gt":""} as text`, query: `${name}=${encodeURIComponent('{"$gt":""}')}` },
    ];
  }
  const others = Object.fromEntries(Object.entries(base).filter(([k]) => k !== name));
  return [
    { label: `{${name}: {$gt: ""}}`, json: { ...base, [name]: { $gt: '' } } },
    { label: `{${name}: {$ne: null}}`, json: { ...base, [name]: { $ne: null } } },
    { label: `{${name}: ["a"]}`, json: { ...base, [name]: ['a', 'b'] } },
    { label: `${name}[$ne]= in a form`, form: `${new URLSearchParams(others).toString()}&${encodeURIComponent(`${name}[$ne]`)}=x` },
    { label: `{${name}: "{\\"$gt\\":\\"\\"}"} as text`, json: { ...base, [name]: '{"$gt":""}' } },
  ];
}

function fill(path: string, values: Record<string, string>): string {
  return path.replace(/:([a-z]+)/g, (_, name: string) => {
    if (values[name] === undefined) throw new Error(`no value for :${name} in ${path}`);
    return values[name];
  });
}

describe('query-operator injection in every parameter of every route', () => {
  const routes = gatewayRoutes();
  const targets = {} as Targets;
  let ownerToken: string;
  let intruderToken: string;
  let before: unknown;
  /** How many injected requests got which status (printed for docs/RELIABILITY.md). */
  const tally: Record<string, number> = {};
  afterAll(() => {
    const total = Object.values(tally).reduce((a, b) => a + b, 0);
    process.stdout.write(`[security] operator injection: ${total} requests over ${routes.length} routes, statuses ${JSON.stringify(tally)}\n`);
  });

  /**
   * The owner's records, read back as the owner. Signed picture addresses are compared without
   * their query (the expiry moves), and the embedded Book without its aggregates, which the
   * intruder's own legitimate collections and reviews of the book change.
   */
  async function ownerView(): Promise<unknown> {
    const token = ownerToken;
    const paths = [
      `/v2/book/${BOOK}/collection`, `/v2/book/annotation/${targets.annotation}`, `/v2/book/user/${owner.uid}/annotations`,
      `/v2/note/${targets.note}`, `/v2/note/${targets.note}/comments`, `/v2/event/${EVENT}`, `/v2/event/${EVENT}/participants`, `/v2/event/${EVENT}/wishers`,
    ];
    const view: Record<string, unknown> = {};
    for (const path of paths) {
      const res = await get(path, { token });
      const body = JSON.parse(res.text.replace(/\?ck=[A-Za-z0-9_-]+&e=\d+/g, ''), (key, value) => (key === 'book' ? undefined : value));
      view[path] = { status: res.status, body };
    }
    return view;
  }

  beforeAll(async () => {
    [ownerToken, intruderToken] = [await tokenFor(owner), await tokenFor(intruder)];
    const token = ownerToken;
    const ok = (res: ApiResponse, status: number) => {
      if (res.status !== status) throw new Error(`setup: expected ${status}, got ${res.status} ${res.text}`);
      return res.body;
    };
    ok(await post(`/v2/book/${BOOK}/collection`, { token, form: { status: 'read', rating: '4', comment: `${SECRET} comment`, privacy: 'private' } }), 201);
    const annotation = ok(
      await exclusive('book-pictures', () =>
        api('POST', `/v2/book/${BOOK}/annotations`, {
          token,
          multipart: pictureForm({ content: `<图片1>${SECRET} 私密批注，内容足够长。`, page: '9', privacy: 'private' }, { '1': { bytes: PNG, name: '1.png', type: 'image/png' } }),
        }),
      ),
      201,
    );
    targets.annotation = annotation.id;
    targets.picture = new URL(annotation.photos['1']).pathname.split('/').pop()!;
    targets.review = String(ok(await post('/v2/book/reviews', { token, form: { book: BOOK, title: `${SECRET} review`, content: LONG_REVIEW, rating: '5' } }), 201).id);
    targets.note = ok(await post('/v2/notes', { token, json: { title: `${SECRET} note`, content: `${SECRET} body`, privacy: 'private' } }), 201).id;
    targets.comment = ok(await post(`/v2/note/${targets.note}/comments`, { token, json: { content: `${SECRET} comment` } }), 201).id;
    before = await ownerView();
  });

  it('has a row for every route of the gateway, and no row for a route that does not exist', () => {
    const keys = routes.map(routeKey);
    expect(keys.length).toBeGreaterThan(60);
    expect(keys.filter((k) => !INPUTS[k])).toEqual([]);
    expect(Object.keys(INPUTS).filter((k) => !keys.includes(k))).toEqual([]);
  });

  it.each(gatewayRoutes().map((route) => [routeKey(route), route] as const))('%s', async (_, route: Route) => {
    const inputs = INPUTS[routeKey(route)];
    const path = fill(route.path, inputs.path(targets));
    const writes = route.method === 'POST' || route.method === 'PUT';
    const names: Array<[string, boolean]> = [
      ...(inputs.query ?? []).map((n) => [n, false] as [string, boolean]),
      ...(route.method === 'GET' ? GET_COMMON : ['callback']).map((n) => [n, false] as [string, boolean]),
      ...Object.keys(inputs.body ?? {}).map((n) => [n, true] as [string, boolean]),
    ];
    const problems: string[] = [];
    for (const [name, inBody] of names) {
      for (const attempt of attempts(name, inBody, inputs.body ?? {})) {
        // a write with query injections still carries its valid body
        const json = attempt.json ?? (writes && !attempt.form ? inputs.body ?? {} : undefined);
        for (const token of route.method === 'GET' ? [intruderToken, undefined] : [intruderToken]) {
          const res = await api(route.method, `${path}${attempt.query ? `?${attempt.query}` : ''}`, {
            token,
            json,
            ...(attempt.form !== undefined ? { body: attempt.form, headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {}),
          });
          tally[res.status] = (tally[res.status] ?? 0) + 1;
          const where = `${attempt.label}${token ? '' : ' (anonymous)'} → ${res.status} ${res.text.slice(0, 160)}`;
          if (res.status >= 500) problems.push(`5xx: ${where}`);
          else if (res.text.includes(SECRET)) problems.push(`hidden data: ${where}`);
          else if (inputs.hidden && res.status < 400) problems.push(`hidden record reached: ${where}`);
          else if (res.status >= 400 && !res.headers.get('content-type')?.includes('text/html')) {
            try {
              expectCleanError(res);
            } catch {
              problems.push(`error shape: ${where}`);
            }
          }
          // a token issued here is the intruder's own, whatever was injected
          if (route.path === '/auth2/token' && res.status === 200 && res.body.user_id !== intruder.id) problems.push(`someone else's token: ${where}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("leaves the owner's records as they were, and the owner's token working", async () => {
    expect(await ownerView()).toEqual(before);
  });

  it('a login with {"$ne": ""} or {"$gt": ""} as the password is refused, in JSON and in a form', async () => {
    const base = { grant_type: 'password', client_id: Apps.premium.clientId, client_secret: Apps.premium.secret, username: owner.uid };
    for (const password of [{ $ne: '' }, { $gt: '' }, { $regex: '.*' }, ['x']]) {
      expectCleanError(await post('/auth2/token', { json: { ...base, password } }), 400, 1016);
    }
    const res = await fetch(new URL('/auth2/token', stackInfo().baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `${new URLSearchParams(base as Record<string, string>).toString()}&password[$ne]=x`,
    });
    expect({ status: res.status, code: ((await res.json()) as { code: number }).code }).toEqual({ status: 400, code: 113 });
  });
});
