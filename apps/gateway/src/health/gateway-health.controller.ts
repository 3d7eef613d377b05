import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { pingMessage, ServiceNames } from '@plaza/contracts';
import { isNatsConnected, NATS_CONNECTION, ServiceBus } from '@plaza/platform';
import type { FastifyReply } from 'fastify';
import type { NatsConnection } from 'nats';
import { RevocationList } from '../auth/revocation-list';
import { TokenVerifier } from '../auth/token-verifier';
import { registerExtraRoute } from '../endpoints/route-patterns';
import { RateLimiter } from '../rate-limit/rate-limiter';

registerExtraRoute('GET', '/health');
registerExtraRoute('GET', '/ready');

let shuttingDown = false;
export const markGatewayShuttingDown = () => (shuttingDown = true);

/**
 * `/health`: the process is up. `/ready` (CONTRACT.md section 1): NATS is connected, the token
 * keys and revocations are loaded, and every service answers a ping with its database up.
 */
@ApiExcludeController()
@Controller()
export class GatewayHealthController {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(ServiceBus) private readonly bus: ServiceBus,
    @Inject(TokenVerifier) private readonly tokens: TokenVerifier,
    @Inject(RevocationList) private readonly revocations: RevocationList,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
  ) {}

  @Get('health')
  health() {
    return { status: 'ok', service: 'gateway', uptime: Math.round(process.uptime()) };
  }

  @Get('ready')
  async ready(@Res() reply: FastifyReply) {
    const checks: Record<string, 'up' | 'down'> = {
      nats: isNatsConnected(this.nats) ? 'up' : 'down',
      token_keys: this.tokens.ready ? 'up' : 'down',
      revocations: this.revocations.ready ? 'up' : 'down',
      rate_limits: this.limiter.ready ? 'up' : 'down',
    };
    if (shuttingDown) checks.shutdown = 'down';
    if (!this.tokens.ready) await this.tokens.refreshKeys().catch(() => undefined);
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
    for (const [service, status] of pings) checks[service] = status;
    const ok = Object.values(checks).every((s) => s === 'up');
    await reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', service: 'gateway', checks });
  }
}
