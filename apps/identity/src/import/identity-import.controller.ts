import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ImportBatch, importBatchMessage } from '@plaza/contracts';
import { APP_CONFIG, ImportKindHandler, parseZonedTimestamp, runImportBatch } from '@plaza/platform';
import { AccountDeletion } from '../accounts/account-deletion';
import { AppsRepository, hashClientSecret } from '../apps/apps.repository';
import { IdentityConfig } from '../config/identity.config';
import { TokenIssuer } from '../tokens/token-issuer';
import { hashPassword, verifyPassword } from '../users/passwords';
import { userSearchTerms, UsersRepository } from '../users/users.repository';
import { AppImportRecord, FriendshipImportRecord, UserImportRecord } from './identity-import.records';

@Controller()
export class IdentityImportController {
  private readonly handlers: Record<string, ImportKindHandler<object>>;

  constructor(
    private readonly users: UsersRepository,
    private readonly apps: AppsRepository,
    private readonly issuer: TokenIssuer,
    @Inject(APP_CONFIG) private readonly config: IdentityConfig,
    private readonly deletions: AccountDeletion,
  ) {
    this.handlers = {
      user: { record: UserImportRecord, upsert: (r) => this.importUser(r as UserImportRecord) },
      app: { record: AppImportRecord, upsert: (r) => this.importApp(r as AppImportRecord) },
      friendship: { record: FriendshipImportRecord, upsert: (r) => this.importFriendship(r as FriendshipImportRecord) },
    };
  }

  @MessagePattern(importBatchMessage('identity').subject)
  batch(@Payload() batch: ImportBatch) {
    return runImportBatch(batch, this.handlers);
  }

  /** A changed password counts as a password change: the user's tokens are revoked. */
  private async importUser(r: UserImportRecord): Promise<void> {
    // a deleted account's id and uid are held (docs/api/account.md)
    await this.deletions.assertNotHeld(r.id, r.uid);
    const existing = await this.users.byId(r.id);
    const samePassword = r.password === undefined ? true : await verifyPassword(r.password, existing?.password_hash);
    const passwordHash = r.password !== undefined && !samePassword ? await hashPassword(r.password, this.config.PASSWORD_HASH_COST) : existing?.password_hash;
    const passwordChanged = Boolean(existing?.password_hash) && !samePassword;
    const created = r.created ? parseZonedTimestamp(r.created, this.config.SERVICE_TIMEZONE) ?? new Date(r.created) : existing?.created ?? new Date();
    if (Number.isNaN(new Date(created).getTime())) throw new Error('created is not a timestamp');
    const web = this.config.PUBLIC_WEB_URL.replace(/\/$/, '');
    await this.users.upsert({
      _id: r.id,
      uid: r.uid,
      name: r.name,
      avatar: r.avatar ?? `${web}/avatars/${r.uid}.png`,
      signature: r.signature ?? '',
      alt: r.alt ?? `${web}/people/${r.uid}/`,
      created: new Date(created),
      loc_id: r.loc_id ?? existing?.loc_id ?? '',
      loc_name: r.loc_name ?? existing?.loc_name ?? '',
      desc: r.desc ?? existing?.desc ?? '',
      search_terms: userSearchTerms(r.name, r.uid),
      password_hash: passwordHash,
      friend_ids: existing?.friend_ids ?? [],
      failed_logins: existing?.failed_logins ?? 0,
      locked_until: existing?.locked_until,
      token_epoch: (existing?.token_epoch ?? 0) + (passwordChanged ? 1 : 0),
    });
    if (passwordChanged) await this.issuer.revokeAllForUser(r.id, (existing?.token_epoch ?? 0) + 1);
  }

  private async importApp(r: AppImportRecord): Promise<void> {
    const wasBlocked = (await this.apps.byClientId(r.client_id))?.blocked ?? false;
    await this.apps.upsert({
      _id: r.client_id,
      secret_hash: r.client_secret ? hashClientSecret(r.client_secret) : undefined,
      name: r.name,
      tier: r.tier,
      scopes: [...new Set(r.scopes)],
      redirect_uris: r.redirect_uris,
      trusted: r.trusted,
      blocked: r.blocked ?? false,
    });
    if (r.blocked || wasBlocked) await this.issuer.setAppBlocked(r.client_id, r.blocked ?? false);
  }

  private async importFriendship(r: FriendshipImportRecord): Promise<void> {
    if (r.user_id === r.friend_id) throw new Error('a user cannot befriend themselves');
    const [a, b] = await Promise.all([this.users.byId(r.user_id), this.users.byId(r.friend_id)]);
    if (!a) throw new Error(`no user ${r.user_id}`);
    if (!b) throw new Error(`no user ${r.friend_id}`);
    await this.users.addFriend(a._id, b._id);
    await this.users.addFriend(b._id, a._id);
  }
}
