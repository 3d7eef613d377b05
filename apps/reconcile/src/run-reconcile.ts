import { reconcileMessage, ReconciledServices, ReconcileResponse, ServiceName } from '@plaza/contracts';
import { isNatsAuthError, natsAuth, natsAuthProblems, NatsSettings, redactNatsUrl, ServiceBus } from '@plaza/platform';
import { connect, NatsConnection } from 'nats';

export const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';

export interface ReconcileCommand {
  /** Command-line arguments after `npm run reconcile --`. */
  args: string[];
  env: NodeJS.ProcessEnv;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** How long reaching NATS may take (default 5 s), and how long each service may take to answer (default 10 min). */
  connectTimeoutMs?: number;
  serviceTimeoutMs?: number;
  /** Opens the NATS connection (tests replace it). */
  connect?: (settings: NatsSettings, timeoutMs: number) => Promise<NatsConnection>;
  /** Sends one service's request (tests replace it). */
  request?: (bus: ServiceBus, service: ServiceName, repair: boolean, timeoutMs: number) => Promise<ReconcileResponse>;
}

/** 0: nothing differed, or all of it was repaired; 1: something differs and was left so (a dry run, or a repair that could not be made); 2: NATS or a service could not be reached, or bad arguments. */
export type ExitCode = 0 | 1 | 2;

const USAGE = 'usage: npm run reconcile [-- [--dry-run] [--service note,event,book] [--json]]\n';

interface Options {
  repair: boolean;
  services: ServiceName[];
  json: boolean;
}

export function parseArgs(args: string[]): Options | string {
  const options: Options = { repair: true, services: [...ReconciledServices], json: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--dry-run') options.repair = false;
    else if (arg === '--json') options.json = true;
    else if (arg === '--service' || arg.startsWith('--service=')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[++i];
      const names = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      const unknown = names.filter((n) => !ReconciledServices.includes(n as ServiceName));
      if (names.length === 0 || unknown.length > 0) return `unknown service ${unknown.join(', ') || '(none given)'}; reconciled services: ${ReconciledServices.join(', ')}`;
      options.services = names as ServiceName[];
    } else return `unknown argument ${arg}`;
  }
  return options;
}

/** Its NATS settings, by the names the apps use: the reconcile user in NATS_USER and NATS_PASSWORD (or NATS_PASSWORD_FILE), or in NATS_URL. */
export function natsSettings(env: NodeJS.ProcessEnv): NatsSettings {
  const value = (name: string) => env[name] || undefined;
  return {
    NATS_URL: env.NATS_URL || DEFAULT_NATS_URL,
    NATS_USER: value('NATS_USER'),
    NATS_PASSWORD: value('NATS_PASSWORD'),
    NATS_PASSWORD_FILE: value('NATS_PASSWORD_FILE'),
    NATS_CREDENTIALS_FILE: value('NATS_CREDENTIALS_FILE'),
  };
}

async function connectToNats(settings: NatsSettings, timeoutMs: number): Promise<NatsConnection> {
  const auth = natsAuth(settings);
  const attempt = connect({ servers: auth.servers, ...auth.options, name: 'reconcile', waitOnFirstConnect: false, timeout: timeoutMs, maxReconnectAttempts: -1, reconnectTimeWait: 250, noAsyncTraces: true });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs + 500);
  });
  try {
    return await Promise.race([attempt, deadline]);
  } catch (err) {
    attempt.then((nc) => nc.close(), () => undefined).catch(() => undefined);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

const sendRequest = (bus: ServiceBus, service: ServiceName, repair: boolean, timeoutMs: number) =>
  bus.request(reconcileMessage(service), { repair }, { timeout: timeoutMs });

/** One service's answer as a few lines for a terminal or a CronJob's log. */
export function describe(r: ReconcileResponse, repair: boolean): string {
  const checked = Object.entries(r.checked).map(([k, n]) => `${k} ${n}`).join(', ');
  const driftKinds = Object.entries(r.drifted);
  const drifted = driftKinds.length === 0 ? 'nothing drifted' : `DRIFTED: ${driftKinds.map(([k, n]) => `${k} ${n}`).join(', ')}`;
  const repaired = driftKinds.length === 0 ? '' : repair ? `; repaired ${r.repaired}` : '; not repaired (dry run)';
  const journal = r.journal.entries > 0 ? `; journal: ${r.journal.entries} unfinished writes, ${r.journal.repaired} repaired` : '';
  const lines = [`${r.service}: checked ${checked}; ${drifted}${repaired}${journal}; ${r.busy} busy; ${r.ms} ms`];
  for (const d of r.samples.slice(0, 10)) lines.push(`  ${d.kind} ${d.id}: stored ${JSON.stringify(d.stored)}, source ${JSON.stringify(d.source)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * `npm run reconcile`: asks each service that keeps derived counters or aggregates (note, event,
 * book) to recompute them from their sources over NATS (`<service>.v1.reconcile.run`), prints what
 * drifted and whether it was repaired. The work runs in the services, under the same per-document
 * locks as their writes, so it is safe while traffic flows.
 */
export async function runReconcile(cmd: ReconcileCommand): Promise<ExitCode> {
  const options = parseArgs(cmd.args);
  if (typeof options === 'string') {
    cmd.stderr.write(`${options}\n${USAGE}`);
    return 2;
  }
  const settings = natsSettings(cmd.env);
  const natsUrl = redactNatsUrl(settings.NATS_URL);
  const problems = natsAuthProblems(settings);
  if (problems.length > 0) {
    cmd.stderr.write(`NATS settings: ${problems.join('; ')}\n`);
    return 2;
  }
  const connectTimeoutMs = cmd.connectTimeoutMs ?? 5000;
  let nc: NatsConnection;
  try {
    nc = await (cmd.connect ?? connectToNats)(settings, connectTimeoutMs);
  } catch (err) {
    const why = isNatsAuthError(err) ? 'it refused the credentials (Authorization Violation)' : (err as Error).message;
    cmd.stderr.write(`cannot reach NATS at ${natsUrl}${cmd.env.NATS_URL ? '' : ' (NATS_URL is not set, so the default)'}: ${why}\n`);
    return 2;
  }
  const bus = new ServiceBus(nc, cmd.serviceTimeoutMs ?? 600_000);
  let code: ExitCode = 0;
  const answers: ReconcileResponse[] = [];
  for (const service of options.services) {
    try {
      const r = await (cmd.request ?? sendRequest)(bus, service, options.repair, cmd.serviceTimeoutMs ?? 600_000);
      answers.push(r);
      if (!options.json) cmd.stdout.write(describe(r, options.repair));
      const drifted = Object.values(r.drifted).reduce((a, b) => a + b, 0);
      if (drifted > r.repaired && code === 0) code = 1;
    } catch (err) {
      cmd.stderr.write(`${service}: no answer on NATS at ${natsUrl}: ${(err as { detail?: string }).detail ?? (err as Error).message}\n`);
      code = 2;
    }
  }
  if (options.json) cmd.stdout.write(`${JSON.stringify(answers)}\n`);
  await nc.drain().catch(() => undefined);
  return code;
}
