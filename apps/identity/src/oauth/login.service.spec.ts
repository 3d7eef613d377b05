import { IdentityConfig } from '../config/identity.config';
import { hashPassword } from '../users/passwords';
import { StoredUser, UsersRepository } from '../users/users.repository';
import { LoginService } from './login.service';

/** An in-memory stand-in for the users collection, with the repository's lockout semantics. */
class MemoryUsers {
  users = new Map<string, StoredUser>();
  async byUid(uid: string) {
    return [...this.users.values()].find((u) => u.uid === uid) ?? null;
  }
  async byId(id: string) {
    return this.users.get(id) ?? null;
  }
  async recordLoginFailure(id: string, lockAfter: number, lockSeconds: number, now: Date) {
    const u = this.users.get(id)!;
    u.failed_logins += 1;
    if (u.failed_logins >= lockAfter) u.locked_until = new Date(now.getTime() + lockSeconds * 1000);
    return u.failed_logins;
  }
  async clearLoginFailures(id: string) {
    const u = this.users.get(id)!;
    u.failed_logins = 0;
    u.locked_until = undefined;
  }
}

describe('LoginService', () => {
  let now = new Date('2026-01-01T00:00:00Z');
  const clock = { now: () => now };
  const config = Object.assign(new IdentityConfig(), { PASSWORD_HASH_COST: 10, LOGIN_SLOWDOWN_AFTER: 100, LOGIN_LOCK_AFTER: 3, LOGIN_LOCK_SECONDS: 900 });
  const users = new MemoryUsers();
  const login = new LoginService(config, clock, users as unknown as UsersRepository);

  beforeAll(async () => {
    users.users.set('1', {
      _id: '1', uid: 'ann', name: 'Ann', avatar: '', signature: '', alt: '', created: new Date(), friend_ids: [],
      failed_logins: 0, token_epoch: 0, loc_id: '', loc_name: '', desc: '', search_terms: [], password_hash: await hashPassword('right', 10),
    });
  });

  it('accepts the right password and rejects a wrong one with 120', async () => {
    await expect(login.authenticate('ann', 'right')).resolves.toMatchObject({ _id: '1' });
    await expect(login.authenticate('ann', 'wrong')).rejects.toMatchObject({ code: 120 });
    await expect(login.authenticate('nobody', 'x')).rejects.toMatchObject({ code: 120 });
  });

  it('reads the username as a uid first: a uid of digits signs in its own user, not the user of that id', async () => {
    users.users.set('7', {
      _id: '7', uid: '1', name: 'Digits', avatar: '', signature: '', alt: '', created: new Date(), friend_ids: [],
      failed_logins: 0, token_epoch: 0, loc_id: '', loc_name: '', desc: '', search_terms: [], password_hash: await hashPassword('right', 10),
    });
    try {
      await expect(login.authenticate('1', 'right')).resolves.toMatchObject({ _id: '7' });
      // an id is accepted too, where no uid reads the same
      await expect(login.authenticate('7', 'right')).resolves.toMatchObject({ _id: '7' });
    } finally {
      users.users.delete('7');
    }
  });

  it('locks after repeated failures, refuses even the right password, and unlocks by itself', async () => {
    await login.authenticate('ann', 'right'); // resets the count
    await expect(login.authenticate('ann', 'w1')).rejects.toMatchObject({ code: 120 });
    await expect(login.authenticate('ann', 'w2')).rejects.toMatchObject({ code: 120 });
    await expect(login.authenticate('ann', 'w3')).rejects.toMatchObject({ code: 128 });
    await expect(login.authenticate('ann', 'right')).rejects.toMatchObject({ code: 128 });
    now = new Date(now.getTime() + 901_000);
    await expect(login.authenticate('ann', 'right')).resolves.toMatchObject({ _id: '1' });
    expect(users.users.get('1')!.failed_logins).toBe(0);
  });
});
