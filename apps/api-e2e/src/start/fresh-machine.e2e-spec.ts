import { freePort, which } from '@plaza/stack';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anyListening, Launch, launch, leftRunning, waitForOutput, waitUntil } from './launcher';

/**
 * The first-start test (docs/DEVELOPING.md, "Tests", step `start`): the first `npm start` after `git clone` (no engines installed yet, empty database)
 * must work however long the engine builds take, and a start that is interrupted or fails must
 * leave nothing running. The launcher runs with an empty tools folder (PLAZA_TOOLS_DIR) and an
 * empty data folder; Ctrl-C is SIGINT to the launcher alone (not its process group), so the
 * launcher itself must stop everything it started. Go's module and build caches (~/go,
 * ~/.cache/go-build) stay warm, so a build takes seconds here; PLAZA_START_TEST_COLD_GO=1 builds
 * with an empty Go build cache as on a new machine (about two minutes on two cores).
 */
const toolsDir = mkdtempSync(join(tmpdir(), 'plaza-fresh-tools-'));
const dataDir = mkdtempSync(join(tmpdir(), 'plaza-fresh-data-'));
const coldCaches: string[] = [];
const coldGoCache = () => {
  const dir = mkdtempSync(join(tmpdir(), 'plaza-cold-gocache-'));
  coldCaches.push(dir);
  return dir;
};
// engines on PATH are used instead of building ours: then there is no build to interrupt
const buildsEngines = !which('nats-server') && !which('ferretdb') && !which('mongod');

const say = (line: string) => process.stdout.write(`[fresh start] ${line}\n`);

describe('npm start on a fresh machine (empty tools and data folders)', () => {
  let env: Record<string, string>;
  let ports: number[];
  const launches: Launch[] = [];

  beforeAll(async () => {
    ports = [await freePort(), await freePort(), await freePort(), await freePort()];
    const [port, natsPort, mongoPort, adminPort] = ports;
    const baseUrl = `http://127.0.0.1:${port}`;
    env = {
      PLAZA_TOOLS_DIR: toolsDir,
      PLAZA_DATA_DIR: dataDir,
      PORT: String(port),
      NATS_PORT: String(natsPort),
      MONGO_PORT: String(mongoPort),
      ADMIN_PORT: String(adminPort),
      PUBLIC_API_URL: baseUrl,
      PUBLIC_WEB_URL: `${baseUrl}/web`,
    };
  });

  afterAll(async () => {
    for (const run of launches) {
      run.stopWatching();
      if (run.child.exitCode === null && run.child.signalCode === null && run.child.pid) process.kill(run.child.pid, 'SIGINT');
      await run.exited;
      for (const { pid } of leftRunning(run)) process.kill(pid, 'SIGKILL');
    }
    for (const dir of [toolsDir, dataDir, ...coldCaches]) if (!process.env.KEEP_E2E_DATA) rmSync(dir, { recursive: true, force: true });
  });

  (buildsEngines ? it : it.skip)('Ctrl-C while the engines build stops the builds and leaves no half-made engine', async () => {
    // an empty Go build cache makes the build long enough to be sure to interrupt it
    const run = launch({ ...env, GOCACHE: coldGoCache() });
    launches.push(run);
    await waitForOutput(run, 'building FerretDB', 60_000);
    await waitUntil(() => [...run.seen.values()].some((command) => /(^|\/)go (build|install)/.test(command)), 'a go build running', 60_000);
    expect(run.output()).not.toContain('ready in');
    const signalled = Date.now();
    process.kill(run.child.pid as number, 'SIGINT');
    const { code } = await run.exited;
    say(`interrupted build: the launcher exited ${Date.now() - signalled} ms after SIGINT`);
    expect(code).toBe(130);
    expect(run.output()).toContain('stopped.');
    await waitUntil(() => leftRunning(run).length === 0, `processes left: ${JSON.stringify(leftRunning(run))}`, 10_000);
    // nothing half-made: no FerretDB without its stamp, no scratch folders, no engine started
    expect(existsSync(join(toolsDir, 'bin', 'ferretdb')) && !existsSync(join(toolsDir, 'bin', 'ferretdb.build'))).toBe(false);
    expect(existsSync(join(toolsDir, 'build')) ? readdirSync(join(toolsDir, 'build')) : []).toEqual([]);
    expect([...run.seen.values()].some((c) => /ferretdb --handler|nats-server -c/.test(c))).toBe(false);
    expect(await anyListening(ports)).toEqual([]);
  }, 3 * 60_000);

  it('builds the engines, gets ready, and Ctrl-C during the demo load stops every process it started', async () => {
    const cold = process.env.PLAZA_START_TEST_COLD_GO === '1';
    const started = Date.now();
    const run = launch(cold ? { ...env, GOCACHE: coldGoCache() } : env);
    launches.push(run);
    const readyOutput = await waitForOutput(run, 'ready in ', 8 * 60_000);
    say(`${cold ? 'cold' : 'warm'} Go build cache: ready ${((Date.now() - started) / 1000).toFixed(1)} s after launch (${/ready in .*/.exec(readyOutput)?.[0]})`);
    if (buildsEngines) expect(readyOutput).toMatch(/building FerretDB|installing nats-server/);
    // the demo load has started: the importer runs below the launcher
    await waitForOutput(run, /importing [\d,]+ records/, 2 * 60_000);
    await waitUntil(() => [...run.seen.values()].some((c) => c.includes('apps/importer/dist/main.js')), 'the importer seen running', 10_000);

    const commands = [...run.seen.values()];
    if (buildsEngines) {
      expect(commands.some((c) => c.startsWith(`${join(toolsDir, 'bin', 'ferretdb')} `))).toBe(true);
      expect(commands.some((c) => c.startsWith(`${join(toolsDir, 'bin', 'nats-server')} `))).toBe(true);
    }
    for (const app of ['identity', 'book', 'movie', 'note', 'event', 'gateway']) expect(commands.some((c) => c.includes(`apps/${app}/dist/main.js`))).toBe(true);

    const signalled = Date.now();
    process.kill(run.child.pid as number, 'SIGINT');
    const { code } = await run.exited;
    say(`Ctrl-C during the demo load: the launcher exited ${Date.now() - signalled} ms after SIGINT; ${run.seen.size} processes seen`);
    expect(code).toBe(0);
    expect(run.output()).toContain('stopped.');
    await waitUntil(() => leftRunning(run).length === 0, `processes left: ${JSON.stringify(leftRunning(run))}`, 10_000);
    expect(await anyListening(ports)).toEqual([]);
  }, 10 * 60_000);
});
