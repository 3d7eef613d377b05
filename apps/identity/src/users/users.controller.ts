import { Controller, Inject, OnApplicationBootstrap } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ApiError, AppSummary, ApikeyRequest, ChangePasswordRequest, EmptyRequest, envelope, FriendsRequest, FriendsResponse, IdentityMessages,
  ListEnvelope, ResolveUsersRequest, ResolveUsersResponse, UserMessages, UserProfile, UserRecord, UserRefRequest, UserSearchRequest,
} from '@plaza/contracts';
import { APP_CONFIG, LOGGER, Logger } from '@plaza/platform';
import { AppsRepository } from '../apps/apps.repository';
import { IdentityConfig } from '../config/identity.config';
import { TokenIssuer } from '../tokens/token-issuer';
import { hashPassword } from './passwords';
import { toUserProfile, toUserRecord, UsersRepository } from './users.repository';

/** What other services ask identity: users by uid or id, friends, an app by apikey, the public keys. */
@Controller()
export class UsersController implements OnApplicationBootstrap {
  constructor(
    private readonly users: UsersRepository,
    private readonly apps: AppsRepository,
    private readonly issuer: TokenIssuer,
    @Inject(APP_CONFIG) private readonly config: IdentityConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Users stored before user search existed are found once their terms are written: in the background, once. */
  onApplicationBootstrap(): void {
    this.users.indexMissingSearchTerms().then(
      (n) => n > 0 && this.logger.info({ users: n }, 'user search terms written'),
      (err: unknown) => this.logger.warn({ err: (err as Error).message }, 'user search terms not written; next start tries again'),
    );
  }

  @MessagePattern(IdentityMessages.resolveUsers.subject)
  async resolve(@Payload() req: ResolveUsersRequest): Promise<ResolveUsersResponse> {
    const users: Record<string, UserRecord> = {};
    await Promise.all(
      [...new Set(req.refs)].map(async (ref) => {
        const user = await this.users.byRef(ref);
        if (user) users[ref] = toUserRecord(user, this.config.SERVICE_TIMEZONE);
      }),
    );
    return { users };
  }

  /** `GET /v2/user/:name` and `~me` (the gateway names the caller): 404/6008 for no such user. */
  @MessagePattern(UserMessages.get.subject)
  async get(@Payload() req: UserRefRequest): Promise<UserProfile> {
    const user = await this.users.byRef(req.ref);
    if (!user) throw new ApiError('people_not_found', `no user ${req.ref}`);
    return toUserProfile(user, this.config.SERVICE_TIMEZONE);
  }

  @MessagePattern(UserMessages.search.subject)
  async search(@Payload() req: UserSearchRequest): Promise<ListEnvelope<'users', UserProfile>> {
    const { total, users } = await this.users.search(req.query.q, req.page.start, req.page.count);
    return envelope('users', req.page.start, total, users.map((u) => toUserProfile(u, this.config.SERVICE_TIMEZONE)));
  }

  @MessagePattern(IdentityMessages.friends.subject)
  async friends(@Payload() req: FriendsRequest): Promise<FriendsResponse> {
    const user = await this.users.byId(req.userId);
    return { friendIds: user?.friend_ids ?? [] };
  }

  /** Raises the user's token epoch: every token issued before stops working (docs/api/oauth.md). */
  @MessagePattern(IdentityMessages.changePassword.subject)
  async changePassword(@Payload() req: ChangePasswordRequest): Promise<Record<string, never>> {
    const user = await this.users.byId(req.userId);
    if (!user) throw new ApiError('uri_not_found', 'no such user');
    const epoch = await this.users.setPassword(user._id, await hashPassword(req.password, this.config.PASSWORD_HASH_COST));
    await this.issuer.revokeAllForUser(user._id, epoch);
    return {};
  }

  @MessagePattern(IdentityMessages.resolveApikey.subject)
  async apikey(@Payload() req: ApikeyRequest): Promise<AppSummary> {
    const app = await this.apps.byClientId(req.apikey);
    if (!app) throw new ApiError('invalid_apikey');
    return { client_id: app._id, name: app.name, tier: app.tier, blocked: app.blocked };
  }

  @MessagePattern(IdentityMessages.signingKeys.subject)
  keys(@Payload() _req: EmptyRequest) {
    return this.issuer.publicKeys();
  }
}
