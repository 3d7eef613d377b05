import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '@plaza/contracts';
import { APP_CONFIG, CLOCK, Clock, Metrics } from '@plaza/platform';
import { IdentityConfig } from '../config/identity.config';
import { hashPassword, verifyPassword } from '../users/passwords';
import { StoredUser, UsersRepository } from '../users/users.repository';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Checks a username and password, resisting brute force: after LOGIN_SLOWDOWN_AFTER consecutive
 * failures each further failure is answered slowly, after LOGIN_LOCK_AFTER the account is locked
 * (400/128) for LOGIN_LOCK_SECONDS, then unlocks by itself. A success resets the count.
 */
@Injectable()
export class LoginService {
  private dummyHash?: Promise<string>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: IdentityConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly users: UsersRepository,
  ) {}

  async authenticate(username: string, password: string): Promise<StoredUser> {
    // `username` is the uid (docs/api/oauth.md), the id accepted too: a uid of digits that is
    // another user's id still signs in its own user
    const user = (await this.users.byUid(username)) ?? (/^\d+$/.test(username) ? await this.users.byId(username) : null);
    return this.check(user, password);
  }

  /**
   * A signed-in user confirms a grave action with their password (account deletion,
   * docs/api/account.md): the same check, failure count and lock as a sign-in.
   */
  async confirm(userId: string, password: string): Promise<StoredUser> {
    return this.check(await this.users.byId(userId), password);
  }

  private async check(user: StoredUser | null, password: string): Promise<StoredUser> {
    if (!user || !user.password_hash) {
      // same work as a real check, so timing does not tell which usernames exist
      this.dummyHash ??= hashPassword('not a password', this.config.PASSWORD_HASH_COST);
      await verifyPassword(password, await this.dummyHash);
      throw new ApiError('username_password_mismatch');
    }
    const now = this.clock.now();
    if (user.locked_until && new Date(user.locked_until).getTime() > now.getTime()) {
      Metrics.loginLockedOut();
      throw new ApiError('user_locked', 'too many failed sign-ins; try again later');
    }
    if (!(await verifyPassword(password, user.password_hash))) {
      const failures = await this.users.recordLoginFailure(user._id, this.config.LOGIN_LOCK_AFTER, this.config.LOGIN_LOCK_SECONDS, now);
      if (failures > this.config.LOGIN_SLOWDOWN_AFTER) await sleep(Math.min(2000, 250 * (failures - this.config.LOGIN_SLOWDOWN_AFTER)));
      if (failures >= this.config.LOGIN_LOCK_AFTER) {
        Metrics.loginLockedOut();
        throw new ApiError('user_locked', 'too many failed sign-ins; try again later');
      }
      throw new ApiError('username_password_mismatch');
    }
    if (user.failed_logins > 0 || user.locked_until) await this.users.clearLoginFailures(user._id);
    return user;
  }
}
