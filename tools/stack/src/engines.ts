import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { toolsBin, toolsDir, workspaceRoot } from './paths';

/** Pinned engine versions (docs/ENGINES.md explains the choice). */
export const FERRETDB_VERSION = 'v1.24.0';
/** Recorded beside the binary; a binary built without today's patch is rebuilt. */
const FERRETDB_BUILD = `${FERRETDB_VERSION}+id-index-patch`;
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

function requireGo(): string {
  const go = which('go');
  if (!go) throw new Error('Go is needed to install the local engines (https://go.dev/dl); or set MONGO_URL and NATS_URL');
  return go;
}

/**
 * nats-server: on PATH, else in .tools/bin, else `go install` it there.
 */
export function ensureNatsServer(log: Log): string {
  const onPath = which('nats-server');
  if (onPath) return onPath;
  const local = join(toolsBin(), 'nats-server');
  if (existsSync(local)) return local;
  log(`installing nats-server ${NATS_SERVER_VERSION} with go install (one time)...`);
  mkdirSync(toolsBin(), { recursive: true });
  run(requireGo(), ['install', `github.com/nats-io/nats-server/v2@${NATS_SERVER_VERSION}`], { env: { GOBIN: toolsBin() } });
  return local;
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
export function ensureFerretDb(log: Log): string {
  const onPath = which('ferretdb');
  if (onPath) return onPath;
  const local = join(toolsBin(), 'ferretdb');
  const stamp = join(toolsBin(), 'ferretdb.build');
  if (existsSync(local) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === FERRETDB_BUILD) return local;
  const go = requireGo();
  log(`building FerretDB ${FERRETDB_VERSION} from the Go module proxy (one time, about two minutes)...`);
  const info = JSON.parse(run(go, ['mod', 'download', '-json', `github.com/FerretDB/FerretDB@${FERRETDB_VERSION}`])) as { Dir: string };
  const src = join(toolsDir(), 'src', `ferretdb-${FERRETDB_VERSION}`);
  rmSync(src, { recursive: true, force: true });
  mkdirSync(join(toolsDir(), 'src'), { recursive: true });
  cpSync(info.Dir, src, { recursive: true });
  execFileSync('chmod', ['-R', 'u+w', src]);
  writeFileSync(join(src, 'build', 'version', 'version.txt'), `${FERRETDB_VERSION}\n`);
  const metadata = join(src, 'internal', 'backends', 'sqlite', 'metadata', 'metadata.go');
  const original = readFileSync(metadata, 'utf8');
  const patched = original.replace(`IDColumn = DefaultColumn + "->'$._id'"`, 'IDColumn = DefaultColumn + `->"_id"`');
  if (patched === original) throw new Error('FerretDB source changed: the _id index patch no longer applies');
  writeFileSync(metadata, patched);
  mkdirSync(toolsBin(), { recursive: true });
  run(go, ['build', '-trimpath', '-o', local, './cmd/ferretdb'], { cwd: src, env: { CGO_ENABLED: '0' } });
  chmodSync(local, 0o755);
  writeFileSync(stamp, `${FERRETDB_BUILD}\n`);
  rmSync(src, { recursive: true, force: true });
  return local;
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

export function engineVersion(binary: string): string {
  const out = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  const text = `${out.stdout ?? ''}${out.stderr ?? ''}`;
  const m = /v?\d+\.\d+\.\d+/.exec(text);
  return m ? m[0] : 'unknown';
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
