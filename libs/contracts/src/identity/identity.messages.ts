import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { MovieTier } from '../messaging/caller';
import { defineMessage } from '../messaging/define-message';
import { SimpleUser, UserRecord } from '../common/user';

/** Every scope the interface names (docs/api/README.md, "Tiers and scopes"). */
export const Scopes = [
  'book_basic_r', 'book_basic_w', 'service_basic_common',
  'movie_basic_r', 'movie_basic_w', 'movie_advance_r', 'movie_advance_w', 'movie_premium_r', 'movie_premium_w',
  'community_basic_note',
  'event_basic_r', 'event_basic_w',
  // Plaza's own: the public catalogue's change feed, GET /v2/changes (docs/api/changes.md)
  'catalogue_changes_r',
] as const;
export type Scope = (typeof Scopes)[number];

/** Parameters of POST /auth2/token, exactly as the client sent them (validation happens in identity). */
export class TokenRequest {
  @IsOptional() @IsString() @MaxLength(100) grant_type?: string;
  @IsOptional() @IsString() @MaxLength(200) client_id?: string;
  @IsOptional() @IsString() @MaxLength(200) client_secret?: string;
  @IsOptional() @IsString() @MaxLength(500) code?: string;
  @IsOptional() @IsString() @MaxLength(200) code_verifier?: string;
  @IsOptional() @IsString() @MaxLength(2000) redirect_uri?: string;
  @IsOptional() @IsString() @MaxLength(200) username?: string;
  @IsOptional() @IsString() @MaxLength(500) password?: string;
  @IsOptional() @IsString() @MaxLength(500) refresh_token?: string;
  @IsOptional() @IsString() @MaxLength(1000) scope?: string;
  /** Client address, for brute-force accounting. */
  @IsOptional() @IsString() @MaxLength(100) client_ip?: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
  user_id?: string;
  user_name?: string;
}

/** The parameters of GET /auth2/auth (and of the consent form posted back). */
export class AuthorizeRequest {
  @IsOptional() @IsString() @MaxLength(200) client_id?: string;
  @IsOptional() @IsString() @MaxLength(2000) redirect_uri?: string;
  @IsOptional() @IsString() @MaxLength(50) response_type?: string;
  @IsOptional() @IsString() @MaxLength(1000) scope?: string;
  @IsOptional() @IsString() @MaxLength(1000) state?: string;
  @IsOptional() @IsString() @MaxLength(200) code_challenge?: string;
  @IsOptional() @IsString() @MaxLength(20) code_challenge_method?: string;
}

/**
 * Result of checking an authorize request. `redirect` is set when the request is bad in a way
 * that must be reported to the client by redirect (RFC 6749 4.1.2.1); otherwise the page is shown.
 */
export interface AuthorizeCheckResponse {
  app_name: string;
  scopes: string[];
  redirect?: string;
}

export class AuthorizeDecision extends AuthorizeRequest {
  @IsIn(['approve', 'deny']) decision!: 'approve' | 'deny';
  @IsOptional() @IsString() @MaxLength(200) username?: string;
  @IsOptional() @IsString() @MaxLength(500) password?: string;
  @IsOptional() @IsString() @MaxLength(100) client_ip?: string;
}

export interface AuthorizeDecisionResponse {
  /** Where the browser goes next (with code, token fragment or error). */
  redirect: string;
}

export class RevokeRequest {
  @IsOptional() @IsString() @MaxLength(2000) token?: string;
  @IsOptional() @IsString() @MaxLength(50) token_type_hint?: string;
  @IsOptional() @IsString() @MaxLength(200) client_id?: string;
  @IsOptional() @IsString() @MaxLength(200) client_secret?: string;
}

export class ApikeyRequest {
  @IsString() @MaxLength(200) apikey!: string;
}

export interface AppSummary {
  client_id: string;
  name: string;
  tier: MovieTier;
  blocked: boolean;
}

export class EmptyRequest {}

export interface JsonWebKeySet {
  keys: Array<Record<string, unknown>>;
}

export class ResolveUsersRequest {
  /** uids or numeric ids, mixed. */
  @IsArray() @ArrayMaxSize(500) @IsString({ each: true }) refs!: string[];
}

export interface ResolveUsersResponse {
  /** Keyed by the ref as given; refs that name no user are absent. */
  users: Record<string, UserRecord>;
}

export class FriendsRequest {
  @IsString() userId!: string;
}

export interface FriendsResponse {
  friendIds: string[];
}

export class ChangePasswordRequest {
  @IsString() userId!: string;
  @IsString() @MaxLength(500) password!: string;
}

export const IdentityMessages = {
  issueToken: defineMessage<TokenRequest, TokenResponse>('identity.v1.token.issue', TokenRequest),
  revokeToken: defineMessage<RevokeRequest, Record<string, never>>('identity.v1.token.revoke', RevokeRequest),
  checkAuthorize: defineMessage<AuthorizeRequest, AuthorizeCheckResponse>('identity.v1.authorize.check', AuthorizeRequest),
  decideAuthorize: defineMessage<AuthorizeDecision, AuthorizeDecisionResponse>('identity.v1.authorize.decide', AuthorizeDecision),
  resolveApikey: defineMessage<ApikeyRequest, AppSummary>('identity.v1.apikey.resolve', ApikeyRequest),
  signingKeys: defineMessage<EmptyRequest, JsonWebKeySet>('identity.v1.keys.list', EmptyRequest),
  resolveUsers: defineMessage<ResolveUsersRequest, ResolveUsersResponse>('identity.v1.users.resolve', ResolveUsersRequest),
  friends: defineMessage<FriendsRequest, FriendsResponse>('identity.v1.users.friends', FriendsRequest),
  changePassword: defineMessage<ChangePasswordRequest, Record<string, never>>('identity.v1.users.change-password', ChangePasswordRequest),
} as const;

/** JetStream KV bucket where identity records revocations; every gateway watches it. */
export const REVOCATION_BUCKET = 'revocations';
/**
 * Keys in the revocation bucket: `jti.<token id>` revokes one token; `user.<user id>` holds the
 * user's token epoch: tokens carrying an older epoch (`ep`) are revoked (password change);
 * `app.<client id>` marks a blocked app: its tokens, issued before the block, are refused;
 * `grant.<grant id>` revokes every access token of a grant whose refresh token was revoked.
 */
export const revokedTokenKey = (jti: string) => `jti.${jti}`;
export const revokedGrantKey = (grantId: string) => `grant.${grantId}`;
export const revokedUserKey = (userId: string) => `user.${userId}`;
export const blockedAppKey = (clientId: string) => `app.${clientId}`;

/** Claims of an access token (a JWT signed by identity). */
export interface AccessTokenClaims {
  sub?: string;
  uid?: string;
  cid: string;
  tier: MovieTier;
  scope: string;
  jti: string;
  iat: number;
  exp: number;
  /** The user's token epoch when issued; raising the epoch revokes every older token. */
  ep?: number;
  /**
   * The grant (a sign-in, and the refresh tokens that rotate from it) the token was issued in;
   * revoking the grant's refresh token revokes its access tokens too (RFC 7009 section 2.1).
   */
  gid?: string;
}

export type { SimpleUser };

/** RFC 6749 `error` values for the token endpoint's error bodies, by contract code. */
export const OAUTH_ERROR_BY_CODE: Record<number, string> = {
  100: 'invalid_request',
  104: 'invalid_client',
  105: 'unauthorized_client',
  113: 'invalid_request',
  114: 'unsupported_grant_type',
  115: 'unsupported_response_type',
  116: 'invalid_client',
  117: 'invalid_grant',
  118: 'invalid_grant',
  119: 'invalid_grant',
  120: 'invalid_grant',
  125: 'invalid_scope',
  128: 'invalid_grant',
  1016: 'invalid_request',
};
