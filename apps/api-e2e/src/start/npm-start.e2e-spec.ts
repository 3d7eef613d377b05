import { freePort, portAcceptsConnections } from '@plaza/stack';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api } from '../support/http';

/**
 * The README's first command, exactly as a user runs it: `npm start` on an empty data folder
 * starts the engines, every service and the gateway, loads the demo catalogue, and prints
 * credentials that work; Ctrl-C stops everything cleanly; a second start keeps the data.
 */
const root = join(__dirname, '..', '..', '..', '..');

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function npmStart(env: Record<string, string>): Run {
  let output = '';
  // its own process group, so SIGINT reaches npm and the launcher together, as Ctrl-C does
  const child = spawn('npm', ['start', '--silent'], { cwd: root, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForOutput(run: Run, marker: string, timeoutMs: number): Promise<string> {
  const started = Date.now();
  while (!run.output().includes(marker)) {
    if (run.child.exitCode !== null || run.child.signalCode !== null) throw new Error(`npm start exited (${run.child.exitCode}):\n${run.output()}`);
    if (Date.now() - started > timeoutMs) throw new Error(`no "${marker}" within ${timeoutMs} ms:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return run.output();
}

/** Ctrl-C in a terminal: SIGINT to the whole process group. Resolves once the launcher has stopped. */
async function ctrlC(run: Run): Promise<void> {
  const alive = run.child.exitCode === null && run.child.signalCode === null;
  if (run.child.pid && alive) process.kill(-run.child.pid, 'SIGINT');
  await run.exited;
  // npm itself dies of the signal; the launcher it started writes "stopped." when it has stopped everything
  await waitForOutput(run, 'stopped.', 30_000).catch(() => undefined);
}

const listening = async (ports: number[]) => (await Promise.all(ports.map((p) => portAcceptsConnections(p)))).some(Boolean);

describe('npm start (README, first command)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'plaza-start-'));
  let env: Record<string, string>;
  let baseUrl: string;
  let ports: number[];
  let first: Run | undefined;
  let second: Run | undefined;

  beforeAll(async () => {
    ports = [await freePort(), await freePort(), await freePort(), await freePort()];
    const [port, natsPort, mongoPort, adminPort] = ports;
    baseUrl = `http://127.0.0.1:${port}`;
    env = {
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
    for (const run of [first, second]) if (run) await ctrlC(run);
    if (!process.env.KEEP_E2E_DATA) rmSync(dataDir, { recursive: true, force: true });
  });

  let token: string;
  let collectedBook: string;

  it('reaches ready in under a minute, loads the demo catalogue, and prints credentials that work', async () => {
    first = npmStart(env);
    const readyLine = await waitForOutput(first, 'ready in ', 60_000);
    const seconds = Number(/ready in ([\d.]+) s/.exec(readyLine)?.[1]);
    expect(seconds).toBeLessThan(60);

    const printed = await waitForOutput(first, 'Press Ctrl-C to stop.', 8 * 60_000);
    expect(printed).toContain('empty database: generating and loading the demo catalogue');
    // the demo load's progress, as plain lines (the output is no terminal): records of total, rate, time left
    expect(printed).toMatch(/importing [\d,]+ records from \S+ through NATS at nats:\/\/127\.0\.0\.1:\d+\n/);
    expect(printed).toMatch(/\n[\d,]+ of [\d,]+ records \(\d+%\), [\d,]+\/s, about (\d+ min )?\d+ s left\n/);
    expect(printed).toMatch(/\n([\d,]+) of \1 records \(100%\) in .*\n/);
    expect(printed).not.toContain('\r');
    expect(printed).toContain(`Plaza API is up at ${baseUrl}/v2`);
    // the first suggested command, as printed: a password grant with the demo credentials
    const grant = /curl -s (-d grant_type=password.*?) (http\S+\/auth2\/token)/.exec(printed);
    expect(grant).not.toBeNull();
    const form = Object.fromEntries([...grant![1].matchAll(/-d (\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));
    const tokenRes = await api('POST', '/auth2/token', { baseUrl, form });
    expect(tokenRes.status).toBe(200);
    token = tokenRes.body.access_token;

    const search = await api('GET', '/v2/book/search', { baseUrl, token, query: { q: '春天', count: 2 } });
    expect(search.status).toBe(200);
    expect(search.body.total).toBeGreaterThan(0);
    collectedBook = search.body.books[0].id;
    const movies = await api('GET', '/v2/movie/top250', { baseUrl, token: undefined });
    expect(movies.status).toBe(200);
    expect(movies.body.subjects.length).toBeGreaterThan(0);

    await api('DELETE', `/v2/book/${collectedBook}/collection`, { baseUrl, token });
    const write = await api('POST', `/v2/book/${collectedBook}/collection`, { baseUrl, token, form: { status: 'read', comment: 'kept across restarts' } });
    expect(write.status).toBe(201);
  }, 10 * 60_000);

  it('stops everything it started on Ctrl-C', async () => {
    await ctrlC(first!);
    expect(first!.output()).toContain('stopped.');
    // the gateway (both its ports), NATS and the database are all gone
    expect(await listening(ports)).toBe(false);
  }, 60_000);

  it('keeps the data across a restart and does not load the demo twice', async () => {
    second = npmStart(env);
    const printed = await waitForOutput(second, 'Press Ctrl-C to stop.', 2 * 60_000);
    expect(printed).not.toContain('empty database');
    // the signing keys survive too: the token from the first run still works
    const entry = await api('GET', `/v2/book/${collectedBook}/collection`, { baseUrl, token });
    expect(entry.status).toBe(200);
    expect(entry.body.comment).toBe('kept across restarts');
    await ctrlC(second);
    expect(second.output()).toContain('stopped.');
    expect(await listening(ports)).toBe(false);
  }, 3 * 60_000);
});
