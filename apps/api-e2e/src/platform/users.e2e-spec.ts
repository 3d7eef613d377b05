import { clientToken, tokenFor } from '../support/auth';
import { Apps, PASSWORD, TestUser } from '../support/fixtures';
import { expectError, get } from '../support/http';
import { importRecords } from '../support/import';

/** Users (docs/api/user.md): the signed-in user, a user by uid or id, and user search. */
const lei: TestUser = { id: '77001', uid: 'li_lei_77', name: '李雷 Li Lei' };
const han: TestUser = { id: '77002', uid: 'han_meimei_77', name: '韩梅梅 Han Meimei' };
const plain: TestUser = { id: '77003', uid: 'lei_fan_77', name: 'Lei Fan' };

/** What no answer about a user may hold. */
const PRIVATE_FIELDS = ['password', 'password_hash', 'failed_logins', 'locked_until', 'token_epoch', 'friend_ids', 'search_terms', 'email', '_id'];

function expectProfile(body: Record<string, unknown>, user: TestUser, extra: Record<string, unknown> = {}): void {
  expect(body).toMatchObject({ id: user.id, uid: user.uid, name: user.name, type: 'user', ...extra });
  expect(body.created).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  for (const key of ['signature', 'alt', 'avatar', 'loc_id', 'loc_name', 'desc']) expect(typeof body[key]).toBe('string');
  for (const key of PRIVATE_FIELDS) expect(body).not.toHaveProperty(key);
}

describe('users', () => {
  beforeAll(() => {
    const run = importRecords([
      { kind: 'user', ...lei, password: PASSWORD, created: '2024-05-01 08:00:00', loc_id: '108288', loc_name: '北京', desc: '喜欢读书 Reads a lot', signature: '读书中' },
      { kind: 'user', ...han, password: PASSWORD },
      { kind: 'user', ...plain },
    ]);
    expect(run.status).toBe(0);
  });

  it('GET /v2/user/~me is the signed-in user, with service_basic_common', async () => {
    const token = await tokenFor(lei);
    const me = await get('/v2/user/~me', { token });
    expect(me.status).toBe(200);
    expectProfile(me.body, lei, { loc_id: '108288', loc_name: '北京', desc: '喜欢读书 Reads a lot', signature: '读书中', created: '2024-05-01 08:00:00' });
  });

  it('~me needs a signed-in user and the scope', async () => {
    expectError(await get('/v2/user/~me'), 403, 1000);
    expectError(await get('/v2/user/~me', { token: await tokenFor(lei, Apps.bookOnly, 'book_basic_r') }), 403, 109);
    // an app's token alone names no user, whatever its scopes: 403/1000 (docs/api/user.md, "Errors")
    expectError(await get('/v2/user/~me', { token: await clientToken(Apps.premium) }), 403, 1000, 'GET /v2/user/~me');
  });

  it('the public reads take a token with service_basic_common, an app\'s too; a token without it is 403/109', async () => {
    const appOnly = await get(`/v2/user/${han.uid}`, { token: await clientToken(Apps.premium) });
    expect(appOnly.status).toBe(200);
    expectProfile(appOnly.body, han);
    const bookOnly = await tokenFor(lei, Apps.bookOnly, 'book_basic_r');
    expectError(await get(`/v2/user/${han.uid}`, { token: bookOnly }), 403, 109, `GET /v2/user/${han.uid}`);
    expectError(await get('/v2/user', { token: bookOnly, query: { q: 'lei' } }), 403, 109, 'GET /v2/user');
  });

  it('GET /v2/user/:name by uid or numeric id, public; a missing user is 404/6008', async () => {
    const byUid = await get(`/v2/user/${han.uid}`);
    const byId = await get(`/v2/user/${han.id}`);
    expect(byUid.status).toBe(200);
    expectProfile(byUid.body, han);
    expect(byId.body).toEqual(byUid.body);
    expectError(await get('/v2/user/nobody_here_77'), 404, 6008);
    expectError(await get('/v2/user/bad~name'), 404, 1001);
  });

  it('GET /v2/user?q= matches Chinese and English names and uids, pages like every list', async () => {
    const chinese = await get('/v2/user', { query: { q: '李雷' } });
    expect(chinese.status).toBe(200);
    expect(chinese.body.users.map((u: TestUser) => u.id)).toEqual([lei.id]);
    expectProfile(chinese.body.users[0], lei);

    const english = await get('/v2/user', { query: { q: 'lei' } });
    expect(english.body.users.map((u: TestUser) => u.id)).toEqual([lei.id, plain.id]);
    expect(english.body).toMatchObject({ start: 0, count: 2, total: 2 });

    const second = await get('/v2/user', { query: { q: 'lei', start: 1, count: 1 } });
    expect(second.body).toMatchObject({ start: 1, count: 1, total: 2 });
    expect(second.body.users.map((u: TestUser) => u.id)).toEqual([plain.id]);

    const byUid = await get('/v2/user', { query: { q: 'han_meimei_77' } });
    expect(byUid.body.users.map((u: TestUser) => u.id)).toEqual([han.id]);
    expect((await get('/v2/user', { query: { q: 'zzqqxxnobody' } })).body).toMatchObject({ total: 0, users: [] });
  });

  it('a search without q is 400/1002; a bad page is 400/1016', async () => {
    expectError(await get('/v2/user'), 400, 1002);
    expectError(await get('/v2/user', { query: { q: '' } }), 400, 1002);
    expectError(await get('/v2/user', { query: { q: 'lei', count: -1 } }), 400, 1016);
  });
});
