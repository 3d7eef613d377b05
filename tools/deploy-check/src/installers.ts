import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { ensureKubeconform, Log, toolsBin, toolsDir, which } from '@plaza/stack';
import { crdSchema, standaloneSchema } from './schemas';

/** Pinned tool versions: every machine validates with the same ones. */
export const KUSTOMIZE_VERSION = 'v5.7.1';
export const DOCKER_COMPOSE_VERSION = 'v2.40.3';
/** PyPI package that ships the Kubernetes JSON schemas (v1.25 to v1.37) inside its wheel. */
export const KUBERNETES_VALIDATE_VERSION = '1.37.0';
/** Kubernetes versions the manifests must be valid for: the oldest supported (preStop `sleep`) and a recent one. */
export const KUBERNETES_VERSIONS = ['1.30.0', '1.35.0'];
/** Prometheus operator release whose CRDs (monitoring.coreos.com/v1) the monitoring manifests are validated against. */
export const PROMETHEUS_OPERATOR_VERSION = 'v0.85.0';

export { ensureKubeconform };

export function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): string {
  const result = spawnSync(cmd, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, encoding: 'utf8', input: opts.input, maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    throw new Error(`command failed: ${cmd} ${args.join(' ')}\n${result.stderr || result.stdout || result.error?.message}`);
  }
  return result.stdout;
}

function requireGo(what: string): string {
  const go = which('go');
  if (!go) throw new Error(`Go is needed to install ${what} (https://go.dev/dl)`);
  return go;
}

/** kustomize, pinned, in .tools/bin (`go install` from the Go module proxy, once). */
export function ensureKustomize(log: Log): string {
  const local = join(toolsBin(), 'kustomize');
  if (existsSync(local)) return local;
  log(`installing kustomize ${KUSTOMIZE_VERSION} with go install (one time)...`);
  mkdirSync(toolsBin(), { recursive: true });
  run(requireGo('kustomize'), ['install', `sigs.k8s.io/kustomize/kustomize/v5@${KUSTOMIZE_VERSION}`], { env: { GOBIN: toolsBin() } });
  return local;
}

/** How to get the resolved compose model: `docker compose config --format json` or its equal. */
export interface ComposeConfig {
  description: string;
  /**
   * Validates the file and returns its resolved model as JSON; throws with compose's message if
   * invalid. `profiles` (COMPOSE_PROFILES, `*` for all) adds the services of those profiles.
   */
  configJson(file: string, profiles?: string[]): string;
}

const profileEnv = (profiles: string[] = []) => ({ COMPOSE_PROFILES: profiles.join(',') });

/**
 * `docker compose config` where the docker CLI has its compose plugin. Elsewhere (CI has the
 * docker client but no plugin) tools/deploy-check/compose-config, built once into .tools/bin: a
 * few lines around compose-go, the loader `docker compose config` runs (schema validation,
 * interpolation, normalisation), at the version docker compose v2.40 uses; its JSON and its
 * error messages are the same. DEPLOY_CHECK_COMPOSE=docker builds the full docker compose CLI
 * from the Go module proxy instead (about eight minutes on a machine with empty Go caches).
 */
export function ensureCompose(log: Log): ComposeConfig {
  const docker = which('docker');
  if (docker && spawnSync(docker, ['compose', 'version'], { encoding: 'utf8' }).status === 0) {
    return {
      description: `docker compose ${run(docker, ['compose', 'version', '--short']).trim()}`,
      configJson: (file, profiles) => run(docker, ['compose', '-f', file, 'config', '--format', 'json'], { env: profileEnv(profiles) }),
    };
  }
  if (process.env.DEPLOY_CHECK_COMPOSE === 'docker') {
    const bin = ensureDockerComposeBuild(log);
    return { description: `docker-compose ${DOCKER_COMPOSE_VERSION} (built)`, configJson: (file, profiles) => run(bin, ['-f', file, 'config', '--format', 'json'], { env: profileEnv(profiles) }) };
  }
  const local = join(toolsBin(), 'compose-config');
  const source = join(__dirname, '..', 'compose-config');
  const changed = Math.max(...['main.go', 'go.mod', 'go.sum'].map((f) => statSync(join(source, f)).mtimeMs));
  if (!existsSync(local) || changed > statSync(local).mtimeMs) {
    log('building compose-config (compose-go, the loader of docker compose) from the Go module proxy (one time, under a minute)...');
    mkdirSync(toolsBin(), { recursive: true });
    run(requireGo('compose-config'), ['build', '-mod=readonly', '-buildvcs=false', '-trimpath', '-o', local, '.'], { cwd: source, env: { CGO_ENABLED: '0' } });
  }
  return { description: 'compose-config (compose-go v2.9.1)', configJson: (file, profiles) => run(local, [file], { env: profileEnv(profiles) }) };
}

/** The docker compose CLI itself, built from its release on the Go module proxy. */
function ensureDockerComposeBuild(log: Log): string {
  const local = join(toolsBin(), 'docker-compose');
  if (existsSync(local)) return local;
  const go = requireGo('docker compose');
  log(`building docker compose ${DOCKER_COMPOSE_VERSION} from the Go module proxy (one time, several minutes)...`);
  // `go install` refuses this module (its go.mod has exclude directives): build inside the exact
  // version downloaded from the proxy (checksummed by sum.golang.org)
  const info = JSON.parse(run(go, ['mod', 'download', '-json', `github.com/docker/compose/v2@${DOCKER_COMPOSE_VERSION}`])) as { Dir: string };
  const src = join(toolsDir(), 'src', `compose-${DOCKER_COMPOSE_VERSION}`);
  rmSync(src, { recursive: true, force: true });
  mkdirSync(join(toolsDir(), 'src'), { recursive: true });
  cpSync(info.Dir, src, { recursive: true });
  run('chmod', ['-R', 'u+w', src]);
  mkdirSync(toolsBin(), { recursive: true });
  const ldflags = `-w -X github.com/docker/compose/v2/internal.Version=${DOCKER_COMPOSE_VERSION}`;
  run(go, ['build', '-trimpath', '-buildvcs=false', '-ldflags', ldflags, '-o', local, './cmd'], { cwd: src, env: { CGO_ENABLED: '0' } });
  chmodSync(local, 0o755);
  rmSync(src, { recursive: true, force: true });
  return local;
}

function python(): string {
  const py = which('python3') ?? which('python');
  if (!py) throw new Error('python3 with pip is needed to fetch the Kubernetes JSON schemas (PyPI kubernetes-validate)');
  return py;
}

/** Folder of the schemas (as the wheel has them) for one Kubernetes version. */
function wheelSchemaDir(version: string): string {
  return join(toolsDir(), 'kubernetes-json-schema', `kubernetes-validate-${KUBERNETES_VALIDATE_VERSION}`, `v${version}-local-strict`);
}

/**
 * Offline Kubernetes JSON schemas for kubeconform. kubeconform fetches schemas from GitHub by
 * default, which CI cannot reach; the PyPI package kubernetes-validate carries the same
 * OpenAPI-derived schemas (strict variants: no unknown fields) for every Kubernetes minor from
 * 1.25. pip downloads the wheel once, the versions we validate against are unpacked into
 * .tools/kubernetes-json-schema, and each kind's schema is made self-contained on first use
 * (see standaloneSchema) in the layout kubeconform's -schema-location template expects.
 */
export function ensureSchemas(log: Log, versions = KUBERNETES_VERSIONS): void {
  const missing = versions.filter((v) => !existsSync(join(wheelSchemaDir(v), '_definitions.json')));
  if (missing.length === 0) return;
  log(`fetching Kubernetes JSON schemas (PyPI kubernetes-validate ${KUBERNETES_VALIDATE_VERSION}, one time)...`);
  const tmp = mkdtempSync(join(tmpdir(), 'plaza-k8s-schemas-'));
  try {
    const py = python();
    run(py, ['-m', 'pip', 'download', '--disable-pip-version-check', '--no-deps', '--only-binary=:all:', '-d', tmp, `kubernetes-validate==${KUBERNETES_VALIDATE_VERSION}`]);
    const wheel = readdirSync(tmp).find((f) => f.endsWith('.whl'));
    if (!wheel) throw new Error('pip downloaded no wheel of kubernetes-validate');
    const unpacked = join(tmp, 'unpacked');
    const members = missing.map((v) => `kubernetes_validate/kubernetes-json-schema/v${v}-local-strict/`);
    // a wheel is a zip: python's standard library unpacks just the folders we need
    run(py, ['-c', UNZIP_SCRIPT, join(tmp, wheel), unpacked, ...members]);
    for (const v of missing) {
      const from = join(unpacked, 'kubernetes_validate', 'kubernetes-json-schema', `v${v}-local-strict`);
      if (!existsSync(join(from, '_definitions.json'))) throw new Error(`kubernetes-validate ${KUBERNETES_VALIDATE_VERSION} has no schemas for Kubernetes ${v}`);
      const to = wheelSchemaDir(v);
      rmSync(to, { recursive: true, force: true });
      mkdirSync(join(to, '..'), { recursive: true });
      renameSync(from, to);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const UNZIP_SCRIPT = `
import sys, zipfile
wheel, dest, prefixes = sys.argv[1], sys.argv[2], sys.argv[3:]
with zipfile.ZipFile(wheel) as z:
    z.extractall(dest, [n for n in z.namelist() if any(n.startswith(p) for p in prefixes)])
`;

const standaloneDir = () => join(toolsDir(), 'kubernetes-json-schema', `standalone-${KUBERNETES_VALIDATE_VERSION}`);

/** Where kubeconform looks: {{ .NormalizedKubernetesVersion }} is `v1.30.0`. */
export function schemaLocation(): string {
  return join(standaloneDir(), '{{ .NormalizedKubernetesVersion }}', '{{ .ResourceKind }}{{ .KindSuffix }}.json');
}

/** kubeconform's schema file name for a resource: `deployment-apps-v1.json`, `service-v1.json`. */
export function schemaFileName(apiVersion: string, kind: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const groupPart = group ? `-${group.split('.')[0]}` : '';
  return `${kind.toLowerCase()}${groupPart}-${version}.json`;
}

/**
 * Writes the self-contained schema of each kind used (once per version and kind). A kind the
 * wheel has no schema for is left out, and kubeconform then fails on it as a missing schema.
 */
export function prepareStandaloneSchemas(kinds: Array<{ apiVersion: string; kind: string }>, versions = KUBERNETES_VERSIONS): void {
  for (const version of versions) {
    const outDir = join(standaloneDir(), `v${version}`);
    mkdirSync(outDir, { recursive: true });
    let definitions: Record<string, unknown> | undefined;
    for (const { apiVersion, kind } of kinds) {
      const file = schemaFileName(apiVersion, kind);
      const out = join(outDir, file);
      const source = join(wheelSchemaDir(version), file);
      if (existsSync(out) || !existsSync(source)) continue;
      definitions ??= (JSON.parse(readFileSync(join(wheelSchemaDir(version), '_definitions.json'), 'utf8')) as { $defs: Record<string, unknown> }).$defs;
      const schema = standaloneSchema(JSON.parse(readFileSync(source, 'utf8')) as Record<string, unknown>, definitions);
      writeFileSync(out, JSON.stringify(schema));
    }
  }
}

interface Crd {
  spec: { group: string; names: { kind: string }; versions: Array<{ name: string; schema?: { openAPIV3Schema: Record<string, unknown> } }> };
}

const crdSchemaDir = () => join(toolsDir(), 'kubernetes-json-schema', `prometheus-operator-${PROMETHEUS_OPERATOR_VERSION}`);

/** Where kubeconform finds the custom resources' schemas (after the Kubernetes ones: -schema-location twice). */
export function crdSchemaLocation(): string {
  return join(crdSchemaDir(), '{{ .ResourceKind }}{{ .KindSuffix }}.json');
}

/**
 * Schemas of the Prometheus operator's kinds (PodMonitor, PrometheusRule, ...), which the
 * Kubernetes schemas lack. The operator's Go module, fetched once with `go mod download` from the
 * Go module proxy (checksummed by sum.golang.org, like kustomize), carries its CRD manifests;
 * each CRD version's openAPIV3Schema becomes a strict JSON schema (crdSchema) that kubeconform
 * reads from a second -schema-location. The CRDs do not depend on the Kubernetes version.
 * A custom kind of another group still has no schema, and kubeconform fails on it.
 */
export function ensureCrdSchemas(log: Log, kinds: Array<{ apiVersion: string; kind: string }>): string[] {
  const wanted = kinds.filter((k) => k.apiVersion.startsWith('monitoring.coreos.com/'));
  const missing = wanted.filter((k) => !existsSync(join(crdSchemaDir(), schemaFileName(k.apiVersion, k.kind))));
  if (missing.length > 0) {
    log(`fetching the Prometheus operator's CRDs (Go module prometheus-operator ${PROMETHEUS_OPERATOR_VERSION}, one time)...`);
    const info = JSON.parse(run(requireGo('the Prometheus operator CRDs'), ['mod', 'download', '-json', `github.com/prometheus-operator/prometheus-operator@${PROMETHEUS_OPERATOR_VERSION}`])) as { Dir: string };
    const crds = join(info.Dir, 'example', 'prometheus-operator-crd');
    mkdirSync(crdSchemaDir(), { recursive: true });
    for (const { apiVersion, kind } of missing) {
      const [group, version] = apiVersion.split('/');
      // one CRD per file, monitoring.coreos.com_<plural>.yaml; find it by kind without parsing the large ones
      const candidates = readdirSync(crds).filter((f) => f.endsWith('.yaml') && new RegExp(`^\\s+kind: ${kind}$`, 'm').test(readFileSync(join(crds, f), 'utf8')));
      const crd = candidates.map((f) => load(readFileSync(join(crds, f), 'utf8')) as Crd).find((c) => c.spec.group === group && c.spec.names.kind === kind);
      const schema = crd?.spec.versions.find((v) => v.name === version)?.schema?.openAPIV3Schema;
      if (!schema) throw new Error(`prometheus-operator ${PROMETHEUS_OPERATOR_VERSION} has no CRD for ${apiVersion} ${kind}`);
      writeFileSync(join(crdSchemaDir(), schemaFileName(apiVersion, kind)), JSON.stringify(crdSchema(schema)));
    }
  }
  return wanted.map((k) => k.kind);
}
