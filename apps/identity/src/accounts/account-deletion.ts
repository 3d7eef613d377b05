import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { DELETED_ACCOUNT_HOLD_DAYS, ErasedServices, erasureMessage, ServiceName } from '@plaza/contracts';
import { APP_CONFIG, CLOCK, Clock, formatTimestamp, LOGGER, Logger, ReadinessRegistry, ServiceBus } from '@plaza/platform';
import { scheduleSweeps } from '@plaza/service-kit';
import type { Connection } from 'mongoose';
import { LoginService } from '../oauth/login.service';
import { TokenIssuer } from '../tokens/token-issuer';
import { UsersRepository } from '../users/users.repository';
import { IdentityConfig } from '../config/identity.config';

/** Documents of `deleted_accounts`: `user:<id>` (the deletion, with the areas still to erase) and `uid:<uid>` (the name held). */
interface DeletedAccountDocument {
  _id: string;
  user_id: string;
  uid: string;
  deleted_at: Date;
  /** Until then no import may take the id or the uid (DELETED_ACCOUNT_HOLD_DAYS). */
  hold_until: Date;
  /** Areas that have not confirmed the erasure yet (on `user:` documents). */
  pending?: ServiceName[];
  /** The user's token epoch at deletion, raised by one in the revocation bucket. */
  token_epoch?: number;
}

/** How long one area may take to erase a user's records before the sweep takes over. */
const ERASURE_TIMEOUT_MS = 60_000;

/**
 * Account deletion (docs/api/account.md). Once the password is confirmed, the deletion is written
 * first (so a crash at any later step is completed by the sweep at start and every minute), then
 * every token is revoked through the bucket every gateway watches, the user removed, and each
 * area that keeps the user's records asked to erase them; an area that does not answer is asked
 * again by the sweep until it has.
 */
@Injectable()
export class AccountDeletion implements OnModuleInit, OnApplicationShutdown {
  private schedule?: { first: Promise<void>; stop(): void };
  private recovered = false;
  private sweeping?: Promise<void>;

  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly users: UsersRepository,
    private readonly login: LoginService,
    private readonly issuer: TokenIssuer,
    private readonly bus: ServiceBus,
    private readonly readiness: ReadinessRegistry,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) private readonly config: IdentityConfig,
  ) {}

  private deleted() {
    return this.connection.collection<DeletedAccountDocument>('deleted_accounts');
  }

  onModuleInit(): void {
    this.readiness.register({ name: 'account-deletions', check: async () => this.recovered });
    this.schedule = scheduleSweeps(() => this.sweep(), this.config.ACCOUNT_ERASURE_RETRY_MS, (err) => this.logger.warn({ err: err.message }, 'account deletion sweep failed; will retry'));
    void this.schedule.first.then(() => (this.recovered = true));
  }

  onApplicationShutdown(): void {
    this.schedule?.stop();
  }

  /** `identity.v1.account.delete`: the signed-in user, with their password. */
  async delete(userId: string, password: string): Promise<{ erased: ServiceName[]; pending: ServiceName[] }> {
    const user = await this.login.confirm(userId, password);
    const now = this.clock.now();
    const hold = new Date(now.getTime() + DELETED_ACCOUNT_HOLD_DAYS * 86_400_000);
    const record: DeletedAccountDocument = {
      _id: `user:${user._id}`, user_id: user._id, uid: user.uid, deleted_at: now, hold_until: hold, pending: [...ErasedServices], token_epoch: user.token_epoch ?? 0,
    };
    const { _id, pending, ...held } = record;
    await this.deleted().replaceOne({ _id: `uid:${user.uid}` }, held, { upsert: true });
    await this.deleted().replaceOne({ _id }, { ...held, pending }, { upsert: true });
    return this.complete(record);
  }

  /** Revokes, removes and erases what is left to do for one deletion; idempotent. */
  private async complete(record: DeletedAccountDocument): Promise<{ erased: ServiceName[]; pending: ServiceName[] }> {
    const user = await this.users.byId(record.user_id);
    if (user) {
      // every access token of an older epoch is refused by every gateway at once; refresh tokens are deleted
      await this.issuer.revokeAllForUser(user._id, Math.max(user.token_epoch ?? 0, record.token_epoch ?? 0) + 1);
      await this.users.remove(user._id, user.uid);
    }
    const erased: ServiceName[] = [];
    const pending: ServiceName[] = [];
    await Promise.all(
      (record.pending ?? []).map(async (service) => {
        try {
          const result = await this.bus.request(erasureMessage(service), { user_id: record.user_id }, { timeout: ERASURE_TIMEOUT_MS });
          await this.deleted().updateOne({ _id: record._id }, { $pull: { pending: service } });
          erased.push(service);
          this.logger.info({ user: record.user_id, service, erased: result.erased }, 'deleted account: records erased');
        } catch (err) {
          pending.push(service);
          this.logger.warn({ user: record.user_id, service, err: (err as Error).message }, 'deleted account: erasure not done yet; the sweep retries');
        }
      }),
    );
    return { erased, pending };
  }

  /** Deletions a crash or an unavailable area left unfinished. */
  sweep(): Promise<void> {
    if (!this.sweeping) {
      this.sweeping = (async () => {
        // few documents, and one query both engines answer alike: the unfinished ones are picked here
        for (const record of await this.deleted().find({ pending: { $exists: true } }).toArray()) {
          if (record._id.startsWith('user:') && (record.pending?.length ?? 0) > 0) await this.complete(record);
        }
      })().finally(() => (this.sweeping = undefined));
    }
    return this.sweeping;
  }

  /**
   * Refuses an import that would give a deleted account's id or uid to a user while it is held
   * (docs/api/account.md): nobody can take over the name, the links to it or the records others
   * still hold of it (a friend list, a cached page).
   */
  async assertNotHeld(userId: string, uid: string): Promise<void> {
    const now = this.clock.now().getTime();
    for (const key of [`user:${userId}`, `uid:${uid}`]) {
      const held = await this.deleted().findOne({ _id: key });
      if (held && new Date(held.hold_until).getTime() > now) {
        const until = formatTimestamp(new Date(held.hold_until), 'UTC');
        throw new Error(`${key.startsWith('uid:') ? `uid ${uid}` : `id ${userId}`} belongs to an account deleted on ${formatTimestamp(new Date(held.deleted_at), 'UTC')} UTC; held until ${until} UTC`);
      }
    }
  }
}
