import { metricsText } from '@plaza/platform';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { allUp, GatewayReadiness } from './gateway-readiness';

/**
 * The gateway's admin listener (`ADMIN_HOST`:`ADMIN_PORT`, loopback by default): Prometheus's
 * `/metrics`, and `/health` and `/ready` for the orchestrator's probes, where `/ready` is the
 * gateway's own readiness, not the areas' (gateway-readiness.ts). Never on the public port: what
 * a scrape shows (routes, error rates, cache sizes) is for operators.
 */
export async function startAdminServer(host: string, port: number, readiness: GatewayReadiness): Promise<Server> {
  const server = createServer((req, res) => void answer(req, res, readiness));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  // a probe's or a scrape's connection must never hold the gateway open at shutdown
  server.unref();
  return server;
}

export const adminPortOf = (server: Server) => (server.address() as AddressInfo).port;

async function answer(req: IncomingMessage, res: ServerResponse, readiness: GatewayReadiness): Promise<void> {
  const path = (req.url ?? '/').split('?', 1)[0];
  try {
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { status: 'method not allowed' });
    if (path === '/metrics') {
      const text = await metricsText();
      if (!text) return json(res, 404, { status: 'metrics are off (METRICS_ENABLED=false)' });
      res.writeHead(200, { 'content-type': text.contentType }).end(text.body);
      return;
    }
    if (path === '/health') return json(res, 200, { status: 'ok', service: 'gateway', uptime: Math.round(process.uptime()) });
    if (path === '/ready') {
      const checks = await readiness.own();
      const ok = allUp(checks);
      return json(res, ok ? 200 : 503, { status: ok ? 'ok' : 'unavailable', service: 'gateway', checks });
    }
    json(res, 404, { status: 'not found' });
  } catch (err) {
    json(res, 500, { status: 'error', error: (err as Error).message });
  }
}

function json(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}
