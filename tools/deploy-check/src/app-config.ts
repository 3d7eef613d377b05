import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ComposeService } from './checks';
import type { K8sObject } from './manifests';

/**
 * The environment each app gets from the manifests or the compose file, checked against the
 * app's own config class (the one it validates at start-up): every name set must be a setting
 * the app reads (a typo would silently fall back to a default), and the app must accept the
 * values (a wrong one would crash it at boot in the cluster) and reads them as given (a
 * `false` read as true is a silent misconfiguration). Secrets are stood in for by placeholders
 * of the right shape. Needs the built apps (apps/<app>/dist).
 */

type ConfigClass = new () => object;
interface Loader {
  cls: ConfigClass;
  loadConfig: (cls: ConfigClass, env: Record<string, string>) => object;
}

export function loadAppConfig(root: string, app: string): Loader {
  const dir = join(root, 'apps', app, 'dist', 'config');
  const file = join(dir, `${app}.config.js`);
  if (!existsSync(file)) throw new Error(`${file} is missing: build the apps first (npx tsc -b)`);
  const exports = require(file) as Record<string, unknown>;
  const cls = Object.values(exports).find((v): v is ConfigClass => typeof v === 'function' && /Config$/.test(v.name));
  if (!cls) throw new Error(`${file} exports no *Config class`);
  // the same @plaza/platform (and class-validator) the app itself resolves
  const platform = require(require.resolve('@plaza/platform', { paths: [dir] })) as { loadConfig: Loader['loadConfig'] };
  return { cls, loadConfig: platform.loadConfig };
}

const SECRET_PLACEHOLDER = 'placeholder-secret-0123456789abcdef';
const MONGO_PLACEHOLDER = 'mongodb://user:password@mongo-0.mongo:27017/db?replicaSet=rs0&authSource=db';

export function placeholderFor(name: string): string {
  return /MONGO_URL$/.test(name) ? MONGO_PLACEHOLDER : SECRET_PLACEHOLDER;
}

/** The variables a Deployment's first container gets, in the order Kubernetes applies them. */
export function k8sEnv(objects: K8sObject[], app: string): Record<string, string> {
  const d = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === app);
  const c = d?.spec?.template?.spec.containers[0];
  if (!c) throw new Error(`no Deployment ${app}`);
  const env: Record<string, string> = {};
  for (const ref of c.envFrom ?? []) {
    const name = ref.configMapRef?.name;
    const map = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === name);
    if (name && !map) throw new Error(`${app}: ConfigMap ${name} is not in this render`);
    Object.assign(env, map?.data ?? {});
  }
  for (const e of c.env ?? []) env[e.name] = e.value ?? placeholderFor(e.name);
  return env;
}

export function composeEnv(service: ComposeService): Record<string, string> {
  return Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, v ?? '']));
}

/**
 * Problems with `env` for `app`: names its config does not read (the image's own generic
 * defaults, `<SERVICE>_MONGO_URL`, the OpenTelemetry SDK's standard `OTEL_*` variables, which
 * the SDK reads itself, and `NODE_OPTIONS`, which node reads, aside), and what its config rejects.
 */
export function checkAppEnv(loader: Loader, app: string, env: Record<string, string>, imageEnv: Record<string, string>): string[] {
  const known = new Set(Object.keys(new loader.cls()));
  const problems: string[] = [];
  for (const name of Object.keys(env)) {
    if (!known.has(name) && name !== `${app.toUpperCase()}_MONGO_URL` && !name.startsWith('OTEL_') && name !== 'NODE_OPTIONS' && !(name in imageEnv)) {
      problems.push(`${app}: sets ${name}, which ${loader.cls.name} does not read`);
    }
  }
  const merged = { ...imageEnv, ...env };
  let config: Record<string, unknown>;
  try {
    config = loader.loadConfig(loader.cls, merged) as Record<string, unknown>;
  } catch (err) {
    problems.push(`${app}: ${loader.cls.name} rejects the environment: ${(err as Error).message}`);
    return problems;
  }
  // the app must read what is set: `REQUIRE_HTTPS=false` has to come out false
  for (const [name, raw] of Object.entries(merged)) {
    if (!known.has(name) || raw === '') continue;
    const got = config[name];
    const expected = typeof got === 'boolean' ? BOOLEANS[raw.trim().toLowerCase()] : typeof got === 'number' ? Number(raw) : raw;
    if (got !== expected) problems.push(`${app}: ${name}=${raw} is read as ${JSON.stringify(got)} by ${loader.cls.name}`);
  }
  return problems;
}

const BOOLEANS: Record<string, boolean | undefined> = { true: true, '1': true, yes: true, on: true, false: false, '0': false, no: false, off: false };
