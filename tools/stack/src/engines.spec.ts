import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  FERRETDB_BUILD,
  findDatabaseEngine,
  findFerretDb,
  findNatsServer,
  installEngines,
  installFerretDb,
  installNatsServer,
  readEngineVersion,
  runCommand,
} from './engines';
import { toolsBin } from './paths';
import { InterruptedError } from './processes';
import { alive, eventually, FakeMachine } from './test-fakes';

let machine: FakeMachine;
const logged: string[] = [];
const log = (line: string) => logged.push(line);

beforeEach(() => {
  machine = new FakeMachine().activate();
  logged.length = 0;
});
afterEach(() => machine.remove());

describe('engine discovery', () => {
  it('finds nothing on a machine without the engines', () => {
    expect(findNatsServer()).toBeUndefined();
    expect(findFerretDb()).toBeUndefined();
    expect(findDatabaseEngine()).toBeUndefined();
  });

  it('takes the engines on PATH first', () => {
    const nats = machine.engineOnPath('nats-server');
    const ferretdb = machine.engineOnPath('ferretdb');
    expect(findNatsServer()).toBe(nats);
    expect(findDatabaseEngine()).toEqual({ kind: 'ferretdb', binary: ferretdb });
  });

  it('prefers a mongod on PATH to FerretDB', () => {
    machine.engineOnPath('ferretdb');
    const mongod = machine.engineOnPath('mongod');
    expect(findDatabaseEngine()).toEqual({ kind: 'mongod', binary: mongod });
  });

  it('uses the tools folder (PLAZA_TOOLS_DIR) when nothing is on PATH', async () => {
    machine.go();
    await installEngines(log, { database: true, nats: true });
    expect(toolsBin()).toBe(join(machine.tools, 'bin'));
    expect(findNatsServer()).toBe(join(machine.tools, 'bin', 'nats-server'));
    expect(findDatabaseEngine()).toEqual({ kind: 'ferretdb', binary: join(machine.tools, 'bin', 'ferretdb') });
  });

  it('does not take a FerretDB built without today\'s patch (its stamp differs)', async () => {
    machine.go();
    const binary = await installFerretDb(log);
    expect(readFileSync(join(toolsBin(), 'ferretdb.build'), 'utf8').trim()).toBe(FERRETDB_BUILD);
    writeFileSync(join(toolsBin(), 'ferretdb.build'), 'v1.24.0\n');
    expect(findFerretDb()).toBeUndefined();
    // and rebuilds it
    expect(await installFerretDb(log)).toBe(binary);
    expect(findFerretDb()).toBe(binary);
  });
});

describe('engine installs', () => {
  it('installs nats-server with go install into the tools folder, once', async () => {
    machine.go();
    const binary = await installNatsServer(log);
    expect(binary).toBe(join(machine.tools, 'bin', 'nats-server'));
    expect(await readEngineVersion(binary)).toBe('v9.9.9');
    expect(await installNatsServer(log)).toBe(binary);
    expect(machine.log().filter((l) => l.startsWith('go install start'))).toHaveLength(1);
    expect(logged).toEqual([expect.stringContaining('installing nats-server')]);
    // the scratch folder is gone
    expect(readdirSync(join(machine.tools, 'build'))).toEqual([]);
  });

  it('builds FerretDB from the module with the version file and the _id index patch (the fake go checks both)', async () => {
    machine.go();
    const binary = await installFerretDb(log);
    expect(binary).toBe(join(machine.tools, 'bin', 'ferretdb'));
    expect(machine.log()).toEqual(expect.arrayContaining(['go build end']));
    expect(readdirSync(join(machine.tools, 'build'))).toEqual([]);
  });

  it('refuses a FerretDB source the patch no longer applies to', async () => {
    machine.go();
    writeFileSync(join(machine.moduleDir, 'internal', 'backends', 'sqlite', 'metadata', 'metadata.go'), 'package metadata\n');
    await expect(installFerretDb(log)).rejects.toThrow('the _id index patch no longer applies');
    expect(existsSync(join(machine.tools, 'bin', 'ferretdb'))).toBe(false);
  });

  it('says Go is needed, or MONGO_URL and NATS_URL, when there is no go', async () => {
    await expect(installNatsServer(log)).rejects.toThrow(/Go is needed.*MONGO_URL and NATS_URL/);
  });

  it('runs both installs at once, without blocking the event loop', async () => {
    machine.go({ installSeconds: 1, buildSeconds: 1 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 50);
    const started = Date.now();
    await installEngines(log, { database: true, nats: true });
    clearInterval(timer);
    // the loop kept turning through the installs (about one tick per 50 ms; spawnSync would give none)
    expect(ticks).toBeGreaterThan((Date.now() - started) / 50 / 4);
    // each install started before the other ended
    const events = machine.log().map((l) => l.replace(/ pid=\d+/, ''));
    expect(events.indexOf('go build start')).toBeLessThan(events.indexOf('go install end'));
    expect(events.indexOf('go install start')).toBeLessThan(events.indexOf('go build end'));
  });

  it('a failed install stops the other one, and reports the failure', async () => {
    machine.go({ installSeconds: 30, failDownload: true });
    const started = Date.now();
    await expect(installEngines(log, { database: true, nats: true })).rejects.toThrow('module lookup failed');
    expect(Date.now() - started).toBeLessThan(5000);
    for (const pid of machine.pids()) await eventually(() => !alive(pid));
    expect(existsSync(join(machine.tools, 'bin', 'nats-server'))).toBe(false);
  });

  it('an abort (Ctrl-C) ends the build and all it started, and leaves no half-made binary', async () => {
    machine.go({ buildSeconds: 30 });
    const abort = new AbortController();
    const install = installFerretDb(log, { signal: abort.signal });
    await eventually(() => machine.log().some((l) => l.startsWith('go build worker')), 5000);
    abort.abort();
    await expect(install).rejects.toBeInstanceOf(InterruptedError);
    for (const pid of machine.pids()) await eventually(() => !alive(pid));
    expect(existsSync(join(machine.tools, 'bin', 'ferretdb'))).toBe(false);
    expect(readdirSync(join(machine.tools, 'build'))).toEqual([]);
  });
});

describe('runCommand', () => {
  it('resolves with the output, or rejects with the command and its error output', async () => {
    expect(await runCommand(process.execPath, ['-e', 'process.stdout.write("out")'])).toBe('out');
    await expect(runCommand(process.execPath, ['-e', 'console.error("bad thing"); process.exit(4)'])).rejects.toThrow(/command failed \(4\).*\nbad thing/s);
    await expect(runCommand(join(machine.bin, 'no-such-command'), [])).rejects.toThrow(/cannot run/);
  });
});
