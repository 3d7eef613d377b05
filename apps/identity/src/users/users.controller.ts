import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ApiError, AppSummary, ApikeyRequest, ChangePasswordRequest, EmptyRequest, FriendsRequest, FriendsResponse, IdentityMessages,
  ResolveUsersRequest, ResolveUsersResponse, UserRecord,
} from '@plaza/contracts';
import { APP_CONFIG } from '@plaza/platform';
import { AppsRepository } from '../apps/apps.repository';
import { IdentityConfig } from '../config/identity.config';
import { TokenIssuer } from '../tokens/token-issuer';
import { hashPassword } from './passwords';
import { toUserRecord, UsersRepository } from './users.repository';

/** What other services ask identity: users by uid or id, friends, an app by apikey, the public keys. */
@Controller()
export class UsersController {
  constructor(
    private readonly users: UsersRepository,
    private readonly apps: AppsRepository,
    private readonly issuer: TokenIssuer,
    @Inject(APP_CONFIG) private readonly config: IdentityConfig,
  ) {}

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

  @MessagePattern(IdentityMessages.friends.subject)
  async friends(@Payload() req: FriendsRequest): Promise<FriendsResponse> {
    const user = await this.users.byId(req.userId);
    return { friendIds: user?.friend_ids ?? [] };
  }

  /** Raises the user's token epoch: every token issued before stops working (CONTRACT.md section 2). */
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
