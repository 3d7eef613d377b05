import { connect, ConnectionOptions, credsAuthenticator, DebugEvents, ErrorCode, Events, NatsConnection, NatsError } from 'nats';
import { existsSync, readFileSync } from 'node:fs';
import { ValidateBy, ValidationOptions } from 'class-validator';
import type { Logger } from 'pino';
import { natsInboxPrefix } from '@plaza/contracts';

export const NATS_CONNECTION = Symbol('NATS_CONNECTION');

/**
 * Where NATS is and who this process is on it (BaseConfig's names). NATS checks the credentials
 * and allows each user only its own subjects (docs/DECISIONS.md, "NATS"; the table: tools/stack/src/nats-auth.ts).
 * Credentials come one way: a user with a password (`NATS_USER` with `NATS_PASSWORD`, or
 * `NATS_PASSWORD_FILE` for a mounted secret), a NATS credentials file (`NATS_CREDENTIALS_FILE`:
 * a NATS run in operator mode), or in the URL (`nats://user:password@host:4222`, or
 * `nats://token@host:4222`). None: a NATS without authentication.
 */
export interface NatsSettings {
  NATS_URL: string;
  NATS_USER?: string;
  NATS_PASSWORD?: string;
  NATS_PASSWORD_FILE?: string;
  NATS_CREDENTIALS_FILE?: string;
}

interface UrlCredentials {
  user?: string;
  pass?: string;
  token?: string;
}

const SERVER = /^(?:(?<scheme>[A-Za-z][A-Za-z0-9+.-]*):\/\/)?(?:(?<userinfo>[^@/]*)@)?(?<rest>.*)$/;

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The servers of a NATS_URL (comma-separated), each without its credentials, and the credentials they named. */
export function parseNatsUrl(url: string): { servers: string[]; credentials?: UrlCredentials; conflicting: boolean } {
  const servers: string[] = [];
  const found: string[] = [];
  let credentials: UrlCredentials | undefined;
  for (const entry of url.split(',').map((s) => s.trim()).filter(Boolean)) {
    const { scheme, userinfo, rest } = SERVER.exec(entry)?.groups ?? { rest: entry };
    servers.push(scheme ? `${scheme}://${rest}` : rest);
    if (userinfo === undefined || userinfo === '') continue;
    found.push(userinfo);
    const colon = userinfo.indexOf(':');
    credentials ??= colon < 0 ? { token: decode(userinfo) } : { user: decode(userinfo.slice(0, colon)), pass: decode(userinfo.slice(colon + 1)) };
  }
  return { servers, credentials, conflicting: new Set(found).size > 1 };
}

/** The URL as logs and messages may show it: a password or token becomes `***`. */
export function redactNatsUrl(url: string): string {
  return url
    .split(',')
    .map((entry) =>
      entry.replace(/^((?:[A-Za-z][A-Za-z0-9+.-]*:\/\/)?)([^@/]*)@/, (_, scheme: string, userinfo: string) => {
        const colon = userinfo.indexOf(':');
        return `${scheme}${colon < 0 ? '***' : `${userinfo.slice(0, colon)}:***`}@`;
      }),
    )
    .join(',');
}

const set = (value: string | undefined): value is string => value !== undefined && value !== '';

/** What is wrong with the credentials settings; empty when they are usable. */
export function natsAuthProblems(settings: NatsSettings): string[] {
  const problems: string[] = [];
  const url = parseNatsUrl(settings.NATS_URL ?? '');
  if (url.conflicting) problems.push('NATS_URL names different credentials for its servers');
  if (set(settings.NATS_PASSWORD) && set(settings.NATS_PASSWORD_FILE)) problems.push('set NATS_PASSWORD or NATS_PASSWORD_FILE, not both');
  const hasPassword = set(settings.NATS_PASSWORD) || set(settings.NATS_PASSWORD_FILE);
  if (hasPassword && !set(settings.NATS_USER)) problems.push('NATS_PASSWORD and NATS_PASSWORD_FILE need NATS_USER');
  if (set(settings.NATS_USER) && !hasPassword) problems.push('NATS_USER needs NATS_PASSWORD or NATS_PASSWORD_FILE');
  const ways = [url.credentials !== undefined, set(settings.NATS_USER), set(settings.NATS_CREDENTIALS_FILE)].filter(Boolean).length;
  if (ways > 1) problems.push('give the NATS credentials one way: in NATS_URL, as NATS_USER with NATS_PASSWORD (or NATS_PASSWORD_FILE), or as NATS_CREDENTIALS_FILE');
  if (set(settings.NATS_USER) && !/^[^\s:@/,]+$/.test(settings.NATS_USER)) problems.push('NATS_USER must be one word without ":", "@", "/" or ","');
  for (const name of ['NATS_PASSWORD_FILE', 'NATS_CREDENTIALS_FILE'] as const) {
    const file = settings[name];
    if (set(file) && !existsSync(file)) problems.push(`${name}: no file ${file}`);
  }
  return problems;
}

/** Class-validator rule for BaseConfig: the credentials settings together are usable (natsAuthProblems). */
export function IsUsableNatsAuth(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isUsableNatsAuth',
      validator: {
        validate: (_value, args) => natsAuthProblems(args?.object as NatsSettings).length === 0,
        defaultMessage: (args) => natsAuthProblems(args?.object as NatsSettings).join('; '),
      },
    },
    options,
  );
}

export interface NatsAuth {
  servers: string[];
  options: Pick<ConnectionOptions, 'user' | 'pass' | 'token' | 'authenticator' | 'inboxPrefix'>;
  /** Who connects, for messages: `user book`, `a credentials file`, `no credentials`. */
  who: string;
}

/** The servers and the nats.js authentication options of the settings (natsAuthProblems must be empty). */
export function natsAuth(settings: NatsSettings): NatsAuth {
  const problems = natsAuthProblems(settings);
  if (problems.length > 0) throw new Error(`NATS credentials: ${problems.join('; ')}`);
  const { servers, credentials } = parseNatsUrl(settings.NATS_URL);
  if (set(settings.NATS_USER)) {
    const pass = set(settings.NATS_PASSWORD) ? settings.NATS_PASSWORD : readFileSync(settings.NATS_PASSWORD_FILE!, 'utf8').trim();
    return { servers, options: { user: settings.NATS_USER, pass, inboxPrefix: natsInboxPrefix(settings.NATS_USER) }, who: `user ${settings.NATS_USER}` };
  }
  if (set(settings.NATS_CREDENTIALS_FILE)) {
    return { servers, options: { authenticator: credsAuthenticator(readFileSync(settings.NATS_CREDENTIALS_FILE)) }, who: `the credentials in ${settings.NATS_CREDENTIALS_FILE}` };
  }
  if (credentials?.token !== undefined) return { servers, options: { token: credentials.token }, who: 'the token in NATS_URL' };
  if (credentials) {
    const inbox = credentials.user ? { inboxPrefix: natsInboxPrefix(credentials.user) } : {};
    return { servers, options: { user: credentials.user, pass: credentials.pass, ...inbox }, who: `user ${credentials.user}` };
  }
  return { servers, options: {}, who: 'no credentials' };
}

/** The server refused the credentials (or their absence), as opposed to being unreachable. */
export function isNatsAuthError(err: unknown): boolean {
  return err instanceof NatsError ? err.isAuthError() : (err as { code?: string })?.code === ErrorCode.AuthorizationViolation;
}

/**
 * One connection per process, reconnecting for ever: a restarted NATS server must never need an
 * operator to restart the services. Requests made while disconnected fail fast (the caller's
 * timeout) instead of queueing without bound.
 *
 * Refused credentials end the process: at start-up with a message naming the user (a wrong or
 * missing password must not look like a slow start), and later when NATS refuses them twice in a
 * row (nats.js then stops reconnecting), so the orchestrator restarts it with the current secret.
 */
export async function connectNats(settings: NatsSettings, name: string, logger: Logger): Promise<NatsConnection> {
  const auth = natsAuth(settings);
  let nc: NatsConnection;
  try {
    nc = await connect({
      servers: auth.servers,
      ...auth.options,
      name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      reconnectJitter: 100,
      waitOnFirstConnect: true,
      pingInterval: 10_000,
      // nats.js otherwise captures a stack trace (an Error) for every request, in case it times out
      noAsyncTraces: true,
      maxPingOut: 3,
    });
  } catch (err) {
    if (isNatsAuthError(err)) {
      const message = `NATS at ${auth.servers.join(',')} refused ${auth.who} (${(err as Error).message.replace(/^'|'$/g, '')}): check NATS_USER and NATS_PASSWORD`;
      logger.fatal(message);
      throw new Error(message);
    }
    throw err;
  }
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === Events.Disconnect) logger.warn({ nats: status.data }, 'nats disconnected');
      else if (status.type === Events.Reconnect) logger.info({ nats: status.data }, 'nats reconnected');
      else if (status.type === Events.Error && status.permissionContext) {
        // a subject this process's NATS user may not use (tools/stack/src/nats-auth.ts)
        logger.error({ nats: String(status.data), permission: status.permissionContext }, 'nats permissions violation');
      } else if (status.type === Events.Error) logger.error({ nats: String(status.data) }, 'nats error');
      else if (status.type === DebugEvents.Reconnecting) logger.debug('nats reconnecting');
    }
  })();
  void nc.closed().then((err) => {
    if (!err || !isNatsAuthError(err)) return;
    logger.fatal({ nats: err.message, who: auth.who }, 'NATS refuses this process\'s credentials; exiting so that it restarts with the current ones');
    logger.flush?.();
    process.exit(1);
  });
  logger.info({ server: nc.getServer(), auth: auth.who }, 'nats connected');
  return nc;
}

/** True when the connection is up (not closed, not between reconnect attempts). */
export function isNatsConnected(nc: NatsConnection | undefined): boolean {
  if (!nc || nc.isClosed() || nc.isDraining()) return false;
  // nats.js has no public "connected" flag; a server info is present only while connected
  return (nc as unknown as { protocol?: { connected?: boolean } }).protocol?.connected !== false;
}
