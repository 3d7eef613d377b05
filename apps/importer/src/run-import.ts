import { pingMessage, ServiceName } from '@plaza/contracts';
import { isNatsAuthError, natsAuth, natsAuthProblems, NatsSettings, parseNatsUrl, ServiceBus } from '@plaza/platform';
import { connect, Events, NatsConnection } from 'nats';
import { existsSync } from 'node:fs';
import { PictureStore } from '@plaza/pictures';
import { ImportPlan, loadPlan, planImport } from './import-file';
import { storeArchivePictures } from './read-archive';
import { Progress, ProgressOptions, ProgressOutput } from './progress';

export const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';

export interface ImportCommand {
  /** The file to import (`npm run import -- FILE`). */
  file: string | undefined;
  env: NodeJS.ProcessEnv;
  /** Counts, progress and the summary. */
  stdout: ProgressOutput;
  /** Bad lines and failures. */
  stderr: { write(text: string): unknown };
  /** How long reaching NATS, and then each service, may take before the import gives up (default 5 s each). */
  connectTimeoutMs?: number;
  serviceTimeoutMs?: number;
  progress?: ProgressOptions;
  /** Opens the NATS connection (tests replace it). */
  connect?: (settings: NatsSettings, timeoutMs: number) => Promise<NatsConnection>;
}

/** Exit codes: 0 all loaded, 1 some lines failed, 2 nothing could be done (no file, NATS or a service unreachable). */
export type ExitCode = 0 | 1 | 2;

/**
 * Connects once, failing within about `timeoutMs` when no server answers (nats.js would otherwise
 * wait for a first connection forever); once connected it reconnects after a drop as the apps do.
 * Credentials as the apps take them (libs/platform/src/nats/nats-connection.ts): the importer's
 * NATS user in NATS_USER and NATS_PASSWORD (or NATS_PASSWORD_FILE), or in NATS_URL.
 */
export async function connectToNats(settings: NatsSettings, timeoutMs: number): Promise<NatsConnection> {
  const auth = natsAuth(settings);
  const attempt = connect({
    servers: auth.servers,
    ...auth.options,
    name: 'importer',
    waitOnFirstConnect: false,
    timeout: timeoutMs,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    reconnectJitter: 100,
    pingInterval: 10_000,
    maxPingOut: 3,
    noAsyncTraces: true,
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs + 500);
  });
  try {
    return await Promise.race([attempt, deadline]);
  } catch (err) {
    // a connection that comes after the deadline is closed at once
    attempt.then((nc) => nc.close(), () => undefined).catch(() => undefined);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** nats.js reports a failed first connection by its code alone. */
function describeConnectError(err: unknown, timeoutMs: number): string {
  const code = (err as { code?: string }).code ?? (err as Error).message;
  if (code === 'CONNECTION_REFUSED') return 'connection refused (nothing listens there)';
  if (isNatsAuthError(err)) return 'it refused the credentials (Authorization Violation)';
  if (code === 'TIMEOUT') return `no NATS answer within ${Math.round(timeoutMs / 1000)} s`;
  return (err as Error).message;
}

function whereFrom(env: NodeJS.ProcessEnv): string {
  return env.NATS_URL ? 'from NATS_URL' : `NATS_URL is not set, so the default ${DEFAULT_NATS_URL}`;
}

/** The importer's NATS settings, by the names the apps use. */
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

const CREDENTIALS_HINT =
  'The stack\'s NATS lets each process in with its own user: the importer needs the importer\'s (NATS_USER=importer and NATS_PASSWORD, ' +
  'or NATS_URL=nats://importer:PASSWORD@HOST:PORT; `npm start` passes them to its demo import, deploy/README.md says where they are kept).\n';

/** Asks each service the file needs whether it is there (`<service>.v1.health.ping`); returns the ones that do not answer. */
export async function missingServices(bus: Pick<ServiceBus, 'request'>, services: ServiceName[], timeoutMs: number): Promise<Array<{ service: ServiceName; reason: string }>> {
  const answers = await Promise.all(
    services.map(async (service) => {
      try {
        await bus.request(pingMessage(service), {}, { timeout: timeoutMs });
        return undefined;
      } catch (err) {
        return { service, reason: (err as { detail?: string }).detail ?? (err as Error).message };
      }
    }),
  );
  return answers.filter((a): a is { service: ServiceName; reason: string } => a !== undefined);
}

/**
 * `npm run import -- FILE` (docs/api/import.md): prints a count per kind and every bad line
 * with its number; exits 1 if any line failed, 2 if the file, NATS or a service cannot be reached.
 * Says within seconds when NATS or a service does not answer, naming the address it tried.
 */
export async function runImport(cmd: ImportCommand): Promise<ExitCode> {
  const { file, env, stdout, stderr } = cmd;
  if (!file || !existsSync(file)) {
    stderr.write(`usage: npm run import -- FILE.ndjson${file ? ` (no such file: ${file})` : ''}\n`);
    return 2;
  }
  const settings = natsSettings(env);
  // shown without its credentials
  const natsUrl = parseNatsUrl(settings.NATS_URL).servers.join(',');
  const problems = natsAuthProblems(settings);
  if (problems.length > 0) {
    stderr.write(`NATS credentials: ${problems.join('; ')}\n`);
    return 2;
  }
  const connectTimeoutMs = cmd.connectTimeoutMs ?? 5000;
  let nc: NatsConnection;
  try {
    nc = await (cmd.connect ?? connectToNats)(settings, connectTimeoutMs);
  } catch (err) {
    const who = isNatsAuthError(err) ? ` as ${natsAuth(settings).who}` : '';
    stderr.write(
      `cannot reach NATS at ${natsUrl}${who} (${whereFrom(env)}): ${describeConnectError(err, connectTimeoutMs)}\n` +
        (isNatsAuthError(err)
          ? CREDENTIALS_HINT
          : 'Is the stack running? Start it with `npm start`, or point the importer at the NATS server of a running stack: NATS_URL=nats://HOST:PORT npm run import -- FILE\n'),
    );
    return 2;
  }
  let progress: Progress | undefined;
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === Events.Disconnect) {
        progress?.clear();
        stderr.write(`lost the connection to NATS at ${natsUrl}; reconnecting...\n`);
      } else if (status.type === Events.Error && status.permissionContext) {
        // a request NATS does not let this user make would otherwise only time out
        progress?.clear();
        const { operation, subject } = status.permissionContext;
        stderr.write(`NATS at ${natsUrl} refused to let this user ${operation === 'publish' ? 'publish to' : 'subscribe to'} ${subject} (permissions violation). ${CREDENTIALS_HINT}`);
      }
    }
  })().catch(() => undefined);
  const bus = new ServiceBus(nc, 120_000);
  try {
    const plan: ImportPlan = await planImport(file);
    const services = [...plan.byService.keys()];
    const missing = await missingServices(bus, services, cmd.serviceTimeoutMs ?? 5000);
    if (missing.length > 0) {
      for (const m of missing) stderr.write(`the ${m.service} service does not answer on NATS at ${natsUrl}: ${m.reason}\n`);
      stderr.write('Is every service of the stack running (`npm start` runs them all)? NATS_URL must name the NATS server of that stack.\n');
      await nc.close();
      return 2;
    }
    if (plan.pictures?.size) {
      stdout.write(`storing the archive's ${plan.pictures.size} pictures\n`);
      plan.problems.push(...(await storeArchivePictures([...plan.byService.values()].flat(), plan.pictures, new PictureStore(nc))));
    }
    stdout.write(`importing ${plan.total.toLocaleString('en-US')} records from ${file} through NATS at ${natsUrl}\n`);
    progress = new Progress(stdout, plan.total, cmd.progress);
    const shown = progress;
    const summary = await loadPlan(plan, bus, (done, failed) => shown.update(done, failed));
    progress.finish();
    for (const [kind, count] of Object.entries(summary.loaded)) stdout.write(`${kind}\t${count}\n`);
    for (const p of summary.problems) stderr.write(`line ${p.line}: ${p.error}\n`);
    const total = Object.values(summary.loaded).reduce((a, b) => a + b, 0);
    stdout.write(`loaded ${total} records; ${summary.problems.length} failed\n`);
    await nc.drain();
    return summary.problems.length > 0 ? 1 : 0;
  } catch (err) {
    progress?.clear();
    stderr.write(`import failed (NATS at ${natsUrl}): ${(err as Error).message}\n`);
    await nc.close();
    return 2;
  }
}
