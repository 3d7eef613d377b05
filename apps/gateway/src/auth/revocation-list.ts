import { AccessTokenClaims, REVOCATION_BUCKET } from '@plaza/contracts';
import type { KV, NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { revocationBucketOptions } from '@plaza/platform';

/**
 * Revoked tokens and blocked apps, mirrored from identity's JetStream KV bucket. The watch replays every live
 * entry at start and then streams changes, so a revocation reaches every gateway replica within
 * milliseconds and tokens are still checked without a request to identity.
 */
export class RevocationList {
  private readonly revokedJtis = new Set<string>();
  /** grants whose refresh token was revoked: all their access tokens are. */
  private readonly revokedGrants = new Set<string>();
  /** user id → current token epoch; tokens of an older epoch are revoked (password change). */
  private readonly userEpochs = new Map<string, number>();
  /** client ids of blocked apps: their tokens and apikeys are refused (400/105). */
  private readonly blockedApps = new Set<string>();
  private synced = false;
  private kv?: KV;

  constructor(private readonly nc: NatsConnection, private readonly logger: Logger) {}

  async start(): Promise<void> {
    this.kv = await this.nc.jetstream().views.kv(REVOCATION_BUCKET, revocationBucketOptions());
    await this.watch();
  }

  private async watch(): Promise<void> {
    const kv = this.kv!;
    const iterator = await kv.watch({ initializedFn: () => (this.synced = true) });
    void (async () => {
      for await (const entry of iterator) {
        const [kind, id] = [entry.key.slice(0, entry.key.indexOf('.')), entry.key.slice(entry.key.indexOf('.') + 1)];
        const deleted = entry.operation !== 'PUT';
        if (kind === 'jti') {
          if (deleted) this.revokedJtis.delete(id);
          else this.revokedJtis.add(id);
        } else if (kind === 'grant') {
          if (deleted) this.revokedGrants.delete(id);
          else this.revokedGrants.add(id);
        } else if (kind === 'user') {
          if (deleted) this.userEpochs.delete(id);
          else this.userEpochs.set(id, Number(new TextDecoder().decode(entry.value)));
        } else if (kind === 'app') {
          if (deleted) this.blockedApps.delete(id);
          else this.blockedApps.add(id);
        }
      }
      this.logger.warn('revocation watch ended; restarting');
      this.synced = false;
      setTimeout(() => void this.watch().catch((err) => this.logger.error({ err }, 'revocation watch failed')), 500);
    })();
  }

  get ready(): boolean {
    return this.synced;
  }

  isRevoked(claims: Pick<AccessTokenClaims, 'jti' | 'sub' | 'ep' | 'gid'>): boolean {
    if (this.revokedJtis.has(claims.jti)) return true;
    if (claims.gid !== undefined && this.revokedGrants.has(claims.gid)) return true;
    if (claims.sub) {
      const epoch = this.userEpochs.get(claims.sub);
      if (epoch !== undefined && (claims.ep ?? 0) < epoch) return true;
    }
    return false;
  }

  isAppBlocked(clientId: string | undefined): boolean {
    return clientId !== undefined && this.blockedApps.has(clientId);
  }
}
