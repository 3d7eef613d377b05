import { probePortOf, startProbeServer } from '@plaza/platform';
import type { Server } from 'node:http';
import { allUp, GatewayReadiness } from './gateway-readiness';

/**
 * The gateway's admin listener (`ADMIN_HOST`:`ADMIN_PORT`, loopback by default): Prometheus's
 * `/metrics`, and `/health` and `/ready` for the orchestrator's probes, where `/ready` is the
 * gateway's own readiness, not the areas' (gateway-readiness.ts). Never on the public port: what
 * a scrape shows (routes, error rates, cache sizes) is for operators.
 */
export function startAdminServer(host: string, port: number, readiness: GatewayReadiness): Promise<Server> {
  return startProbeServer(host, port, {
    health: () => ({ status: 'ok', service: 'gateway', uptime: Math.round(process.uptime()) }),
    ready: async () => {
      const checks = await readiness.own();
      const ok = allUp(checks);
      return { ok, body: { status: ok ? 'ok' : 'unavailable', service: 'gateway', checks } };
    },
  });
}

export const adminPortOf = probePortOf;
