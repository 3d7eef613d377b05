import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { registerExtraRoute } from '../endpoints/route-patterns';
import { allUp, GatewayReadiness } from './gateway-readiness';

registerExtraRoute('GET', '/health');
registerExtraRoute('GET', '/ready');

/**
 * `/health`: the process is up. `/ready` (docs/OPERATING.md, "One area down"): NATS is connected, the
 * token keys and revocations are loaded, and every service answers a ping with its database up:
 * for scripts that wait for the whole stack. Probes use the admin listener's `/ready` instead
 * (admin-server.ts), which leaves the areas out.
 */
@ApiExcludeController()
@Controller()
export class GatewayHealthController {
  constructor(@Inject(GatewayReadiness) private readonly readiness: GatewayReadiness) {}

  @Get('health')
  health() {
    return { status: 'ok', service: 'gateway', uptime: Math.round(process.uptime()) };
  }

  @Get('ready')
  async ready(@Res() reply: FastifyReply) {
    const [own, areas] = await Promise.all([this.readiness.own(), this.readiness.areas()]);
    const checks = { ...own, ...areas };
    const ok = allUp(checks);
    await reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', service: 'gateway', checks });
  }
}
