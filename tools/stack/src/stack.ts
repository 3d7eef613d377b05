import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { engineAnswers, EngineProtocol } from './engine-handshake';
import { DatabaseEngine, EngineBinaries, installEngines, Log, readEngineVersion } from './engines';
import { NATS_USERS, natsPasswordVariable, NatsUser, newNatsPassword } from './nats-auth';
import { workspaceRoot } from './paths';
import { allOrAbort, freePort, httpStatus, InterruptedError, ManagedProcess, waitFor } from './processes';

export const SERVICES = ['identity', 'book', 'movie', 'note', 'event'] as const;
export type ServiceApp = (typeof SERVICES)[number];
export type AppName = ServiceApp | 'gateway';

/**
 * V8 flags every app runs with, here and in every deployment (deploy/docker/Dockerfile's CMD;
 * deploy-check holds them there). No allocation-site pretenuring: once requests waited on NATS
 * long enough to outlive a scavenge, V8 decided Node's per-request objects were long-lived and
 * allocated every later request's straight into the old generation, whose collection then
 * stalled the gateway every few seconds (docs/PERFORMANCE.md, "Pretenuring").
 */
export const APP_V8_FLAGS = ['--no-allocation-site-pretenuring'];

/** The embedded FerretDB's soft memory limit (Go's `GOMEMLIMIT`); a `GOMEMLIMIT` in the environment replaces it. */
const FERRETDB_MEMORY_LIMIT = '64MiB';

/**
 * Plus, on one machine, one V8 helper thread per process (Node's default is four): seven
 * processes share the machine's cores anyway, and each idle thread costs about 2 MiB of RSS
 * (measured: 11 MiB over the stack).
 */
const V8_FLAGS = ['--v8-pool-size=1', ...APP_V8_FLAGS];

/**
 * The gateway's heap bound, as its pods set it (`NODE_OPTIONS` in deploy/k8s/base/gateway/config.env
 * and docker-compose.yml): the gateway lets its old generation grow to three times its live heap,
 * and V8 keeps that limit below halfway to this maximum (docs/PERFORMANCE.md, "The gateway's old
 * generation").
 */
export const GATEWAY_V8_FLAGS = ['--max-old-space-size=256'];

export interface StackOptions {
  /** Engine data, keys and logs live here. */
  dataDir: string;
  /** Gateway port; 0 picks a free one. */
  gatewayPort?: number;
  gatewayHost?: string;
  /** The gateway's admin port (`/metrics`, its own readiness); 0 or unset picks a free one. */
  adminPort?: number;
  /** Ports for the local engines and health servers; 0 (the default) picks free ones. */
  natsPort?: number;
  mongoPort?: number;
  /** Use these engines instead of starting local ones. */
  mongoUrl?: string;
  natsUrl?: string;
  /** Extra environment for every app, and per app. */
  env?: Record<string, string>;
  appEnv?: Partial<Record<AppName, Record<string, string>>>;
  /** Extra Node flags per app (for example `--cpu-prof` to profile one of them). */
  nodeArgs?: Partial<Record<AppName, string[]>>;
  /** How many instances of each service to run (default 1). */
  instances?: Partial<Record<ServiceApp, number>>;
  log?: Log;
  readyTimeoutMs?: number;
  /** How long each local engine may take to accept connections once started (default 30 s); installs come before and do not count. */
  engineTimeoutMs?: number;
  /**
   * Aborting it (Ctrl-C during start-up) ends the start: installs are killed, everything started
   * so far is stopped, and `Stack.start` rejects with an InterruptedError.
   */
  signal?: AbortSignal;
  /** The script each app runs: `apps/<app>/dist/main.js` unless given (the unit tests run small fakes). */
  entryPoint?: (app: AppName) => string;
}

interface EngineProcess {
  process: ManagedProcess;
  port: number;
  version: string;
  kind: string;
}

/**
 * How many times an app is started again on new ports when a port the stack chose for it was
 * taken before the app could listen on it (see Stack.againIfPortTaken).
 */
const PORT_TAKEN_RETRIES = 3;

/** secrets.json of a data folder. */
interface LocalSecrets {
  PICTURE_SIGNING_KEY: string;
  /** Each NATS user's password. */
  nats: Record<NatsUser, string>;
}

/** One step of start-up, for the log and for tests of the order. */
export type StartStep = 'install' | 'engines' | 'services' | 'gateway' | 'ready';

/**
 * The whole system as separate processes: the engines (unless external ones are given), every
 * service and the gateway. `npm start`, the e2e tests and the benchmark all use this one class,
 * so what the tests exercise is what operators run.
 */
export class Stack {
  readonly apps = new Map<string, ManagedProcess>();
  readonly extraGateways: Array<{ process: ManagedProcess; baseUrl: string; adminUrl: string }> = [];
  mongo?: EngineProcess;
  nats?: EngineProcess;
  mongoUrl!: string;
  /**
   * The NATS address for clients outside the stack (the importer, tests, the benchmark): with the
   * importer's credentials in it when the stack runs its own NATS (`nats://importer:…@127.0.0.1:…`),
   * so `NATS_URL=$natsUrl npm run import -- FILE` loads into it. Another role's address:
   * `natsUrlAs(user)`; the bare address: `natsServerUrl`.
   */
  natsUrl!: string;
  /** The NATS address without credentials (the apps get theirs in NATS_USER and NATS_PASSWORD). */
  natsServerUrl!: string;
  baseUrl!: string;
  gatewayPort!: number;
  /** The gateway's admin listener (`/metrics`, its own `/ready`), never the public port. */
  adminUrl!: string;
  /** The steps start-up went through, in order (what the unit tests check). */
  readonly steps: StartStep[] = [];
  private secrets!: LocalSecrets;
  /** Apps being started again on new ports: their exit is not a failure of start-up. */
  private readonly restarting = new Set<string>();
  private stopping = false;
  private binaries: EngineBinaries = {};
  private readonly log: Log;

  private constructor(readonly options: StackOptions) {
    this.log = options.log ?? (() => undefined);
  }

  static async start(options: StackOptions): Promise<Stack> {
    const stack = new Stack(options);
    try {
      await stack.boot();
    } catch (err) {
      await stack.stop().catch(() => undefined);
      throw err;
    }
    return stack;
  }

  private get logDir() {
    return join(this.options.dataDir, 'logs');
  }

  private checkNotAborted(): void {
    if (this.options.signal?.aborted) throw new InterruptedError();
  }

  /**
   * Installs first (both engines side by side, child processes), then starts both engines and
   * waits for their ports, then the services and the gateway. Every process is registered the
   * moment it is spawned, so the clean-up of a failed or interrupted start stops all of them.
   */
  private async boot(): Promise<void> {
    const { signal } = this.options;
    mkdirSync(this.options.dataDir, { recursive: true });
    this.secrets = this.loadSecrets();
    this.steps.push('install');
    this.binaries = await installEngines(this.log, { database: !this.options.mongoUrl, nats: !this.options.natsUrl }, signal);
    this.checkNotAborted();
    this.steps.push('engines');
    await allOrAbort<[void, void]>([(s) => this.startMongo(s), (s) => this.startNats(s)], signal);
    this.checkNotAborted();
    this.gatewayPort = this.options.gatewayPort || (await freePort());
    const host = this.options.gatewayHost ?? '127.0.0.1';
    this.baseUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${this.gatewayPort}`;

    this.steps.push('services');
    for (const service of SERVICES) {
      const count = this.options.instances?.[service] ?? 1;
      for (let i = 0; i < count; i++) {
        this.checkNotAborted();
        await this.startService(service, i);
      }
    }
    this.checkNotAborted();
    this.steps.push('gateway');
    await this.startGateway(host);
    await this.waitReady(this.baseUrl, this.options.readyTimeoutMs ?? 60_000, signal);
    this.steps.push('ready');
  }

  /** Every process this stack has started (engines included), running or not. */
  processes(): ManagedProcess[] {
    return [...this.apps.values(), ...(this.nats ? [this.nats.process] : []), ...(this.mongo ? [this.mongo.process] : [])];
  }

  /**
   * Secrets, made once per data folder so that restarts keep them: those every app gets (the
   * picture signing key) and each NATS user's password (`nats`: the server and that user's app
   * only). A folder made before NATS had users gets the passwords it lacks.
   */
  private loadSecrets(): LocalSecrets {
    const file = join(this.options.dataDir, 'secrets.json');
    const secrets = (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as Partial<LocalSecrets>;
    const missing = !secrets.PICTURE_SIGNING_KEY || NATS_USERS.some((u) => !secrets.nats?.[u]);
    secrets.PICTURE_SIGNING_KEY ||= randomBytes(32).toString('base64url');
    secrets.nats = Object.fromEntries(NATS_USERS.map((u) => [u, secrets.nats?.[u] || newNatsPassword()])) as Record<NatsUser, string>;
    if (missing) writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    return secrets as LocalSecrets;
  }

  /** A NATS user's name and password on this stack's own NATS; none on a NATS given by URL. */
  natsCredentials(user: NatsUser): { user: string; password: string } | undefined {
    return this.nats ? { user, password: this.secrets.nats[user] } : undefined;
  }

  /** The NATS address with `user`'s credentials in it (the bare address on a NATS given by URL). */
  natsUrlAs(user: NatsUser): string {
    const credentials = this.natsCredentials(user);
    if (!credentials) return this.natsServerUrl;
    const url = new URL(this.natsServerUrl);
    url.username = credentials.user;
    url.password = credentials.password;
    return url.toString().replace(/\/$/, '');
  }

  /**
   * What an app needs to connect as `user`; the other ways of giving credentials are emptied (an
   * empty value is unset), so that none inherited from the caller's environment conflicts. Nothing
   * on a NATS given by URL: its URL or the environment says.
   */
  natsEnv(user: NatsUser): Record<string, string> {
    const credentials = this.natsCredentials(user);
    return credentials ? { NATS_USER: credentials.user, NATS_PASSWORD: credentials.password, NATS_PASSWORD_FILE: '', NATS_CREDENTIALS_FILE: '' } : {};
  }

  /** The environment the importer runs with against this stack (`npm start`'s demo import): the importer's NATS credentials. */
  importerEnv(): Record<string, string> {
    return { ...this.natsEnv('importer'), NATS_URL: this.natsServerUrl };
  }

  private async startMongo(signal?: AbortSignal): Promise<void> {
    if (this.options.mongoUrl) {
      this.mongoUrl = this.options.mongoUrl;
      return;
    }
    const engine: DatabaseEngine | undefined = this.binaries.database;
    if (!engine) throw new Error('no database engine installed');
    const { kind, binary } = engine;
    const fixedPort = this.mongo?.port || this.options.mongoPort;
    const [version, port] = await Promise.all([
      readEngineVersion(binary),
      this.startEngineProcess(kind, 'mongodb', fixedPort, (port) => {
        const proc = this.databaseProcess(engine, port);
        // registered before the wait, so a failed start stops it too
        this.mongo = { process: proc.start(), port, version: this.mongo?.version ?? 'unknown', kind };
        return proc;
      }, signal),
    ]);
    if (this.mongo) this.mongo.version = version;
    this.mongoUrl = `mongodb://127.0.0.1:${port}`;
  }

  private databaseProcess({ kind, binary }: DatabaseEngine, port: number): ManagedProcess {
    if (kind === 'mongod') {
      const dbPath = join(this.options.dataDir, 'mongod');
      mkdirSync(dbPath, { recursive: true });
      return new ManagedProcess('mongod', {
        command: binary,
        args: ['--dbpath', dbPath, '--port', String(port), '--bind_ip', '127.0.0.1', '--quiet'],
        logFile: join(this.logDir, 'mongod.log'),
      });
    }
    const dir = join(this.options.dataDir, 'ferretdb');
    mkdirSync(dir, { recursive: true });
    return new ManagedProcess('ferretdb', {
      command: binary,
      args: [
        '--handler=sqlite',
        // immediate transactions: concurrent writers queue on the busy timeout instead of failing with SQLITE_BUSY
        `--sqlite-url=file:${dir}/?_txlock=immediate`,
        `--listen-addr=127.0.0.1:${port}`,
        '--debug-addr=-',
        '--telemetry=disable',
        '--log-level=warn',
        `--state-dir=${dir}`,
      ],
      // a soft limit on the Go heap: what a burst raised (an import, the services loading their
      // read models) goes back to the system within seconds rather than minutes; under steady
      // load FerretDB's heap stays below it (docs/PERFORMANCE.md, "Memory")
      env: { GOMEMLIMIT: process.env.GOMEMLIMIT || FERRETDB_MEMORY_LIMIT },
      logFile: join(this.logDir, 'ferretdb.log'),
    });
  }

  private async startNats(signal?: AbortSignal): Promise<void> {
    if (this.options.natsUrl) {
      this.natsUrl = this.natsServerUrl = this.options.natsUrl;
      return;
    }
    const binary = this.binaries.natsServer;
    if (!binary) throw new Error('no nats-server installed');
    const storeDir = join(this.options.dataDir, 'nats');
    mkdirSync(storeDir, { recursive: true });
    // compose's file (max_payload: every answer is one message; its users and their permissions,
    // docs/DECISIONS.md, "NATS"), which deploy-check checks; it reads each user's password from the environment
    const configFile = join(workspaceRoot(), 'deploy', 'docker', 'nats.conf');
    const fixedPort = this.nats?.port || this.options.natsPort;
    const [version, port] = await Promise.all([
      readEngineVersion(binary),
      this.startEngineProcess('nats-server', 'nats', fixedPort, (port) => {
        const proc = new ManagedProcess('nats', {
          command: binary,
          args: ['-c', configFile, '-js', '-sd', storeDir, '-a', '127.0.0.1', '-p', String(port), '-n', 'plaza-local'],
          env: Object.fromEntries(NATS_USERS.map((u) => [natsPasswordVariable(u), this.secrets.nats[u]])),
          logFile: join(this.logDir, 'nats.log'),
        });
        this.nats = { process: proc.start(), port, version: this.nats?.version ?? 'unknown', kind: 'nats-server' };
        return proc;
      }, signal),
    ]);
    if (this.nats) this.nats.version = version;
    this.natsServerUrl = `nats://127.0.0.1:${port}`;
    this.natsUrl = this.natsUrlAs('importer');
  }

  /**
   * Starts an engine on `fixedPort`, or on a port of its own choosing, and waits until it answers
   * in its own protocol there (engine-handshake.ts: a program that took the port first accepts
   * connections too). A chosen port taken before the engine listened on it is chosen again, a few
   * times (againIfPortTaken says why); a fixed one fails.
   */
  private async startEngineProcess(kind: string, protocol: EngineProtocol, fixedPort: number | undefined, launch: (port: number) => ManagedProcess, signal?: AbortSignal): Promise<number> {
    const timeoutMs = this.options.engineTimeoutMs ?? 30_000;
    for (let retriesLeft = PORT_TAKEN_RETRIES; ; retriesLeft--) {
      const port = fixedPort || (await freePort());
      const proc = launch(port);
      try {
        await waitFor(`${kind} on port ${port}`, () => engineAnswers(protocol, port), timeoutMs, () => (proc.running ? undefined : `${kind} exited:\n${proc.tail()}`), signal);
        return port;
      } catch (err) {
        if (!proc.running) await proc.exited();
        if (fixedPort || retriesLeft <= 0 || this.stopping || !proc.exitedBecausePortTaken(port)) throw err;
        this.log(`${kind}: port ${port} was taken before it could listen on it; starting it on another`);
      }
    }
  }

  /** Environment every app gets (its NATS credentials are added per app: natsEnv). */
  commonEnv(): Record<string, string> {
    const shared = Object.entries(this.secrets).filter((e): e is [string, string] => typeof e[1] === 'string');
    return {
      NATS_URL: this.natsServerUrl,
      MONGO_URL: this.mongoUrl,
      PUBLIC_API_URL: this.baseUrl,
      PUBLIC_WEB_URL: `${this.baseUrl}/web`,
      LOG_LEVEL: process.env.LOG_LEVEL || 'info',
      NODE_ENV: process.env.NODE_ENV || 'development',
      ...Object.fromEntries(shared),
      ...this.options.env,
    };
  }

  /** Source-mapped stack traces cost ~13 MiB per process; PLAZA_SOURCE_MAPS=1 turns them on for debugging. */
  private nodeFlags(): string[] {
    return process.env.PLAZA_SOURCE_MAPS === '1' ? ['--enable-source-maps'] : [];
  }

  private entryPoint(app: AppName): string {
    return this.options.entryPoint?.(app) ?? join(workspaceRoot(), 'apps', app, 'dist', 'main.js');
  }

  /**
   * The main gateway. Its public port is the one the services were told (PUBLIC_API_URL), so only
   * an admin port the stack chose is changed when taken.
   */
  private async startGateway(host: string, retriesLeft = PORT_TAKEN_RETRIES): Promise<void> {
    const adminPort = this.options.adminPort || (await freePort());
    if (this.stopping) throw new InterruptedError();
    this.adminUrl = `http://127.0.0.1:${adminPort}`;
    const proc = this.gatewayProcess(this.gatewayPort, host, adminPort, this.options.appEnv?.gateway ?? {}, 'gateway');
    this.apps.set('gateway', proc.start());
    this.againIfPortTaken('gateway', proc, this.options.adminPort ? [] : [adminPort], retriesLeft, () => this.startGateway(host, retriesLeft - 1));
  }

  /**
   * freePort finds a port free about a second before the app listens on it, and another program
   * on the machine (another stack, say) can take it meanwhile. An app whose first run ends
   * because one of the ports the stack chose for it was taken is started again on new ones, a
   * few times; while that happens its exit does not fail start-up (waitReady).
   */
  private againIfPortTaken(name: string, proc: ManagedProcess, chosenPorts: number[], retriesLeft: number, again: () => Promise<unknown>): void {
    void proc.exited().then(() => {
      const taken = chosenPorts.find((port) => proc.exitedBecausePortTaken(port));
      if (taken === undefined || retriesLeft <= 0 || this.stopping || this.apps.get(name) !== proc) return;
      this.log(`${name}: port ${taken} was taken before it could listen on it; starting it on another`);
      this.restarting.add(name);
      again()
        .catch((err: Error) => this.log(`${name}: not started again: ${err.message}`))
        .finally(() => this.restarting.delete(name));
    });
  }

  private async startService(service: ServiceApp, index: number, retriesLeft = PORT_TAKEN_RETRIES): Promise<ManagedProcess> {
    const name = index === 0 ? service : `${service}-${index}`;
    const healthPort = await freePort();
    if (this.stopping) throw new InterruptedError();
    const extra: Record<string, string> = service === 'identity' ? { JWT_KEYS_DIR: join(this.options.dataDir, 'keys') } : {};
    const proc = new ManagedProcess(name, {
      command: process.execPath,
      // V8's own young generation, as in the images: a service writes a 25-40 KB page per list or
      // search, and with a 2 MiB one its minor collections cost about a tenth of its CPU a request (docs/PERFORMANCE.md, "Memory")
      args: [...this.nodeFlags(), ...V8_FLAGS, ...(this.options.nodeArgs?.[service] ?? []), this.entryPoint(service)],
      env: { ...this.commonEnv(), ...this.natsEnv(service), HEALTH_PORT: String(healthPort), ...extra, ...this.options.appEnv?.[service] },
      logFile: join(this.logDir, `${name}.log`),
    });
    (proc as ManagedProcess & { healthPort?: number }).healthPort = healthPort;
    this.apps.set(name, proc.start());
    this.againIfPortTaken(name, proc, [healthPort], retriesLeft, () => this.startService(service, index, retriesLeft - 1));
    return proc;
  }

  private gatewayProcess(port: number, host: string, adminPort: number, env: Record<string, string>, name: string): ManagedProcess {
    return new ManagedProcess(name, {
      command: process.execPath,
      args: [...this.nodeFlags(), ...V8_FLAGS, ...GATEWAY_V8_FLAGS, ...(this.options.nodeArgs?.gateway ?? []), this.entryPoint('gateway')],
      env: { ...this.commonEnv(), ...this.natsEnv('gateway'), PORT: String(port), HOST: host, ADMIN_PORT: String(adminPort), ...env },
      logFile: join(this.logDir, `${name}.log`),
    });
  }

  /** Waits until a gateway's /ready answers 200, failing early with the log of any app that died. */
  async waitReady(baseUrl = this.baseUrl, timeoutMs = 60_000, signal?: AbortSignal): Promise<void> {
    await waitFor(
      `${baseUrl}/ready`,
      async () => (await httpStatus(`${baseUrl}/ready`)) === 200,
      timeoutMs,
      () => {
        for (const [name, proc] of this.apps) {
          if (!proc.running && proc.lastExitCode !== undefined && !this.restarting.has(name)) return `${name} exited with ${proc.lastExitCode}:\n${proc.tail(40)}`;
        }
        return undefined;
      },
      signal,
    );
  }

  /** Another gateway replica on the same engines and services (rate-limit and scaling tests). */
  async startExtraGateway(env: Record<string, string> = {}): Promise<{ process: ManagedProcess; baseUrl: string; adminUrl: string }> {
    const name = `gateway-${this.extraGateways.length + 1}`;
    for (let retriesLeft = PORT_TAKEN_RETRIES; ; retriesLeft--) {
      const port = await freePort();
      const adminPort = await freePort();
      const proc = this.gatewayProcess(port, '127.0.0.1', adminPort, env, name).start();
      this.apps.set(name, proc);
      const entry = { process: proc, baseUrl: `http://127.0.0.1:${port}`, adminUrl: `http://127.0.0.1:${adminPort}` };
      try {
        await this.waitReady(entry.baseUrl);
      } catch (err) {
        // nothing depends on its ports yet: a taken one is simply chosen again (againIfPortTaken)
        if (retriesLeft > 0 && !this.stopping && [port, adminPort].some((p) => proc.exitedBecausePortTaken(p))) continue;
        throw err;
      }
      this.extraGateways.push(entry);
      return entry;
    }
  }

  /** Starts one more instance of a service (queue-group tests). */
  async addServiceInstance(service: ServiceApp): Promise<ManagedProcess> {
    let index = 1;
    while (this.apps.has(`${service}-${index}`)) index++;
    return this.startService(service, index);
  }

  app(name: string): ManagedProcess {
    const proc = this.apps.get(name);
    if (!proc) throw new Error(`no app named ${name}`);
    return proc;
  }

  healthPort(name: string): number | undefined {
    return (this.apps.get(name) as (ManagedProcess & { healthPort?: number }) | undefined)?.healthPort;
  }

  /** Versions of what runs, for reports. */
  versions(): Record<string, string> {
    return {
      node: process.version,
      ...(this.mongo ? { [this.mongo.kind]: this.mongo.version } : { mongo: 'external' }),
      ...(this.nats ? { 'nats-server': this.nats.version } : { nats: 'external' }),
    };
  }

  /** Stops a local engine (SIGTERM, or SIGKILL with `crash`), keeping its port and data for a restart. */
  async stopEngine(kind: 'mongo' | 'nats', crash = false): Promise<void> {
    const engine = kind === 'mongo' ? this.mongo : this.nats;
    if (!engine) throw new Error(`no local ${kind} engine to stop`);
    if (crash) await engine.process.kill();
    else await engine.process.stop();
  }

  /** Starts a stopped local engine again on the same port with the same data. */
  async startEngine(kind: 'mongo' | 'nats'): Promise<void> {
    if (kind === 'mongo') await this.startMongo();
    else await this.startNats();
  }

  /** Restarts one app (after a kill or a stop), with the same settings. */
  async restartApp(name: string): Promise<void> {
    const proc = this.app(name);
    if (proc.running) await proc.stop();
    proc.start();
  }

  /** Stops everything it started: gateways first, then services, then the engines. */
  async stop(): Promise<void> {
    this.stopping = true;
    const gateways = [...this.apps.entries()].filter(([n]) => n.startsWith('gateway')).map(([, p]) => p);
    const services = [...this.apps.entries()].filter(([n]) => !n.startsWith('gateway')).map(([, p]) => p);
    await Promise.all(gateways.map((p) => p.stop()));
    await Promise.all(services.map((p) => p.stop()));
    await Promise.all([this.nats?.process.stop(), this.mongo?.process.stop()]);
  }
}
