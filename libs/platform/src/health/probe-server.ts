import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsText } from '../observability/metrics';

/** What one process answers on its probe listener. */
export interface ProbeAnswers {
  /** `/health`: the process is up. */
  health(): object;
  /** `/ready`: its dependencies answer; `ok` decides 200 or 503. */
  ready(): Promise<{ ok: boolean; body: object }>;
}

/**
 * The listener for the orchestrator's probes and Prometheus's scrapes (docs/OPERATING.md,
 * "Health and readiness"): `/health`, `/ready` and `/metrics` on node:http, apart from the
 * traffic a process serves. An area service serves no other HTTP, so it loads no web framework
 * for these three paths (fastify and its validators cost a service about 10 MiB of memory,
 * docs/PERFORMANCE.md, "Memory"); the gateway's admin listener is the same server.
 */
export async function startProbeServer(host: string, port: number, answers: ProbeAnswers): Promise<Server> {
  const server = createServer((req, res) => void answer(req, res, answers));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  // a probe's or a scrape's connection must never hold the process open at shutdown
  server.unref();
  return server;
}

export const probePortOf = (server: Server) => (server.address() as AddressInfo).port;

async function answer(req: IncomingMessage, res: ServerResponse, answers: ProbeAnswers): Promise<void> {
  const path = (req.url ?? '/').split('?', 1)[0];
  try {
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { status: 'method not allowed' });
    if (path === '/metrics') {
      const text = await metricsText();
      if (!text) return json(res, 404, { status: 'metrics are off (METRICS_ENABLED=false)' });
      res.writeHead(200, { 'content-type': text.contentType }).end(text.body);
      return;
    }
    if (path === '/health') return json(res, 200, answers.health());
    if (path === '/ready') {
      const { ok, body } = await answers.ready();
      return json(res, ok ? 200 : 503, body);
    }
    json(res, 404, { status: 'not found' });
  } catch (err) {
    json(res, 500, { status: 'error', error: (err as Error).message });
  }
}

function json(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}
