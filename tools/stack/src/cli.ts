import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { ensureSchemathesis, installEngines } from './engines';
import { Stack } from './stack';
import { dataDir, workspaceRoot } from './paths';
import { InterruptedError, portAcceptsConnections } from './processes';
import { NATS_AUTH_FILES, renderNatsAuthorization } from './nats-auth';

const say = (line = '') => process.stdout.write(`${line}\n`);

function databaseName(url: string, fallback: string): string {
  const path = url.split('?')[0].replace(/^mongodb(\+srv)?:\/\/[^/]*/, '').replace(/^\//, '');
  return path || fallback;
}

async function identityIsEmpty(mongoUrl: string): Promise<boolean> {
  const url = process.env.IDENTITY_MONGO_URL || mongoUrl;
  const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 5000 });
  try {
    return (await client.db(databaseName(url, 'identity')).collection('users').estimatedDocumentCount()) === 0;
  } finally {
    await client.close();
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}, output: 'inherit' | 'ignore' = 'inherit', onSpawn?: (child: ChildProcess) => void): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', output, 'inherit'], env: { ...process.env, ...env }, cwd: workspaceRoot() });
    onSpawn?.(child);
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

/** Ends a child (the demo import) and waits for it: SIGTERM, SIGKILL after 5 s. */
async function endChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

async function ensurePortFree(port: number, name: string, variable: string): Promise<void> {
  if (await portAcceptsConnections(port)) {
    throw new Error(`port ${port} (${name}) is already in use: stop what uses it, or set ${variable}`);
  }
}

/** `npm start`: engines, services and gateway as separate processes; demo data on first run. */
async function start(): Promise<void> {
  const dir = dataDir();
  mkdirSync(dir, { recursive: true });
  const port = Number(process.env.PORT || 8080);
  const natsPort = Number(process.env.NATS_PORT || 4222);
  const mongoPort = Number(process.env.MONGO_PORT || 27017);
  const adminPort = Number(process.env.ADMIN_PORT || 9464);
  await ensurePortFree(port, 'gateway', 'PORT');
  await ensurePortFree(adminPort, 'gateway admin', 'ADMIN_PORT');
  if (!process.env.NATS_URL) await ensurePortFree(natsPort, 'NATS', 'NATS_PORT or NATS_URL');
  if (!process.env.MONGO_URL) await ensurePortFree(mongoPort, 'database', 'MONGO_PORT or MONGO_URL');

  const started = Date.now();
  say('starting the engines, the services and the gateway...');
  // Ctrl-C (or SIGTERM, SIGHUP) at any point stops everything started so far: during start-up through the
  // abort signal (Stack.start's clean-up), afterwards by stopping the stack and the demo import
  const startup = new AbortController();
  let stack: Stack | undefined;
  let importer: ChildProcess | undefined;
  let stopping = false;
  const shutdown = async () => {
    await endChild(importer);
    await stack?.stop();
    say('stopped.');
    process.exit(0);
  };
  const onSignal = () => {
    if (stopping) return;
    stopping = true;
    say('\nstopping...');
    if (stack) void shutdown();
    else startup.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // the terminal closed: stop all the same (its output may be gone, so a failed write is no reason to stop stopping)
  process.on('SIGHUP', onSignal);
  process.stdout.on('error', () => undefined);

  try {
    stack = await Stack.start({
      dataDir: dir,
      gatewayPort: port,
      adminPort,
      gatewayHost: process.env.HOST || '127.0.0.1',
      natsPort,
      mongoPort,
      mongoUrl: process.env.MONGO_URL || undefined,
      natsUrl: process.env.NATS_URL || undefined,
      log: (line) => say(line),
      signal: startup.signal,
    });
  } catch (err) {
    // Stack.start has stopped whatever it had started
    if (err instanceof InterruptedError || startup.signal.aborted) {
      say('stopped.');
      process.exit(130);
    }
    throw new Error(`${(err as Error).message}\nstart-up failed; everything it had started is stopped. Logs: ${join(dir, 'logs')}`);
  }
  if (stopping) {
    // the signal came as the start finished
    await shutdown();
    return;
  }
  say(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s (${Object.entries(stack.versions()).map(([k, v]) => `${k} ${v}`).join(', ')})`);

  const demo = await import('@plaza/demo');
  try {
    if (await identityIsEmpty(stack.mongoUrl)) {
      const file = join(dir, 'demo-catalogue.ndjson');
      say('empty database: generating and loading the demo catalogue...');
      const counts = await demo.writeCatalogue(file);
      say(`  ${Object.entries(counts).map(([k, n]) => `${k} ${n}`).join(', ')}`);
      if (stopping) return;
      // the importer prints its own progress (a line rewritten in a terminal, periodic lines in a log)
      const importerMain = join(workspaceRoot(), 'apps/importer/dist/main.js');
      // as the importer's NATS user on the stack's own NATS; on a NATS_URL given, with what the environment says
      const code = await run(process.execPath, [importerMain, file], stack.importerEnv(), 'inherit', (child) => (importer = child));
      importer = undefined;
      if (stopping) return;
      if (code !== 0) say(`the demo import reported problems (exit ${code}); the stack keeps running`);
    }
  } catch (err) {
    // a Ctrl-C meanwhile ends what was in flight; shutdown() reports and exits
    if (stopping) return;
    await endChild(importer);
    await stack.stop();
    throw new Error(`${(err as Error).message}\nstart-up failed; everything it had started is stopped. Logs: ${join(dir, 'logs')}`);
  }
  if (stopping) return;

  say('');
  say(`Plaza API is up at ${stack.baseUrl}/v2   (health: ${stack.baseUrl}/ready)`);
  say(`Demo users (password "${demo.DEMO_PASSWORD}"): ${demo.DEMO_USERS.map((u) => `${u.uid} (id ${u.id})`).join(', ')}`);
  say('Demo apps:');
  for (const app of demo.DEMO_APPS) {
    const secret = 'client_secret' in app ? `secret ${app.client_secret}` : 'public client, use PKCE';
    say(`  ${app.client_id.padEnd(14)} tier ${app.tier.padEnd(8)} ${secret}`);
  }
  say('Try:');
  say(`  curl -s -d grant_type=password -d client_id=demo-premium -d client_secret=demo-premium-secret -d username=${demo.DEMO_USERS[0].uid} -d password=${demo.DEMO_PASSWORD} ${stack.baseUrl}/auth2/token`);
  say(`  curl -s '${stack.baseUrl}/v2/book/search?q=%E6%98%A5%E5%A4%A9&count=2'`);
  say(`Logs: ${join(dir, 'logs')}   Data: ${dir}   Press Ctrl-C to stop.`);
}

/** Installs what the tests and `npm start` need into .tools (once; later runs reuse it). */
async function setup(): Promise<void> {
  const interrupted = new AbortController();
  const onSignal = () => interrupted.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const { database, natsServer } = await installEngines(say, { database: !process.env.MONGO_URL, nats: !process.env.NATS_URL }, interrupted.signal);
    if (natsServer) say(`nats-server: ${natsServer}`);
    if (database) say(`database: ${database.binary}`);
  } catch (err) {
    if (err instanceof InterruptedError) process.exit(130);
    throw err;
  }
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  say(`fuzzer: ${ensureSchemathesis(say)}`);
}

interface Step {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** A preparation step: its output is not shown and it is not listed in the summary unless it fails. */
  quiet?: boolean;
}

/** `npm test`: every test tier in order, with a summary. PLAZA_TEST_STEPS=unit,e2e runs a subset. */
async function test(): Promise<void> {
  const root = workspaceRoot();
  const jest = join(root, 'node_modules/jest/bin/jest.js');
  const steps: Step[] = [
    { name: 'setup', command: process.execPath, args: [join(root, 'tools/stack/dist/cli.js'), 'setup'] },
    // the module-boundary rule reads Nx's cached project graph and silently skips itself without one
    { name: 'graph', command: process.execPath, args: [join(root, 'node_modules/nx/dist/bin/nx.js'), 'show', 'projects'], env: { NX_DAEMON: 'false' }, quiet: true },
    { name: 'lint', command: process.execPath, args: [join(root, 'node_modules/eslint/bin/eslint.js'), '--quiet', 'apps', 'libs', 'tools'] },
    // the builds leave out specs and jest strips types without checking them: this checks all test code too
    { name: 'types', command: process.execPath, args: [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.typecheck.json')] },
    { name: 'unit', command: process.execPath, args: [jest, '-c', join(root, 'jest.config.js')] },
    { name: 'deploy', command: process.execPath, args: [join(root, 'tools/deploy-check/dist/main.js')] },
    { name: 'e2e', command: process.execPath, args: [jest, '-c', join(root, 'apps/api-e2e/jest.config.js')] },
    // the suites that reach an engine-specific branch, or write, again with the services on the MongoDB branch (docs/ENGINES.md)
    { name: 'e2e-mongodb', command: process.execPath, args: [jest, '-c', join(root, 'apps/api-e2e/jest.mongodb.config.js')] },
    // schemathesis against /v2/openapi.json on a stack of its own (docs/RELIABILITY-fuzz.md)
    { name: 'fuzz', command: process.execPath, args: [jest, '-c', join(root, 'apps/api-e2e/jest.fuzz.config.js')] },
    { name: 'faults', command: process.execPath, args: [jest, '-c', join(root, 'apps/api-e2e/jest.faults.config.js')] },
    { name: 'start', command: process.execPath, args: [jest, '-c', join(root, 'apps/api-e2e/jest.start.config.js')] },
    // the benchmark's quick mode as a smoke test: every scenario runs and every body is checked, no targets
    { name: 'bench', command: process.execPath, args: [join(root, 'tools/bench/dist/main.js'), '--quick'] },
  ];
  const only = process.env.PLAZA_TEST_STEPS?.split(',').map((s) => s.trim());
  const results: Array<{ name: string; code: number; seconds: number }> = [];
  for (const step of steps) {
    if (only && !only.includes(step.name)) continue;
    if (!step.quiet) say(`\n=== ${step.name} ===`);
    const t = Date.now();
    const code = await run(step.command, step.args, step.env, step.quiet ? 'ignore' : 'inherit');
    if (!step.quiet || code !== 0) results.push({ name: step.name, code, seconds: Math.round((Date.now() - t) / 1000) });
  }
  say('\n=== summary ===');
  for (const r of results) say(`${r.code === 0 ? 'PASS' : 'FAIL'}  ${r.name.padEnd(10)} ${r.seconds}s`);
  process.exit(results.every((r) => r.code === 0) ? 0 : 1);
}

/** `cli.js nats-auth`: writes the NATS users and permissions (nats-auth.ts) into the deployment files that carry them. */
async function natsAuth(): Promise<void> {
  const text = renderNatsAuthorization();
  for (const file of NATS_AUTH_FILES) {
    writeFileSync(join(workspaceRoot(), file), text);
    say(`wrote ${file}`);
  }
}

const command = process.argv[2];
const commands: Record<string, () => Promise<void>> = { start, test, setup, 'nats-auth': natsAuth };
if (!commands[command]) {
  process.stderr.write('usage: cli.js start|test|setup|nats-auth\n');
  process.exit(2);
}
commands[command]().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
});
