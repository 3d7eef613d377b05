import { AccessTokenClaims, ApiError, IdentityMessages, MovieTier } from '@plaza/contracts';
import { lazyLru, ServiceBus } from '@plaza/platform';
import { createLocalJWKSet, errors as joseErrors, JSONWebKeySet, jwtVerify } from 'jose';
import type { Logger } from 'pino';
import { Principal } from './principal';
import { RevocationList } from './revocation-list';

interface Verified {
  principal: Principal;
  claims: AccessTokenClaims;
}

/**
 * Verifies access tokens locally: EdDSA-signed JWTs checked against identity's public keys
 * (fetched once over NATS, refreshed when an unknown key id shows up, as after a rotation),
 * then against the revocation list. Verified tokens are memoised until they expire.
 */
export class TokenVerifier {
  private keySet?: ReturnType<typeof createLocalJWKSet>;
  private lastRefresh = 0;
  private readonly verified = lazyLru<string, Verified>(50_000);

  constructor(
    private readonly bus: ServiceBus,
    private readonly revocations: RevocationList,
    private readonly options: { issuer: string; audience: string },
    private readonly logger: Logger,
  ) {}

  get ready(): boolean {
    return this.keySet !== undefined;
  }

  async refreshKeys(): Promise<void> {
    this.lastRefresh = Date.now();
    const jwks = await this.bus.request(IdentityMessages.signingKeys, {}, { timeout: 2000 });
    this.keySet = createLocalJWKSet(jwks as unknown as JSONWebKeySet);
    this.verified.clear();
    this.logger.info({ keys: jwks.keys.map((k) => k.kid) }, 'token signing keys loaded');
  }

  /**
   * A token verified before, still unexpired and unrevoked; undefined otherwise (then the full
   * path through passport runs and reports the precise error).
   */
  cachedPrincipal(token: string): Principal | undefined {
    const hit = this.verified.get(token);
    if (!hit || hit.claims.exp <= Math.floor(Date.now() / 1000) || this.revocations.isRevoked(hit.claims) || this.revocations.isAppBlocked(hit.claims.cid)) {
      return undefined;
    }
    return hit.principal;
  }

  async verify(token: string): Promise<Principal> {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const hit = this.verified.get(token);
    if (hit) {
      if (hit.claims.exp <= nowSeconds) throw new ApiError('access_token_has_expired');
      if (this.revocations.isRevoked(hit.claims)) throw new ApiError('invalid_access_token', 'revoked');
      if (this.revocations.isAppBlocked(hit.claims.cid)) throw new ApiError('apikey_is_blocked');
      return hit.principal;
    }
    const claims = await this.verifySignature(token);
    if (this.revocations.isRevoked(claims)) throw new ApiError('invalid_access_token', 'revoked');
    if (this.revocations.isAppBlocked(claims.cid)) throw new ApiError('apikey_is_blocked');
    const principal: Principal = {
      caller: { userId: claims.sub, uid: claims.uid, clientId: claims.cid, tier: claims.tier },
      scopes: claims.scope ? claims.scope.split(' ') : [],
    };
    this.verified.set(token, { principal, claims });
    return principal;
  }

  private async verifySignature(token: string, retried = false): Promise<AccessTokenClaims> {
    if (!this.keySet) await this.refreshKeys().catch(() => undefined);
    if (!this.keySet) throw new ApiError('service_unavailable', 'token keys not loaded');
    try {
      const { payload } = await jwtVerify(token, this.keySet, {
        issuer: this.options.issuer,
        audience: this.options.audience,
        algorithms: ['EdDSA'],
        typ: 'at+jwt',
      });
      return validateClaims(payload);
    } catch (err) {
      if (err instanceof ApiError) throw err;
      if (err instanceof joseErrors.JWTExpired) throw new ApiError('access_token_has_expired');
      // a key rotated in after our last fetch: refresh at most once a second
      if (err instanceof joseErrors.JWKSNoMatchingKey && !retried && Date.now() - this.lastRefresh > 1000) {
        await this.refreshKeys().catch(() => undefined);
        return this.verifySignature(token, true);
      }
      throw new ApiError('invalid_access_token');
    }
  }
}

const TIERS: MovieTier[] = ['basic', 'advance', 'premium'];

function validateClaims(payload: Record<string, unknown>): AccessTokenClaims {
  const { sub, uid, cid, tier, scope, jti, iat, exp, ep, gid } = payload;
  const ok =
    (sub === undefined || typeof sub === 'string') &&
    (uid === undefined || typeof uid === 'string') &&
    typeof cid === 'string' &&
    typeof tier === 'string' && TIERS.includes(tier as MovieTier) &&
    typeof scope === 'string' && typeof jti === 'string' &&
    typeof iat === 'number' && typeof exp === 'number' &&
    (ep === undefined || typeof ep === 'number') &&
    (gid === undefined || typeof gid === 'string');
  if (!ok) throw new ApiError('invalid_access_token');
  return payload as unknown as AccessTokenClaims;
}
