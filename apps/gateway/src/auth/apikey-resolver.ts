import { ApiError, AppSummary, IdentityMessages } from '@plaza/contracts';
import { lazyLru, ServiceBus } from '@plaza/platform';
import { RevocationList } from './revocation-list';

/**
 * `apikey` → the app behind it (its tier), cached for a minute so a public call costs no extra
 * hop; a block takes effect at once through the revocation list that every gateway mirrors.
 */
export class ApikeyResolver {
  private readonly cache = lazyLru<string, AppSummary | 'unknown'>(10_000, { ttl: 60_000 });

  constructor(
    private readonly bus: ServiceBus,
    private readonly revocations: RevocationList,
  ) {}

  async resolve(apikey: string): Promise<AppSummary> {
    let app = this.cache.get(apikey);
    if (!app) {
      try {
        app = await this.bus.request(IdentityMessages.resolveApikey, { apikey }, { timeout: 2000 });
      } catch (err) {
        if (err instanceof ApiError && err.code === 104) app = 'unknown';
        else throw err;
      }
      this.cache.set(apikey, app, app === 'unknown' ? { ttl: 5000 } : undefined);
    }
    if (app === 'unknown') throw new ApiError('invalid_apikey');
    if (app.blocked || this.revocations.isAppBlocked(apikey)) throw new ApiError('apikey_is_blocked');
    return app;
  }
}
