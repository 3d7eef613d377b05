import { execFile, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { toolsBin, toolsDir, workspaceRoot } from './paths';
import { allOrAbort, InterruptedError } from './processes';

/** Pinned engine versions (docs/ENGINES.md explains the choice). */
export const FERRETDB_VERSION = 'v1.24.0';
/** Recorded beside the binary; a binary built without today's patch is rebuilt. */
export const FERRETDB_BUILD = `${FERRETDB_VERSION}+id-index-patch`;
export const NATS_SERVER_VERSION = 'v2.12.15';
export const KUBECONFORM_VERSION = 'v0.7.0';

export type Log = (line: string) => void;

export function which(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, command);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const result = spawnSync(cmd, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`command failed: ${cmd} ${args.join(' ')}\n${result.stderr || result.stdout || result.error?.message}`);
  }
  return result.stdout;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Aborting ends the command and everything it started (SIGTERM to its process group, SIGKILL 5 s later). */
  signal?: AbortSignal;
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Runs a command to completion as a child process without blocking the event loop; resolves with
 * its stdout. The command gets a process group of its own, so an abort (Ctrl-C during start-up)
 * ends it together with what it started (`go build`'s compilers and linker).
 */
export function runCommand(cmd: string, args: string[], opts: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new InterruptedError());
    const child = spawn(cmd, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    let killTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      killGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), 5000);
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      opts.signal?.removeEventListener('abort', onAbort);
      if (killTimer) clearTimeout(killTimer);
    };
    child.once('error', (err) => {
      done();
      reject(new Error(`cannot run ${cmd}: ${err.message}`));
    });
    child.once('close', (code, signal) => {
      done();
      if (opts.signal?.aborted) reject(new InterruptedError());
      else if (code === 0) resolve(stdout);
      else reject(new Error(`command failed (${code ?? signal}): ${cmd} ${args.join(' ')}\n${(stderr || stdout).trim()}`));
    });
  });
}

/** Logs a line every `everyMs` while `work` runs, so a long build is visibly alive. */
async function withHeartbeat<T>(log: Log, label: string, work: Promise<T>, everyMs = 20_000): Promise<T> {
  const started = Date.now();
  const timer = setInterval(() => log(`  ${label}: still working (${Math.round((Date.now() - started) / 1000)} s)...`), everyMs);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}

function requireGo(): string {
  const go = which('go');
  if (!go) throw new Error('Go is needed to install the local engines (https://go.dev/dl); or set MONGO_URL and NATS_URL');
  return go;
}

/** A scratch folder for one install, beside the binaries so that the final rename stays on one file system. */
async function scratchDir(name: string): Promise<string> {
  const parent = join(toolsDir(), 'build');
  await mkdir(parent, { recursive: true });
  return mkdtemp(join(parent, `${name}-`));
}

// ---------------------------------------------------------------------------------------------
// Discovery: what is already on this machine (nothing is installed or started)

/** The database engine the launcher starts: `mongod` (on PATH) or FerretDB. */
export interface DatabaseEngine {
  kind: 'mongod' | 'ferretdb';
  binary: string;
}

/** `nats-server` on PATH, else the project's own in .tools/bin; undefined when it must be installed. */
export function findNatsServer(): string | undefined {
  const onPath = which('nats-server');
  if (onPath) return onPath;
  const local = join(toolsBin(), 'nats-server');
  return existsSync(local) ? local : undefined;
}

/** `ferretdb` on PATH, else the project's own build in .tools/bin if it carries today's patch (its stamp); else undefined. */
export function findFerretDb(): string | undefined {
  const onPath = which('ferretdb');
  if (onPath) return onPath;
  const local = join(toolsBin(), 'ferretdb');
  const stamp = join(toolsBin(), 'ferretdb.build');
  if (existsSync(local) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === FERRETDB_BUILD) return local;
  return undefined;
}

/** A `mongod` on PATH wins over FerretDB; undefined when FerretDB must be built. */
export function findDatabaseEngine(): DatabaseEngine | undefined {
  const mongod = which('mongod');
  if (mongod) return { kind: 'mongod', binary: mongod };
  const ferretdb = findFerretDb();
  return ferretdb ? { kind: 'ferretdb', binary: ferretdb } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Installs: child processes (never spawnSync), each into a scratch folder and renamed into
// .tools/bin when complete, so an interrupted or concurrent install never leaves half a binary.

export interface InstallOptions {
  signal?: AbortSignal;
}

/** nats-server: on PATH, else in .tools/bin, else `go install` it there. */
export async function installNatsServer(log: Log, opts: InstallOptions = {}): Promise<string> {
  const found = findNatsServer();
  if (found) return found;
  const go = requireGo();
  log(`installing nats-server ${NATS_SERVER_VERSION} with go install (one time)...`);
  const work = await scratchDir('nats-server');
  try {
    await withHeartbeat(
      log,
      'nats-server',
      runCommand(go, ['install', `github.com/nats-io/nats-server/v2@${NATS_SERVER_VERSION}`], { env: { GOBIN: work }, signal: opts.signal }),
    );
    await mkdir(toolsBin(), { recursive: true });
    const local = join(toolsBin(), 'nats-server');
    await rename(join(work, 'nats-server'), local);
    return local;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * FerretDB 1.24 with its SQLite backend. `go install …@v1.24.0` cannot be used as is: the module
 * proxy refuses the `@v/list` query that `go install` makes for deprecation notices, and a build
 * outside FerretDB's own tooling panics at start for want of `build/version/version.txt`. So we
 * fetch the exact module version from the proxy (checksummed by sum.golang.org), add that
 * version file, and `go build` it into .tools/bin.
 *
 * One line is patched (see docs/ENGINES.md): FerretDB 1.24's SQLite backend creates the `_id`
 * index on `_ferretdb_sjson->"_id"` but filters with `_ferretdb_sjson->'$._id'`, an expression
 * SQLite does not match to that index, so every lookup, update and delete by `_id` scanned the
 * whole table. Both expressions name the same JSON path; the patch makes the filter use the
 * indexed one.
 */
export async function installFerretDb(log: Log, opts: InstallOptions = {}): Promise<string> {
  const found = findFerretDb();
  if (found) return found;
  const go = requireGo();
  const { signal } = opts;
  log(`building FerretDB ${FERRETDB_VERSION} from the Go module proxy (one time: seconds with a warm Go build cache, about two minutes without)...`);
  const work = await scratchDir('ferretdb');
  try {
    const build = async () => {
      const info = JSON.parse(await runCommand(go, ['mod', 'download', '-json', `github.com/FerretDB/FerretDB@${FERRETDB_VERSION}`], { signal })) as { Dir: string };
      const src = join(work, 'src');
      await cp(info.Dir, src, { recursive: true });
      await runCommand('chmod', ['-R', 'u+w', src], { signal });
      await writeFile(join(src, 'build', 'version', 'version.txt'), `${FERRETDB_VERSION}\n`);
      const metadata = join(src, 'internal', 'backends', 'sqlite', 'metadata', 'metadata.go');
      const original = await readFile(metadata, 'utf8');
      const patched = original.replace(`IDColumn = DefaultColumn + "->'$._id'"`, 'IDColumn = DefaultColumn + `->"_id"`');
      if (patched === original) throw new Error('FerretDB source changed: the _id index patch no longer applies');
      await writeFile(metadata, patched);
      await runCommand(go, ['build', '-trimpath', '-o', join(work, 'ferretdb'), './cmd/ferretdb'], { cwd: src, env: { CGO_ENABLED: '0' }, signal });
    };
    await withHeartbeat(log, 'FerretDB', build());
    await chmod(join(work, 'ferretdb'), 0o755);
    await mkdir(toolsBin(), { recursive: true });
    const local = join(toolsBin(), 'ferretdb');
    await rename(join(work, 'ferretdb'), local);
    await writeFile(join(work, 'ferretdb.build'), `${FERRETDB_BUILD}\n`);
    await rename(join(work, 'ferretdb.build'), join(toolsBin(), 'ferretdb.build'));
    return local;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The database engine: `mongod` on PATH, else FerretDB (found or built). */
export async function installDatabaseEngine(log: Log, opts: InstallOptions = {}): Promise<DatabaseEngine> {
  const found = findDatabaseEngine();
  if (found) return found;
  return { kind: 'ferretdb', binary: await installFerretDb(log, opts) };
}

export interface EngineBinaries {
  database?: DatabaseEngine;
  natsServer?: string;
}

/**
 * Finds or installs the engines (both installs side by side, as child processes). Nothing is
 * started here: the launcher starts the engines, and waits for their ports, only once both are
 * installed, so no port wait can run out while a build is still going. A failed install aborts
 * the other one; so does `signal`.
 */
export async function installEngines(log: Log, want: { database: boolean; nats: boolean }, signal?: AbortSignal): Promise<EngineBinaries> {
  const [database, natsServer] = await allOrAbort<[DatabaseEngine | undefined, string | undefined]>(
    [
      async (s) => (want.database ? installDatabaseEngine(log, { signal: s }) : undefined),
      async (s) => (want.nats ? installNatsServer(log, { signal: s }) : undefined),
    ],
    signal,
  );
  return { database, natsServer };
}

/**
 * nats-server, installed synchronously: for scripts that wait on nothing else meanwhile
 * (deploy-check). It blocks the event loop for the whole install; the launcher uses installEngines.
 */
export function ensureNatsServer(log: Log): string {
  const found = findNatsServer();
  if (found) return found;
  log(`installing nats-server ${NATS_SERVER_VERSION} with go install (one time)...`);
  mkdirSync(join(toolsDir(), 'build'), { recursive: true });
  const work = mkdtempSync(join(toolsDir(), 'build', 'nats-server-'));
  try {
    run(requireGo(), ['install', `github.com/nats-io/nats-server/v2@${NATS_SERVER_VERSION}`], { env: { GOBIN: work } });
    mkdirSync(toolsBin(), { recursive: true });
    const local = join(toolsBin(), 'nats-server');
    renameSync(join(work, 'nats-server'), local);
    return local;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** kubeconform, for validating the Kubernetes manifests in CI. */
export function ensureKubeconform(log: Log): string {
  const onPath = which('kubeconform');
  if (onPath) return onPath;
  const local = join(toolsBin(), 'kubeconform');
  if (existsSync(local)) return local;
  log(`installing kubeconform ${KUBECONFORM_VERSION} with go install (one time)...`);
  mkdirSync(toolsBin(), { recursive: true });
  run(requireGo(), ['install', `github.com/yannh/kubeconform/cmd/kubeconform@${KUBECONFORM_VERSION}`], { env: { GOBIN: toolsBin() } });
  return local;
}

function versionIn(text: string): string {
  const m = /v?\d+\.\d+\.\d+/.exec(text);
  return m ? m[0] : 'unknown';
}

export function engineVersion(binary: string): string {
  const out = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return versionIn(`${out.stdout ?? ''}${out.stderr ?? ''}`);
}

/** engineVersion without blocking the event loop. */
export function readEngineVersion(binary: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(binary, ['--version'], { encoding: 'utf8', timeout: 10_000 }, (_err, stdout, stderr) => resolve(versionIn(`${stdout ?? ''}${stderr ?? ''}`)));
  });
}

/** The fuzzer's pinned Python requirements (schemathesis), installed into a venv under .tools. */
export const FUZZ_REQUIREMENTS = () => join(workspaceRoot(), 'tools', 'fuzz', 'requirements.txt');
export const fuzzVenv = () => join(toolsDir(), 'fuzz-venv');

/**
 * schemathesis (the `fuzz` step of npm test): a venv made with `python3 -m venv` in
 * .tools/fuzz-venv and `pip install -r tools/fuzz/requirements.txt` from PyPI. Reused while
 * the requirements file is unchanged (its hash is stamped beside the venv).
 */
export function ensureSchemathesis(log: Log): string {
  const venv = fuzzVenv();
  const binary = join(venv, 'bin', 'schemathesis');
  const stamp = join(venv, 'requirements.sha256');
  const wanted = createHash('sha256').update(readFileSync(FUZZ_REQUIREMENTS())).digest('hex');
  if (existsSync(binary) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === wanted) return binary;
  const python = which('python3');
  if (!python) throw new Error('python3 (3.9 or later, with venv) is needed for the API fuzzer (tools/fuzz)');
  log('installing the API fuzzer (schemathesis) into .tools/fuzz-venv (one time)...');
  if (!existsSync(join(venv, 'bin', 'python'))) {
    mkdirSync(toolsDir(), { recursive: true });
    run(python, ['-m', 'venv', venv]);
  }
  run(join(venv, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', FUZZ_REQUIREMENTS()]);
  writeFileSync(stamp, `${wanted}\n`);
  return binary;
}
