import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { blockedAppKey, JsonWebKeySet, MovieTier, REVOCATION_BUCKET, revokedGrantKey, revokedTokenKey, revokedUserKey, TokenResponse } from '@plaza/contracts';
import { APP_CONFIG, CLOCK, Clock, KeyedMutex, NATS_CONNECTION, revocationBucketOptions } from '@plaza/platform';
import { createLocalJWKSet, JSONWebKeySet, jwtVerify, SignJWT } from 'jose';
import { Model } from 'mongoose';
import type { KV, NatsConnection } from 'nats';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { IdentityConfig } from '../config/identity.config';
import { loadSigningKeys, SigningKeys } from './signing-keys';
import { RefreshTokenDocument } from './token.schemas';

export interface Grant {
  userId?: string;
  uid?: string;
  clientId: string;
  tier: MovieTier;
  scopes: string[];
  /** The user's token epoch (see revokeAllForUser). */
  epoch?: number;
  /**
   * The grant the tokens belong to: the one a refresh continues (its refresh token's), or the one
   * an authorization code opens (chosen at approval). Without it, a grant with a refresh token gets
   * a new id, and a token without one is not part of a grant.
   */
  grantId?: string;
}

/** How often expired refresh tokens are deleted (when a refresh token is issued). */
export const REFRESH_TOKEN_PURGE_INTERVAL_MS = 3600_000;

export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

/**
 * Issues access tokens (EdDSA JWTs the gateway verifies locally) and refresh tokens (random,
 * stored hashed, rotated on use), and records revocations in the KV bucket the gateways watch.
 */
@Injectable()
export class TokenIssuer implements OnModuleInit {
  private keys!: SigningKeys;
  /** The published keys, to check a token as the gateways do. */
  private keySet!: ReturnType<typeof createLocalJWKSet>;
  private revocations?: KV;
  private lastPurge = 0;
  private readonly claimLocks = new KeyedMutex();

  constructor(
    @Inject(APP_CONFIG) private readonly config: IdentityConfig,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(CLOCK) private readonly clock: Clock,
    @InjectModel(RefreshTokenDocument.name) private readonly refreshTokens: Model<RefreshTokenDocument>,
  ) {}

  async onModuleInit(): Promise<void> {
    this.keys = loadSigningKeys(this.config.JWT_KEYS_DIR, this.config.JWT_ACTIVE_KID, this.config.NODE_ENV !== 'production');
    this.keySet = createLocalJWKSet(this.publicKeys() as unknown as JSONWebKeySet);
    this.revocations = await this.nats.jetstream().views.kv(REVOCATION_BUCKET, revocationBucketOptions());
  }

  publicKeys(): JsonWebKeySet {
    return { keys: this.keys.all.map((k) => k.publicJwk) };
  }

  async issue(grant: Grant, withRefreshToken: boolean): Promise<TokenResponse> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const ttl = this.config.ACCESS_TOKEN_TTL;
    const claims: Record<string, unknown> = { cid: grant.clientId, tier: grant.tier, scope: grant.scopes.join(' ') };
    if (grant.uid) claims.uid = grant.uid;
    if (grant.userId) claims.ep = grant.epoch ?? 0;
    // a grant with a refresh token can be revoked as a whole, and so can the tokens of a code
    // exchange (its grant id is the code's), with a refresh token or without
    const grantId = grant.grantId ?? (withRefreshToken ? randomUUID() : undefined);
    if (grantId) claims.gid = grantId;
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: this.keys.active.kid, typ: 'at+jwt' })
      .setIssuer(this.config.TOKEN_ISSUER)
      .setAudience(this.config.TOKEN_AUDIENCE)
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + ttl);
    if (grant.userId) jwt.setSubject(grant.userId);
    const accessToken = await jwt.sign(this.keys.active.privateKey);

    const response: TokenResponse = {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ttl,
      scope: grant.scopes.join(' '),
      ...(grant.userId ? { user_id: grant.userId, user_name: grant.uid } : {}),
    };
    if (withRefreshToken && grantId) response.refresh_token = await this.createRefreshToken(grant, grantId, now);
    return response;
  }

  private async createRefreshToken(grant: Grant, grantId: string, now: number): Promise<string> {
    await this.purgeExpiredRefreshTokens();
    const token = randomBytes(32).toString('base64url');
    await this.refreshTokens.create({
      _id: sha256(token),
      user_id: grant.userId,
      client_id: grant.clientId,
      scopes: grant.scopes,
      grant_id: grantId,
      issued_at: new Date(now * 1000),
      expires_at: new Date((now + this.config.REFRESH_TOKEN_TTL_DAYS * 86400) * 1000),
    });
    return token;
  }

  /**
   * Claims a refresh token for rotation: it is marked used, so it works exactly once. Returns the
   * stored grant, or null when it is unknown, expired, or was used already (then the grant is
   * revoked: the same token twice means two holders, and one of them is not the client).
   */
  async claimRefreshToken(stored: RefreshTokenDocument): Promise<RefreshTokenDocument | null> {
    const now = this.clock.now();
    // the filter makes the claim atomic on MongoDB; FerretDB v1 updates are not (docs/ENGINES.md), hence the lock
    const claimed = await this.claimLocks.run(stored._id, () =>
      this.refreshTokens.findOneAndUpdate({ _id: stored._id, used_at: { $exists: false } }, { $set: { used_at: now } }).lean<RefreshTokenDocument>().exec(),
    );
    if (!claimed) {
      await this.revokeGrant(stored);
      return null;
    }
    return claimed.expires_at.getTime() > now.getTime() ? claimed : null;
  }

  /**
   * Deletes expired refresh tokens, used ones included, at most once per interval per process:
   * FerretDB v1 has no TTL indexes, and every rotation leaves a used token behind.
   */
  private async purgeExpiredRefreshTokens(): Promise<void> {
    const now = this.clock.now();
    if (now.getTime() - this.lastPurge < REFRESH_TOKEN_PURGE_INTERVAL_MS) return;
    this.lastPurge = now.getTime();
    await this.refreshTokens.deleteMany({ expires_at: { $lte: now } }).exec();
  }

  /** A stored refresh token, used or not (see claimRefreshToken). */
  async findRefreshToken(token: string): Promise<RefreshTokenDocument | null> {
    return this.refreshTokens.findById(sha256(token)).lean<RefreshTokenDocument>().exec();
  }

  /**
   * Revokes a refresh token's grant: the refresh tokens rotated from the same sign-in and, through
   * the grant id, every access token issued in it (those still unexpired are at most
   * ACCESS_TOKEN_TTL old, so the revocation entry need not live longer).
   */
  async revokeGrant(stored: RefreshTokenDocument): Promise<void> {
    // issued before grants had ids: the token alone, and its access tokens run to their expiry
    if (!stored.grant_id) {
      await this.refreshTokens.deleteOne({ _id: stored._id }).exec();
      return;
    }
    await this.revokeGrantById(stored.grant_id);
  }

  /**
   * Revokes a grant by its id: every access token that carries it as `gid` (refused by the gateways
   * through `grant.<id>` in the revocation bucket) and every refresh token of it. Used for a
   * refresh token's grant, and for the grant of a replayed authorization code.
   */
  async revokeGrantById(grantId: string): Promise<void> {
    // the access tokens first: should this fail, the refresh token is still there to revoke again
    const until = Math.floor(this.clock.now().getTime() / 1000) + this.config.ACCESS_TOKEN_TTL;
    await this.revocations!.put(revokedGrantKey(grantId), new TextEncoder().encode(String(until)));
    await this.refreshTokens.deleteMany({ grant_id: grantId }).exec();
  }

  /**
   * Revokes one access token (by its id) if it is ours (signed by one of our keys, for our
   * audience), unexpired and the caller's; returns whether it was. Anything else changes nothing:
   * an unverified token must not put entries in the list every gateway keeps in memory.
   */
  async revokeAccessToken(token: string, clientId: string): Promise<boolean> {
    let claims: Awaited<ReturnType<typeof jwtVerify>>['payload'];
    try {
      // checked as the gateways check it, against the same published keys
      ({ payload: claims } = await jwtVerify(token, this.keySet, {
        algorithms: ['EdDSA'],
        typ: 'at+jwt',
        issuer: this.config.TOKEN_ISSUER,
        audience: this.config.TOKEN_AUDIENCE,
        currentDate: this.clock.now(),
      }));
    } catch {
      return false;
    }
    if (typeof claims.jti !== 'string' || claims.cid !== clientId) return false;
    await this.revocations!.put(revokedTokenKey(claims.jti), new TextEncoder().encode(String(claims.exp ?? 0)));
    return true;
  }

  /**
   * Every token the user holds stops working: the caller has raised the user's token epoch to
   * `epoch`, access tokens of older epochs are refused by the gateways, refresh tokens are deleted.
   */
  async revokeAllForUser(userId: string, epoch: number): Promise<void> {
    await this.revocations!.put(revokedUserKey(userId), new TextEncoder().encode(String(epoch)));
    await this.refreshTokens.deleteMany({ user_id: userId }).exec();
  }

  /**
   * A blocked app's tokens stop working at every gateway (new ones are refused at the token
   * endpoint); unblocking lets its unexpired tokens work again. The entry outlives every token
   * issued before the block (the bucket keeps it longer than the longest token lifetime).
   */
  async setAppBlocked(clientId: string, blocked: boolean): Promise<void> {
    if (blocked) await this.revocations!.put(blockedAppKey(clientId), new TextEncoder().encode('blocked'));
    else await this.revocations!.delete(blockedAppKey(clientId));
  }
}
