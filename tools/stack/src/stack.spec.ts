import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NATS_USERS, natsPasswordVariable } from './nats-auth';
import { freePort, InterruptedError, ManagedProcess, portAcceptsConnections, waitFor } from './processes';
import { SERVICES, Stack, StackOptions } from './stack';
import { alive, descendants, eventually, FakeAppBehaviour, FakeGoBehaviour, FakeMachine } from './test-fakes';

// processes are slow to start on a busy two-core machine
jest.setTimeout(30_000);

/**
 * Start-up order and clean-up of the Stack, on fake engines built by a fake `go` and fake apps:
 * what `npm start` does on a fresh machine, in a second or two instead of minutes.
 */
let machine: FakeMachine;
const stacks: Stack[] = [];

beforeEach(() => {
  machine = new FakeMachine().activate();
});
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((s) => s.stop()));
  // nothing a test started may outlive it
  for (const pid of machine.pids()) if (alive(pid)) process.kill(pid, 'SIGKILL');
  machine.remove();
});

function options(apps: FakeAppBehaviour = {}, extra: Partial<StackOptions> = {}): StackOptions {
  return { dataDir: machine.data, entryPoint: machine.apps(apps), readyTimeoutMs: 10_000, log: () => undefined, ...extra };
}

async function start(goBehaviour: FakeGoBehaviour, apps: FakeAppBehaviour = {}, extra: Partial<StackOptions> = {}): Promise<Stack> {
  machine.go(goBehaviour);
  const stack = await Stack.start(options(apps, extra));
  stacks.push(stack);
  return stack;
}

/** The event log without pids and ports. */
const events = () => machine.log().map((l) => l.replace(/ \d+ pid=\d+| pid=\d+/, ''));

/** No process of the test runs any more: none below this one, and none a fake reported (go's workers, orphaned when go is killed). */
async function expectAllGone(): Promise<void> {
  expect(descendants()).toEqual([]);
  const pids = machine.pids();
  for (const pid of pids) await eventually(() => !alive(pid), 5000).catch(() => undefined);
  expect(pids.filter(alive)).toEqual([]);
}

describe('Stack start order', () => {
  it('installs both engines first, then starts them, then the services, then the gateway', async () => {
    const stack = await start({ installSeconds: 0.3, buildSeconds: 0.3 });
    expect(stack.steps).toEqual(['install', 'engines', 'services', 'gateway', 'ready']);
    const log = events();
    const lastInstall = Math.max(log.indexOf('go install end'), log.indexOf('go build end'));
    const firstEngine = Math.min(log.indexOf('start nats'), log.indexOf('start ferretdb'));
    expect(lastInstall).toBeGreaterThanOrEqual(0);
    expect(lastInstall).toBeLessThan(firstEngine);
    expect(Math.max(log.indexOf('start nats'), log.indexOf('start ferretdb'))).toBeLessThan(log.indexOf('start service'));
    expect([...stack.apps.keys()]).toEqual(['identity', 'book', 'movie', 'note', 'event', 'gateway']);
    expect(stack.processes().every((p) => p.running)).toBe(true);
    expect(stack.versions()).toMatchObject({ ferretdb: 'v9.9.9', 'nats-server': 'v9.9.9' });
    expect(stack.mongoUrl).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+$/);
  });

  it('starts on a slow machine: an install longer than the engine timeout does not count against it', async () => {
    // the first run used to time out waiting for FerretDB while nats-server was still installing
    // the fakes get 4 s to answer once installed (a loaded CI machine took over a second to start one)
    const stack = await start({ installSeconds: 5, buildSeconds: 0 }, {}, { engineTimeoutMs: 4000 });
    expect(stack.steps.at(-1)).toBe('ready');
  });

  it('starts whichever install finishes first', async () => {
    const stack = await start({ installSeconds: 0, buildSeconds: 1.5 });
    expect(stack.steps.at(-1)).toBe('ready');
    const log = events();
    expect(log.indexOf('go install end')).toBeLessThan(log.indexOf('go build end'));
  });

  it('uses engines already installed without running go, and stops everything it started', async () => {
    await (await start({})).stop();
    stacks.length = 0;
    const before = machine.log().length;
    const stack = await start({});
    expect(machine.log().slice(before).some((l) => l.startsWith('go '))).toBe(false);
    const ports = [Number(new URL(stack.mongoUrl).port), Number(new URL(stack.natsUrl).port), Number(new URL(stack.baseUrl).port)];
    await stack.stop();
    await expectAllGone();
    for (const port of ports) expect(await portAcceptsConnections(port)).toBe(false);
  });
});

/** `start <what> <port>` events, in order: each start of a fake and the port it was given. */
const startsOf = (what: string) => machine.log().flatMap((l) => (l.startsWith(`start ${what} `) ? [Number(l.split(' ')[2])] : []));

describe('Stack start when another program takes a port it chose (the second between its check and the listen)', () => {
  it('starts the service again on another health port', async () => {
    const stack = await start({}, { service: 'port-taken-once' });
    expect(stack.steps.at(-1)).toBe('ready');
    // the fake gateway is ready at once, perhaps before the service's second start
    await eventually(() => startsOf('service').length === 6);
    await eventually(() => stack.processes().every((p) => p.running));
    const ports = startsOf('service');
    // five services, the first of them twice: once on the taken port, then on a new one
    expect(ports).toHaveLength(6);
    expect(new Set(ports).size).toBe(6);
    const served = SERVICES.map((s) => stack.healthPort(s) ?? 0);
    expect(served).not.toContain(ports[0]);
    expect(served.sort()).toEqual(ports.slice(1).sort());
    // each listens on its own (the one started again perhaps a moment later)
    for (const port of served) await waitFor(`health port ${port}`, () => portAcceptsConnections(port), 5000);
    expect(stack.processes().every((p) => p.running)).toBe(true);
  });

  it('starts the gateway again on another admin port, keeping its public one', async () => {
    const stack = await start({}, { adminPort: 'port-taken-once' });
    await eventually(() => startsOf('gateway').length === 2);
    const [first, second] = startsOf('gateway');
    expect(second).not.toBe(first);
    expect(stack.adminUrl).toBe(`http://127.0.0.1:${second}`);
    await waitFor(`admin port ${second}`, () => portAcceptsConnections(second), 5000);
    await waitFor('the public port', () => portAcceptsConnections(stack.gatewayPort), 5000);
  });

  it('starts the database engine again on another port', async () => {
    const stack = await start({ ferretdb: { mode: 'port-taken-once' } });
    const [first, second] = startsOf('ferretdb');
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(stack.mongoUrl).toBe(`mongodb://127.0.0.1:${second}`);
    expect(stack.steps.at(-1)).toBe('ready');
  });

  it('fails on a port it was given rather than choose another', async () => {
    const mongoPort = await freePort();
    await expect(start({ ferretdb: { mode: 'port-taken-once' } }, {}, { mongoPort })).rejects.toThrow(/address already in use/);
    expect(startsOf('ferretdb')).toEqual([mongoPort]);
    await expectAllGone();
  });
});

describe('Stack clean-up when start-up fails', () => {
  it('stops the database engine, still waited for, when nats-server fails to start', async () => {
    // FerretDB never listens: its wait is still running when nats-server's failure ends the start
    await expect(start({ nats: { mode: 'exit' }, ferretdb: { mode: 'silent' } })).rejects.toThrow(/nats-server exited/);
    await expectAllGone();
  });

  it('stops nats-server when the database engine never listens', async () => {
    await expect(start({ ferretdb: { mode: 'silent' } }, {}, { engineTimeoutMs: 2000 })).rejects.toThrow(/timed out after 2000 ms waiting for ferretdb/);
    await expectAllGone();
  });

  it('stops the engines and every service when the gateway fails', async () => {
    await expect(start({}, { gateway: 'exit' })).rejects.toThrow(/gateway exited with 1/);
    await expectAllGone();
  });

  it('stops everything when the gateway never becomes ready', async () => {
    await expect(start({}, { gateway: 'never' }, { readyTimeoutMs: 1000 })).rejects.toThrow(/timed out after 1000 ms/);
    await expectAllGone();
  });
});

describe('Stack start interrupted (Ctrl-C)', () => {
  it('during the installs: kills the builds, starts nothing, leaves no binary', async () => {
    const abort = new AbortController();
    const starting = start({ installSeconds: 30, buildSeconds: 30 }, {}, { signal: abort.signal });
    await eventually(() => machine.log().filter((l) => l.includes('worker')).length === 2, 5000);
    abort.abort();
    await expect(starting).rejects.toBeInstanceOf(InterruptedError);
    expect(events().some((l) => l.startsWith('start '))).toBe(false);
    await expectAllGone();
    expect(existsSync(join(machine.tools, 'bin', 'nats-server'))).toBe(false);
    expect(existsSync(join(machine.tools, 'bin', 'ferretdb'))).toBe(false);
  });

  it('while waiting for the gateway: stops the engines and the apps', async () => {
    const abort = new AbortController();
    const starting = start({}, { gateway: 'never' }, { signal: abort.signal });
    await eventually(() => events().includes('start gateway'), 10_000);
    abort.abort();
    await expect(starting).rejects.toBeInstanceOf(InterruptedError);
    await expectAllGone();
  });
});

/** The environment a running process was started with (Linux). */
function environmentOf(proc: ManagedProcess | undefined): Record<string, string> {
  const text = readFileSync(`/proc/${proc?.pid}/environ`, 'utf8');
  return Object.fromEntries(text.split('\0').filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
}

describe('Stack NATS credentials (docs/DECISIONS.md, "NATS")', () => {
  it('gives each app its own NATS user and password, and the server every password', async () => {
    const stack = await start({});
    const secrets = JSON.parse(readFileSync(join(machine.data, 'secrets.json'), 'utf8')) as { nats: Record<string, string> };
    expect(Object.keys(secrets.nats).sort()).toEqual([...NATS_USERS].sort());
    expect(new Set(Object.values(secrets.nats)).size).toBe(NATS_USERS.length);
    const server = environmentOf(stack.nats?.process);
    for (const user of NATS_USERS) expect(server[natsPasswordVariable(user)]).toBe(secrets.nats[user]);
    for (const app of ['identity', 'book', 'movie', 'note', 'event', 'gateway'] as const) {
      const env = environmentOf(stack.apps.get(app));
      expect({ app, user: env.NATS_USER, password: env.NATS_PASSWORD, url: env.NATS_URL }).toEqual({ app, user: app, password: secrets.nats[app], url: stack.natsServerUrl });
      // nobody else's password
      for (const user of NATS_USERS) if (user !== app) expect(Object.values(env)).not.toContain(secrets.nats[user]);
    }
    expect(stack.natsServerUrl).toMatch(/^nats:\/\/127\.0\.0\.1:\d+$/);
    // the address for the importer and the tests carries the importer's credentials
    expect(stack.natsUrl).toBe(stack.natsServerUrl.replace('nats://', `nats://importer:${secrets.nats.importer}@`));
    expect(stack.natsUrlAs('book')).toBe(stack.natsServerUrl.replace('nats://', `nats://book:${secrets.nats.book}@`));
    expect(stack.natsCredentials('gateway')).toEqual({ user: 'gateway', password: secrets.nats.gateway });
    expect(stack.importerEnv()).toEqual({ NATS_URL: stack.natsServerUrl, NATS_USER: 'importer', NATS_PASSWORD: secrets.nats.importer, NATS_PASSWORD_FILE: '', NATS_CREDENTIALS_FILE: '' });
  });

  it('keeps the passwords of a data folder, and adds them to one made before NATS had users', async () => {
    mkdirSync(machine.data, { recursive: true });
    writeFileSync(join(machine.data, 'secrets.json'), JSON.stringify({ PICTURE_SIGNING_KEY: 'kept' }));
    await (await start({})).stop();
    stacks.length = 0;
    const first = JSON.parse(readFileSync(join(machine.data, 'secrets.json'), 'utf8')) as { PICTURE_SIGNING_KEY: string; nats: Record<string, string> };
    expect(first.PICTURE_SIGNING_KEY).toBe('kept');
    expect(Object.keys(first.nats).sort()).toEqual([...NATS_USERS].sort());
    const stack = await start({});
    expect(JSON.parse(readFileSync(join(machine.data, 'secrets.json'), 'utf8'))).toEqual(first);
    expect(environmentOf(stack.apps.get('gateway')).PICTURE_SIGNING_KEY).toBe('kept');
  });

  it('passes no credentials of its own on a NATS given by URL', async () => {
    const stack = await start({}, {}, { natsUrl: 'nats://nats.example:4222' });
    expect(stack.natsUrl).toBe('nats://nats.example:4222');
    expect(stack.natsCredentials('book')).toBeUndefined();
    expect(stack.natsUrlAs('book')).toBe('nats://nats.example:4222');
    expect(stack.importerEnv()).toEqual({ NATS_URL: 'nats://nats.example:4222' });
    const env = environmentOf(stack.apps.get('book'));
    expect(env.NATS_URL).toBe('nats://nats.example:4222');
    expect(env.NATS_USER).toBeUndefined();
  });
});
