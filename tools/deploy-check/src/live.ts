import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureNatsServer, freePort, Log, ManagedProcess, NATS_USERS, natsPasswordVariable, newNatsPassword, portAcceptsConnections, Stack, waitFor } from '@plaza/stack';
import type { ProbeTarget } from './checks';

export interface ProbeResult {
  target: ProbeTarget;
  url: string;
  status: number | string;
  /** The answer's text, for metrics targets (the exposition). */
  body?: string;
}

async function get(url: string): Promise<{ status: number | string; body?: string }> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    return { status: res.status, body: await res.text() };
  } catch (err) {
    return { status: (err as Error).message };
  }
}

export interface ShutdownResult {
  app: string;
  exitCode: number | null;
  ms: number;
}

/**
 * Starts the real apps (tools/stack: the processes `npm start` and the e2e tests run) and asks
 * every probe and metrics endpoint the manifests and the compose file declare, on the port the
 * stack gave that app: the gateway's go to its HTTP port, or to its admin port when they name
 * `adminPort` (the container's ADMIN_PORT); a service's to its health port. Then stops each app
 * with SIGTERM, as Kubernetes and compose do, and records its exit code and how long it took.
 */
export async function probeRealApps(targets: ProbeTarget[], log: Log, adminPort: number): Promise<{ probes: ProbeResult[]; shutdowns: ShutdownResult[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'plaza-deploy-check-'));
  let stack: Stack | undefined;
  try {
    stack = await Stack.start({ dataDir, log, readyTimeoutMs: 90_000 });
    const probes: ProbeResult[] = [];
    for (const target of targets) {
      const gatewayPort = target.port === adminPort ? Number(new URL(stack.adminUrl).port) : stack.gatewayPort;
      const port = target.app === 'gateway' ? gatewayPort : stack.healthPort(target.app);
      if (!port) {
        probes.push({ target, url: '-', status: `the stack has no app ${target.app}` });
        continue;
      }
      const url = `http://127.0.0.1:${port}${target.path}`;
      const { status, body } = await get(url);
      probes.push({ target, url, status, body: target.kind === 'metrics' ? body : undefined });
    }
    const shutdowns: ShutdownResult[] = [];
    const order = ['gateway', ...[...stack.apps.keys()].filter((n) => n !== 'gateway')];
    for (const name of order) {
      const proc = stack.apps.get(name);
      if (!proc) continue;
      const t = Date.now();
      const exitCode = await proc.stop(30_000);
      shutdowns.push({ app: name, exitCode, ms: Date.now() - t });
    }
    return { probes, shutdowns };
  } finally {
    await stack?.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The NATS StatefulSet's probes against a real nats-server run the way the manifest runs it
 * (JetStream on, monitoring port on): a probe path NATS does not serve fails here.
 */
export async function probeNats(paths: string[], log: Log): Promise<ProbeResult[]> {
  const binary = ensureNatsServer(log);
  const dir = mkdtempSync(join(tmpdir(), 'plaza-deploy-check-nats-'));
  const [port, monitor] = [await freePort(), await freePort()];
  const proc = new ManagedProcess('nats', {
    command: binary,
    args: ['--jetstream', '--store_dir', dir, '-a', '127.0.0.1', '-p', String(port), '--http_port', String(monitor)],
    logFile: join(dir, 'nats.log'),
  }).start();
  try {
    await waitFor(`nats-server monitoring on ${monitor}`, () => portAcceptsConnections(monitor), 30_000, () => (proc.running ? undefined : proc.tail()));
    const results: ProbeResult[] = [];
    for (const path of paths) {
      const url = `http://127.0.0.1:${monitor}${path}`;
      results.push({ target: { app: 'nats', kind: 'readiness', path, port: 8222 }, url, status: (await get(url)).status });
    }
    return results;
  } finally {
    await proc.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * nats-server's own check (`-t`) of each configuration file, with what the deployments give it in
 * its environment: every user's password (as the compose and Kubernetes environments do; a
 * missing one fails) and the pod name Kubernetes' file uses.
 */
export function testNatsConfigs(files: string[], log: Log): string[] {
  const binary = ensureNatsServer(log);
  const env: NodeJS.ProcessEnv = { ...process.env, POD_NAME: 'nats-0' };
  for (const user of NATS_USERS) env[natsPasswordVariable(user)] = newNatsPassword();
  return files.flatMap((file) => {
    const result = spawnSync(binary, ['-c', file, '-t'], { env, encoding: 'utf8' });
    return result.status === 0 ? [] : [`nats-server -t ${file}: ${(result.stderr || result.stdout).trim()}`];
  });
}
