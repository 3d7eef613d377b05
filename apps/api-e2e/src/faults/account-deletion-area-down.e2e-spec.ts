import type { Stack } from '@plaza/stack';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PASSWORD } from '../support/fixtures';
import { importFile } from '../support/import';
import { passwordGrantRequest, readyStatus, report, startFaultStack, stopPrivateStack, timed, until } from './fault-support';

/**
 * Account deletion while an area is down (docs/api/account.md, "Crashes and outages"): the
 * account is deleted and its tokens refused at once; the area that did not answer is `pending`,
 * and identity's sweep erases its records once it is back, counters included.
 */
describe('account deletion with the event service stopped', () => {
  let stack: Stack;
  const measured: Record<string, unknown> = {};

  beforeAll(async () => {
    stack = await startFaultStack({ env: { ACCOUNT_ERASURE_RETRY_MS: '5000' } });
    const fixtures = join(__dirname, '..', '..', 'fixtures');
    const locs = readFileSync(join(fixtures, 'event.ndjson'), 'utf8').split('\n').filter((l) => /"kind": "loc"/.test(l));
    const records = [
      JSON.stringify({ kind: 'user', id: '8951', uid: 'gone_soon', name: 'Gone', password: PASSWORD }),
      ...locs,
      JSON.stringify({
        kind: 'event', id: '8950001', title: '删除测试活动', content: '活动介绍。', category: 'music', begin_time: '2099-05-01 19:30:00',
        end_time: '2099-05-01 22:30:00', loc_id: '108288', owner: { id: '1001' }, geo: '39.9042 116.4074', address: '地址', has_invited: 'no', can_invite: 'yes',
      }),
    ];
    const file = join(mkdtempSync(join(tmpdir(), 'plaza-deletion-')), 'records.ndjson');
    writeFileSync(file, `${records.join('\n')}\n`);
    const imported = importFile(file, stack.natsUrl);
    if (imported.status !== 0) throw new Error(`import failed:\n${imported.output}`);
  }, 180_000);

  afterAll(async () => {
    await stopPrivateStack(stack);
    report('account deletion, an area down', measured);
  });

  it('deletes the account at once and erases the area\'s records when it is back', async () => {
    const token = (await timed(stack, 'POST', '/auth2/token', passwordGrantRequest('gone_soon'))).body.access_token as string;
    expect((await timed(stack, 'POST', '/v2/event/8950001/participants', { token })).status).toBe(202);
    expect((await timed(stack, 'GET', '/v2/event/8950001')).body.participant_count).toBe(1);

    await stack.app('event').stop();
    const deleted = await timed(stack, 'POST', '/v2/user/~me/delete', { token, form: { password: PASSWORD } });
    expect(deleted.status).toBe(202);
    expect(deleted.body).toEqual({ erased: expect.arrayContaining(['note', 'book']), pending: ['event'] });
    expect((await timed(stack, 'GET', '/v2/user/~me', { token })).status).toBe(401);

    await stack.restartApp('event');
    await until('event ready again', async () => (await readyStatus(stack)).status === 200, 60_000);
    // identity retries what it still owes every ACCOUNT_ERASURE_RETRY_MS (5 s here, a minute by default)
    measured.erasedAfterRestartMs = await until('the participation erased', async () => (await timed(stack, 'GET', '/v2/event/8950001')).body.participant_count === 0, 90_000);
    expect((await timed(stack, 'GET', '/v2/event/8950001/participants')).body.users).toEqual([]);
  }, 240_000);
});
