import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  ApiError, AuthorizeCheckResponse, AuthorizeDecision, AuthorizeDecisionResponse, AuthorizeRequest, RevokeRequest, TokenRequest, TokenResponse,
} from '@plaza/contracts';
import { CLOCK, Clock, KeyedMutex } from '@plaza/platform';
import { Model } from 'mongoose';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { AppsRepository, StoredApp } from '../apps/apps.repository';
import { UsersRepository } from '../users/users.repository';
import { REFRESH_TOKEN_PURGE_INTERVAL_MS, sha256, TokenIssuer } from '../tokens/token-issuer';
import { AuthorizationCodeDocument } from '../tokens/token.schemas';
import { LoginService } from './login.service';
import { RedirectableError } from './oauth-errors';

const CODE_TTL_SECONDS = 600;

function splitScopes(scope: string | undefined): string[] {
  return [...new Set((scope ?? '').split(/[\s,]+/).filter(Boolean))];
}

function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/**
 * The OAuth 2.0 endpoints of docs/api/oauth.md: authorization code (+ PKCE, S256 only),
 * password (trusted apps), refresh token (rotated on every use), client credentials, and
 * revocation (RFC 7009). Errors carry the codes of docs/api/oauth.md, "Errors".
 */
@Injectable()
export class OAuthService {
  private readonly codeLocks = new KeyedMutex();
  private lastCodePurge = 0;

  constructor(
    private readonly apps: AppsRepository,
    private readonly users: UsersRepository,
    private readonly login: LoginService,
    private readonly issuer: TokenIssuer,
    @Inject(CLOCK) private readonly clock: Clock,
    @InjectModel(AuthorizationCodeDocument.name) private readonly codes: Model<AuthorizationCodeDocument>,
  ) {}

  // ---- token endpoint ----

  async token(req: TokenRequest): Promise<TokenResponse> {
    if (!req.grant_type) throw new ApiError('required_parameter_is_missing', 'grant_type');
    switch (req.grant_type) {
      case 'authorization_code':
        return this.authorizationCodeGrant(req);
      case 'password':
        return this.passwordGrant(req);
      case 'refresh_token':
        return this.refreshTokenGrant(req);
      case 'client_credentials':
        return this.clientCredentialsGrant(req);
      default:
        throw new ApiError('unsupported_grant_type', req.grant_type);
    }
  }

  /** Authenticates the client: confidential apps must send their secret; public apps have none. */
  private async client(clientId: string | undefined, secret: string | undefined, requireConfidential = false): Promise<StoredApp> {
    if (!clientId) throw new ApiError('required_parameter_is_missing', 'client_id');
    const app = await this.apps.byClientId(clientId);
    if (!app) throw new ApiError('invalid_apikey', 'unknown client');
    if (app.blocked) throw new ApiError('apikey_is_blocked');
    if (app.secret_hash) {
      if (secret === undefined || secret === '') throw new ApiError('required_parameter_is_missing', 'client_secret');
      if (!this.apps.secretMatches(app, secret)) throw new ApiError('client_secret_mismatch');
    } else if (requireConfidential) {
      throw new ApiError('client_secret_mismatch', 'this grant needs a confidential client');
    }
    return app;
  }

  /** No scope requested: every scope the app may have. Otherwise each must be allowed (125). */
  private scopesFor(allowed: string[], requested: string | undefined): string[] {
    const asked = splitScopes(requested);
    if (asked.length === 0) return [...allowed];
    const refused = asked.filter((s) => !allowed.includes(s));
    if (refused.length > 0) throw new ApiError('invalid_request_scope', refused.join(' '));
    return asked;
  }

  private async authorizationCodeGrant(req: TokenRequest): Promise<TokenResponse> {
    const app = await this.client(req.client_id, req.client_secret);
    if (!req.code) throw new ApiError('required_parameter_is_missing', 'code');
    if (!req.redirect_uri) throw new ApiError('required_parameter_is_missing', 'redirect_uri');
    const id = sha256(req.code);
    const stored = await this.codes.findById(id).lean<AuthorizationCodeDocument>().exec();
    if (!stored || stored.client_id !== app._id) throw new ApiError('invalid_authorization_code');
    const now = this.clock.now();
    // marking it used claims the code; the filter makes the claim atomic on MongoDB, FerretDB v1
    // updates are not (docs/ENGINES.md), hence the lock, as for refresh tokens
    const claimed = await this.codeLocks.run(id, () =>
      this.codes.findOneAndUpdate({ _id: id, used_at: { $exists: false } }, { $set: { used_at: now } }).lean<AuthorizationCodeDocument>().exec(),
    );
    if (!claimed) {
      // a code presented twice: one of the two holders is not the client. RFC 6749 section 4.1.2:
      // refuse it, and revoke the tokens issued from it (its grant: access and refresh tokens).
      // Marked first, so that an exchange still issuing its tokens sees it (below)
      await this.codeLocks.run(id, () => this.codes.updateOne({ _id: id }, { $set: { replayed_at: now } }).exec());
      if (stored.grant_id) await this.issuer.revokeGrantById(stored.grant_id);
      throw new ApiError('invalid_authorization_code', 'the code was used already');
    }
    if (stored.expires_at.getTime() < now.getTime()) throw new ApiError('invalid_authorization_code');
    if (stored.redirect_uri !== req.redirect_uri) throw new ApiError('redirect_uri_mismatch');
    if (stored.code_challenge) {
      if (!req.code_verifier) throw new ApiError('required_parameter_is_missing', 'code_verifier');
      if (pkceChallenge(req.code_verifier) !== stored.code_challenge) throw new ApiError('invalid_authorization_code', 'PKCE verification failed');
    }
    const user = await this.users.byId(stored.user_id);
    // a code approved before the user's password changed goes with the tokens of that time
    if (!user || (stored.epoch ?? 0) !== (user.token_epoch ?? 0)) throw new ApiError('invalid_authorization_code');
    const tokens = await this.issuer.issue(
      { userId: user._id, uid: user.uid, clientId: app._id, tier: app.tier, scopes: stored.scopes, epoch: user.token_epoch, grantId: stored.grant_id },
      true,
    );
    // a replay while the tokens were being issued revoked the grant before its refresh token was
    // stored: revoke it again, now that everything it issued exists, and refuse. (Either the replay
    // was marked before this read, or its revocation runs after it, so after the refresh token.)
    const after = await this.codes.findById(id).lean<AuthorizationCodeDocument>().exec();
    if (after?.replayed_at && stored.grant_id) {
      await this.issuer.revokeGrantById(stored.grant_id);
      throw new ApiError('invalid_authorization_code', 'the code was used twice');
    }
    return tokens;
  }

  private async passwordGrant(req: TokenRequest): Promise<TokenResponse> {
    const app = await this.client(req.client_id, req.client_secret);
    if (!app.trusted) throw new ApiError('unsupported_grant_type', 'the password grant is for trusted apps only');
    if (!req.username) throw new ApiError('required_parameter_is_missing', 'username');
    if (!req.password) throw new ApiError('required_parameter_is_missing', 'password');
    const scopes = this.scopesFor(app.scopes, req.scope);
    const user = await this.login.authenticate(req.username, req.password);
    return this.issuer.issue({ userId: user._id, uid: user.uid, clientId: app._id, tier: app.tier, scopes, epoch: user.token_epoch }, true);
  }

  private async refreshTokenGrant(req: TokenRequest): Promise<TokenResponse> {
    const app = await this.client(req.client_id, req.client_secret);
    if (!req.refresh_token) throw new ApiError('required_parameter_is_missing', 'refresh_token');
    const found = await this.issuer.findRefreshToken(req.refresh_token);
    if (!found || found.client_id !== app._id) throw new ApiError('invalid_refresh_token');
    // a refresh may narrow the scopes, never widen them (no escalation through refresh)
    const scopes = this.scopesFor(found.scopes.filter((s) => app.scopes.includes(s)), req.scope);
    const stored = await this.issuer.claimRefreshToken(found);
    if (!stored) throw new ApiError('invalid_refresh_token');
    let user: { _id: string; uid: string; token_epoch: number } | undefined;
    if (stored.user_id) {
      const found = await this.users.byId(stored.user_id);
      if (!found) throw new ApiError('invalid_refresh_token');
      user = found;
    }
    return this.issuer.issue({ userId: user?._id, uid: user?.uid, clientId: app._id, tier: app.tier, scopes, epoch: user?.token_epoch, grantId: stored.grant_id }, true);
  }

  private async clientCredentialsGrant(req: TokenRequest): Promise<TokenResponse> {
    const app = await this.client(req.client_id, req.client_secret, true);
    const scopes = this.scopesFor(app.scopes, req.scope);
    return this.issuer.issue({ clientId: app._id, tier: app.tier, scopes }, false);
  }

  // ---- revocation (RFC 7009) ----

  async revoke(req: RevokeRequest): Promise<Record<string, never>> {
    const app = await this.client(req.client_id, req.client_secret);
    if (!req.token) throw new ApiError('required_parameter_is_missing', 'token');
    const refresh = await this.issuer.findRefreshToken(req.token);
    if (refresh) {
      if (refresh.client_id === app._id) await this.issuer.revokeGrant(refresh);
    } else {
      await this.issuer.revokeAccessToken(req.token, app._id);
    }
    // RFC 7009 2.2: an unknown or foreign token still gets 200
    return {};
  }

  // ---- authorization endpoint ----

  /** Validates an authorize request; what cannot be redirected (bad client or redirect_uri) is an error shown to the user. */
  async checkAuthorize(req: AuthorizeRequest): Promise<AuthorizeCheckResponse> {
    try {
      const { app } = await this.validateAuthorize(req);
      const asked = splitScopes(req.scope);
      return { app_name: app.name, scopes: asked.length > 0 ? asked : app.scopes };
    } catch (err) {
      if (err instanceof RedirectableError) return { app_name: '', scopes: [], redirect: this.errorRedirect(req, err) };
      throw err;
    }
  }

  async decideAuthorize(req: AuthorizeDecision): Promise<AuthorizeDecisionResponse> {
    let app: StoredApp;
    try {
      ({ app } = await this.validateAuthorize(req));
    } catch (err) {
      if (err instanceof RedirectableError) return { redirect: this.errorRedirect(req, err) };
      throw err;
    }
    if (req.decision === 'deny') return { redirect: this.errorRedirect(req, new RedirectableError('access_denied', 'the user denied the request')) };
    if (!req.username || !req.password) throw new ApiError('required_parameter_is_missing', 'username and password');
    const user = await this.login.authenticate(req.username, req.password);
    const scopes = this.scopesFor(app.scopes, req.scope);

    if (req.response_type === 'token') {
      const token = await this.issuer.issue({ userId: user._id, uid: user.uid, clientId: app._id, tier: app.tier, scopes, epoch: user.token_epoch }, false);
      return {
        redirect: this.withParams(req.redirect_uri!, 'fragment', {
          access_token: token.access_token, token_type: 'Bearer', expires_in: String(token.expires_in), scope: token.scope, state: req.state,
        }),
      };
    }
    await this.purgeExpiredCodes();
    const code = randomBytes(24).toString('base64url');
    await this.codes.create({
      _id: sha256(code),
      client_id: app._id,
      user_id: user._id,
      redirect_uri: req.redirect_uri!,
      scopes,
      code_challenge: req.code_challenge,
      epoch: user.token_epoch ?? 0,
      grant_id: randomUUID(),
      expires_at: new Date(this.clock.now().getTime() + CODE_TTL_SECONDS * 1000),
    });
    return { redirect: this.withParams(req.redirect_uri!, 'query', { code, state: req.state }) };
  }

  /**
   * Deletes expired codes, used or not, at most once per interval per process (FerretDB v1 has no
   * TTL indexes): a used code is kept only until it expires, to recognise its replay.
   */
  private async purgeExpiredCodes(): Promise<void> {
    const now = this.clock.now();
    if (now.getTime() - this.lastCodePurge < REFRESH_TOKEN_PURGE_INTERVAL_MS) return;
    this.lastCodePurge = now.getTime();
    await this.codes.deleteMany({ expires_at: { $lte: now } }).exec();
  }

  private async validateAuthorize(req: AuthorizeRequest): Promise<{ app: StoredApp }> {
    if (!req.client_id) throw new ApiError('required_parameter_is_missing', 'client_id');
    const app = await this.apps.byClientId(req.client_id);
    if (!app) throw new ApiError('invalid_apikey', 'unknown client');
    if (app.blocked) throw new ApiError('apikey_is_blocked');
    // exact match against a registered address: no prefix, no open redirect
    if (!req.redirect_uri || !app.redirect_uris.includes(req.redirect_uri)) throw new ApiError('redirect_uri_mismatch');
    if (req.response_type !== 'code' && req.response_type !== 'token') {
      throw new RedirectableError('unsupported_response_type', 'response_type must be code or token');
    }
    const refused = splitScopes(req.scope).filter((s) => !app.scopes.includes(s));
    if (refused.length > 0) throw new RedirectableError('invalid_scope', `not allowed: ${refused.join(' ')}`);
    // RFC 7636 reads a challenge without a method as `plain`, which we do not take: say so now,
    // not with a failed exchange that burns the code
    if ((req.code_challenge !== undefined || req.code_challenge_method !== undefined) && req.code_challenge_method !== 'S256') {
      throw new RedirectableError('invalid_request', 'code_challenge_method must be S256');
    }
    if (req.code_challenge !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(req.code_challenge)) {
      throw new RedirectableError('invalid_request', 'code_challenge must be a base64url SHA-256');
    }
    if (!app.secret_hash) {
      if (req.response_type === 'code' && !req.code_challenge) throw new RedirectableError('invalid_request', 'PKCE (code_challenge, S256) is required for this app');
    }
    return { app };
  }

  private errorRedirect(req: AuthorizeRequest, err: RedirectableError): string {
    return this.withParams(req.redirect_uri!, req.response_type === 'token' ? 'fragment' : 'query', {
      error: err.error, error_description: err.description, state: req.state,
    });
  }

  private withParams(uri: string, where: 'query' | 'fragment', params: Record<string, string | undefined>): string {
    const url = new URL(uri);
    const entries = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined);
    if (where === 'query') {
      for (const [k, v] of entries) url.searchParams.set(k, v);
      return url.toString();
    }
    url.hash = new URLSearchParams(entries).toString();
    return url.toString();
  }
}
