import { Inject, Injectable } from '@nestjs/common';
import { pingMessage, ServiceNames } from '@plaza/contracts';
import { isNatsConnected, NATS_CONNECTION, ServiceBus } from '@plaza/platform';
import type { NatsConnection } from 'nats';
import { RevocationList } from '../auth/revocation-list';
import { TokenVerifier } from '../auth/token-verifier';
import { RateLimiter } from '../rate-limit/rate-limiter';

export type Checks = Record<string, 'up' | 'down'>;

let shuttingDown = false;
export const markGatewayShuttingDown = () => (shuttingDown = true);

export const allUp = (checks: Checks) => Object.values(checks).every((s) => s === 'up');

/**
 * Two readinesses (docs/OPERATING.md, "One area down"):
 * - the gateway's own — NATS connected, token keys, revocations and rate-limit bucket loaded, not
 *   draining — which Kubernetes and compose probe: a gateway that has them serves every area that
 *   is up, so one area's outage must not take it out of its Service;
 * - the whole stack's (the public `/ready` of docs/CONFIGURATION.md, "Where it listens, and health"), which adds a ping of every service,
 *   for scripts that wait until everything answers.
 */
@Injectable()
export class GatewayReadiness {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(ServiceBus) private readonly bus: ServiceBus,
    @Inject(TokenVerifier) private readonly tokens: TokenVerifier,
    @Inject(RevocationList) private readonly revocations: RevocationList,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
  ) {}

  async own(): Promise<Checks> {
    if (!this.tokens.ready) await this.tokens.refreshKeys().catch(() => undefined);
    const checks: Checks = {
      nats: isNatsConnected(this.nats) ? 'up' : 'down',
      token_keys: this.tokens.ready ? 'up' : 'down',
      revocations: this.revocations.ready ? 'up' : 'down',
      rate_limits: this.limiter.ready ? 'up' : 'down',
    };
    if (shuttingDown) checks.shutdown = 'down';
    return checks;
  }

  async areas(): Promise<Checks> {
    const pings = await Promise.all(
      ServiceNames.map(async (service) => {
        try {
          const answer = await this.bus.request(pingMessage(service), {}, { timeout: 1000 });
          return [service, answer.ready ? 'up' : 'down'] as const;
        } catch {
          return [service, 'down'] as const;
        }
      }),
    );
    return Object.fromEntries(pings);
  }
}
