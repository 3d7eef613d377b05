import { APP_V8_FLAGS, GATEWAY_V8_FLAGS } from '@plaza/stack';
import type { Container, K8sObject, PodSpec, Probe } from './manifests';

/**
 * The rules the deployment files must keep, as pure functions over parsed objects: each returns
 * the problems it finds (empty = pass), so they are unit-tested on small fixtures and run in CI
 * on the real rendered manifests, the compose model and the Dockerfile.
 */

export const APPS = ['gateway', 'identity', 'book', 'movie', 'note', 'event'] as const;
export type App = (typeof APPS)[number];
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
/** The gateway's admin listener (ADMIN_PORT): /metrics and its own /ready. */
export const DEFAULT_ADMIN_PORT = 9464;
/** The compose profile of Prometheus, Grafana and the OpenTelemetry Collector. */
export const OBSERVABILITY_PROFILE = 'observability';

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'Job']);

const subsetOf = (small: Record<string, string> | undefined, big: Record<string, string> | undefined) =>
  Boolean(small && Object.keys(small).length > 0 && Object.entries(small).every(([k, v]) => big?.[k] === v));

const id = (o: K8sObject) => `${o.kind}/${o.metadata.name}`;

function podSpec(o: K8sObject): PodSpec | undefined {
  return o.spec?.template?.spec;
}

function podLabels(o: K8sObject): Record<string, string> | undefined {
  return o.spec?.template?.metadata?.labels;
}

/** The container port a probe's `port` means (a name or a number), or undefined. */
export function resolvePort(container: Container, port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return container.ports?.some((p) => p.containerPort === port) ? port : undefined;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

function containerProblems(where: string, c: Container): string[] {
  const problems: string[] = [];
  const sc = c.securityContext ?? {};
  if (sc.allowPrivilegeEscalation !== false) problems.push(`${where}: securityContext.allowPrivilegeEscalation must be false`);
  if (sc.readOnlyRootFilesystem !== true) problems.push(`${where}: securityContext.readOnlyRootFilesystem must be true`);
  if (!sc.capabilities?.drop?.includes('ALL')) problems.push(`${where}: securityContext.capabilities.drop must include ALL`);
  if (!c.resources?.requests?.cpu || !c.resources?.requests?.memory) problems.push(`${where}: needs cpu and memory requests`);
  if (!c.resources?.limits?.memory || !c.resources?.limits?.cpu) problems.push(`${where}: needs cpu and memory limits`);
  return problems;
}

/** Labels, security context and resources of every workload; probes and shutdown of Deployments. */
export function checkWorkloads(objects: K8sObject[], shutdownGraceMs = DEFAULT_SHUTDOWN_GRACE_MS): string[] {
  const problems: string[] = [];
  for (const o of objects) {
    if (o.metadata.labels?.['app.kubernetes.io/part-of'] !== 'plaza' || !o.metadata.labels?.['app.kubernetes.io/name']) {
      problems.push(`${id(o)}: needs the labels app.kubernetes.io/name and app.kubernetes.io/part-of=plaza`);
    }
    if (!WORKLOADS.has(o.kind)) continue;
    const spec = podSpec(o);
    if (!spec) {
      problems.push(`${id(o)}: no pod template`);
      continue;
    }
    if (o.kind !== 'Job' && !subsetOf(o.spec?.selector?.matchLabels, podLabels(o))) {
      problems.push(`${id(o)}: selector.matchLabels must be a subset of the pod template's labels`);
    }
    if (spec.securityContext?.runAsNonRoot !== true) problems.push(`${id(o)}: pod securityContext.runAsNonRoot must be true`);
    for (const c of [...(spec.initContainers ?? []), ...spec.containers]) problems.push(...containerProblems(`${id(o)} container ${c.name}`, c));
    if (o.kind === 'StatefulSet' && !o.spec?.volumeClaimTemplates?.length) problems.push(`${id(o)}: a StatefulSet here keeps its data on a volumeClaimTemplate`);
    if (o.kind !== 'Deployment') continue;

    const c = spec.containers[0];
    for (const kind of ['readinessProbe', 'livenessProbe'] as const) {
      const probe = c[kind];
      if (!probe?.httpGet) {
        problems.push(`${id(o)}: needs an httpGet ${kind}`);
      } else if (resolvePort(c, probe.httpGet.port) === undefined) {
        problems.push(`${id(o)}: ${kind} port ${probe.httpGet.port} is not a port of container ${c.name}`);
      }
    }
    const grace = (spec.terminationGracePeriodSeconds ?? 30) * 1000;
    const preStop = (c.lifecycle?.preStop?.sleep?.seconds ?? 0) * 1000;
    if (grace <= shutdownGraceMs + preStop) {
      problems.push(`${id(o)}: terminationGracePeriodSeconds (${grace / 1000}) must exceed preStop (${preStop / 1000}) + SHUTDOWN_GRACE_MS (${shutdownGraceMs / 1000})`);
    }
  }
  return problems;
}

/**
 * What an area needs beside its Deployment, all in the same kustomization (so each area applies
 * and rolls back alone): an HPA that owns the replica count, a PDB, a Service and a
 * NetworkPolicy that select its pods, and the ConfigMaps it reads.
 */
export function checkAreaCompleteness(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const of = (kind: string) => objects.filter((o) => o.kind === kind);
  for (const d of of('Deployment')) {
    const labels = podLabels(d);
    const hpa = of('HorizontalPodAutoscaler').find((h) => h.spec?.scaleTargetRef?.kind === 'Deployment' && h.spec.scaleTargetRef.name === d.metadata.name);
    if (!hpa) problems.push(`${id(d)}: no HorizontalPodAutoscaler targets it`);
    else {
      if (d.spec?.replicas !== undefined) problems.push(`${id(d)}: sets replicas although an HPA owns the count (an apply would reset it)`);
      if ((hpa.spec?.minReplicas ?? 1) > (hpa.spec?.maxReplicas ?? 0)) problems.push(`${id(hpa)}: minReplicas > maxReplicas`);
    }
    if (!of('PodDisruptionBudget').some((p) => subsetOf(p.spec?.selector?.matchLabels, labels))) problems.push(`${id(d)}: no PodDisruptionBudget selects its pods`);
    if (!of('Service').some((s) => subsetOf(s.spec?.selector as Record<string, string>, labels))) problems.push(`${id(d)}: no Service selects its pods`);
    if (!of('NetworkPolicy').some((n) => subsetOf(n.spec?.podSelector?.matchLabels, labels))) problems.push(`${id(d)}: no NetworkPolicy of its own`);
    for (const c of podSpec(d)?.containers ?? []) {
      for (const ref of c.envFrom ?? []) {
        const name = ref.configMapRef?.name;
        if (name && name !== 'plaza-common' && !of('ConfigMap').some((m) => m.metadata.name === name)) problems.push(`${id(d)}: reads ConfigMap ${name}, which this kustomization does not make`);
      }
    }
  }
  return problems;
}

/** The flags of GATEWAY_V8_FLAGS that `nodeOptions` (a NODE_OPTIONS value) lacks. */
function missingGatewayFlags(nodeOptions: string | undefined): string[] {
  const given = (nodeOptions ?? '').split(/\s+/);
  return GATEWAY_V8_FLAGS.filter((flag) => !given.includes(flag));
}

/**
 * The gateway's pods bound its heap as the local stack does (GATEWAY_V8_FLAGS in NODE_OPTIONS,
 * set in its container or a ConfigMap it reads): it lets its old generation grow to three times
 * its live heap, and the bound keeps that inside its memory limit (docs/PERFORMANCE.md).
 */
export function checkGatewayHeapBound(objects: K8sObject[]): string[] {
  const gateway = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'gateway');
  if (!gateway) return [];
  const configMaps = objects.filter((o) => o.kind === 'ConfigMap');
  const problems: string[] = [];
  for (const c of podSpec(gateway)?.containers ?? []) {
    const fromMaps = (c.envFrom ?? []).map((ref) => configMaps.find((m) => m.metadata.name === ref.configMapRef?.name)?.data?.NODE_OPTIONS);
    const nodeOptions = c.env?.find((e) => e.name === 'NODE_OPTIONS')?.value ?? fromMaps.filter((v) => v !== undefined).pop();
    for (const flag of missingGatewayFlags(nodeOptions)) problems.push(`${id(gateway)}: container ${c.name} lacks ${flag} in NODE_OPTIONS`);
  }
  return problems;
}

/** A whole environment: shared config, default-deny networking, TLS Ingress to the gateway only. */
export function checkEnvironment(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const of = (kind: string) => objects.filter((o) => o.kind === kind);
  if (!of('ConfigMap').some((m) => m.metadata.name === 'plaza-common')) problems.push('no plaza-common ConfigMap');
  const denyAll = of('NetworkPolicy').find(
    (n) => n.spec?.podSelector && Object.keys(n.spec.podSelector.matchLabels ?? {}).length === 0 && ['Ingress', 'Egress'].every((t) => n.spec?.policyTypes?.includes(t)),
  );
  if (!denyAll) problems.push('no default-deny NetworkPolicy (podSelector {} with Ingress and Egress)');
  for (const app of APPS) {
    if (!of('Deployment').some((d) => d.metadata.name === app)) problems.push(`no Deployment ${app}`);
  }
  for (const name of ['nats', 'mongo']) {
    if (!of('StatefulSet').some((s) => s.metadata.name === name)) problems.push(`no StatefulSet ${name}`);
  }
  const ingresses = of('Ingress');
  if (ingresses.length === 0) problems.push('no Ingress');
  for (const ing of ingresses) {
    if (!ing.spec?.tls?.length || !ing.spec.tls.every((t) => t.secretName && t.hosts?.length)) problems.push(`${id(ing)}: needs tls with hosts and a secretName`);
    const backends = (ing.spec?.rules ?? []).flatMap((r) => r.http?.paths ?? []).map((p) => p.backend.service?.name);
    if (backends.some((b) => b !== 'gateway')) problems.push(`${id(ing)}: routes to ${backends.join(', ')}; only the gateway may be reachable from outside`);
  }
  for (const s of of('Service')) {
    const type = (s.spec as { type?: string } | undefined)?.type;
    if (type === 'LoadBalancer' || type === 'NodePort') problems.push(`${id(s)}: type ${type} exposes it outside the Ingress`);
  }
  return problems;
}

/** No secret value is committed: no Secret objects (nor generators' output) in any render. */
export function checkNoSecrets(objects: K8sObject[]): string[] {
  return objects.filter((o) => o.kind === 'Secret').map((o) => `${id(o)}: Secrets are created out of band (deploy/README.md), never rendered from the repository`);
}

/** Names of the Secrets the workloads expect to exist. */
export function referencedSecrets(objects: K8sObject[]): string[] {
  const names = new Set<string>();
  for (const o of objects) {
    const spec = podSpec(o);
    if (!spec) continue;
    for (const v of spec.volumes ?? []) {
      if (v.secret?.secretName) names.add(v.secret.secretName);
      for (const s of (v as { projected?: { sources?: Array<{ secret?: { name: string } }> } }).projected?.sources ?? []) if (s.secret) names.add(s.secret.name);
    }
    for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
      for (const e of c.env ?? []) if (e.valueFrom?.secretKeyRef) names.add(e.valueFrom.secretKeyRef.name);
      for (const e of c.envFrom ?? []) if (e.secretRef) names.add(e.secretRef.name);
    }
  }
  for (const ing of objects.filter((o) => o.kind === 'Ingress')) for (const t of ing.spec?.tls ?? []) if (t.secretName) names.add(t.secretName);
  return [...names].sort();
}

export interface ProbeTarget {
  app: string;
  kind: 'readiness' | 'liveness' | 'startup' | 'compose healthcheck' | 'image healthcheck' | 'metrics';
  path: string;
  /** The port inside the container. */
  port: number;
}

/** Every HTTP probe of every Deployment, with its port resolved to a number. */
export function deploymentProbes(objects: K8sObject[]): ProbeTarget[] {
  const targets: ProbeTarget[] = [];
  for (const d of objects.filter((o) => o.kind === 'Deployment')) {
    const c = podSpec(d)?.containers[0];
    if (!c) continue;
    const probes: Array<[ProbeTarget['kind'], Probe | undefined]> = [
      ['readiness', c.readinessProbe],
      ['liveness', c.livenessProbe],
      ['startup', c.startupProbe],
    ];
    for (const [kind, probe] of probes) {
      if (!probe?.httpGet) continue;
      const port = resolvePort(c, probe.httpGet.port);
      if (port !== undefined) targets.push({ app: d.metadata.name, kind, path: probe.httpGet.path ?? '/', port });
    }
  }
  return targets;
}

/** The parts of `docker compose config --format json` the checks read. */
export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile?: string; args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string | null>;
  healthcheck?: { test?: string[]; disable?: boolean };
  profiles?: string[];
  expose?: string[];
  depends_on?: Record<string, { condition: string }>;
  volumes?: Array<{ type: string; source?: string; target: string }>;
  read_only?: boolean;
  cap_drop?: string[];
  stop_grace_period?: string;
  ports?: Array<{ target: number; published?: string; host_ip?: string }>;
}
export interface ComposeModel {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** Parses a compose duration (`15s`, `1m30s`) into milliseconds. */
export function durationMs(value: string | undefined): number {
  if (!value) return 10_000; // compose's default stop grace period
  let total = 0;
  for (const m of value.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) total += Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
  return total;
}

const namedVolume = (s: ComposeService, target: string) => s.volumes?.find((v) => v.type === 'volume' && v.target === target && v.source);

export function checkCompose(model: ComposeModel, shutdownGraceMs = DEFAULT_SHUTDOWN_GRACE_MS): string[] {
  const problems: string[] = [];
  const services = model.services ?? {};
  const mongo = services.mongo;
  const nats = services.nats;
  if (!mongo) problems.push('compose: no mongo service');
  else {
    if (!mongo.command?.includes('--replSet')) problems.push('compose: mongo must run as a replica set (--replSet)');
    if (!mongo.healthcheck?.test?.join(' ').includes('rs.initiate')) problems.push('compose: mongo healthcheck must initiate the replica set');
    if (!namedVolume(mongo, '/data/db')) problems.push('compose: mongo needs a named volume on /data/db');
  }
  if (!nats) problems.push('compose: no nats service');
  else {
    const cmd = nats.command ?? [];
    const storeAt = cmd.indexOf('--store_dir') >= 0 ? cmd[cmd.indexOf('--store_dir') + 1] : undefined;
    if (!cmd.includes('--jetstream') && !cmd.includes('-js')) problems.push('compose: nats must run with JetStream');
    if (!storeAt || !namedVolume(nats, storeAt)) problems.push('compose: the JetStream store_dir must be a named volume');
    if (!nats.healthcheck?.test) problems.push('compose: nats needs a healthcheck');
    // its max_payload is in that file (checked with Kubernetes' by checkNatsPayload)
    const config = cmd.indexOf('--config') >= 0 ? cmd[cmd.indexOf('--config') + 1] : undefined;
    if (!config || !nats.volumes?.some((v) => v.target === config && v.source?.endsWith('deploy/docker/nats.conf'))) {
      problems.push('compose: nats must read deploy/docker/nats.conf (--config, mounted)');
    }
  }
  for (const app of APPS) {
    const s = services[app];
    if (!s) {
      problems.push(`compose: no ${app} service`);
      continue;
    }
    if (s.build?.dockerfile !== 'deploy/docker/Dockerfile' || s.build.args?.APP !== app) problems.push(`compose: ${app} must build deploy/docker/Dockerfile with APP=${app}`);
    if (!s.healthcheck?.test || s.healthcheck.disable) problems.push(`compose: ${app} needs a healthcheck`);
    if (s.read_only !== true) problems.push(`compose: ${app} should run with a read-only root file system`);
    if (!s.cap_drop?.includes('ALL')) problems.push(`compose: ${app} should drop ALL capabilities`);
    if (durationMs(s.stop_grace_period) <= shutdownGraceMs) problems.push(`compose: ${app} stop_grace_period must exceed SHUTDOWN_GRACE_MS`);
    const deps = s.depends_on ?? {};
    const needs = app === 'gateway' ? ['nats', ...APPS.filter((a) => a !== 'gateway')] : ['mongo', 'nats'];
    for (const dep of needs) {
      if (deps[dep]?.condition !== 'service_healthy') problems.push(`compose: ${app} must wait for ${dep} to be healthy`);
    }
    if (app !== 'gateway' && !s.environment?.MONGO_URL) problems.push(`compose: ${app} needs MONGO_URL`);
    if (!s.environment?.NATS_URL) problems.push(`compose: ${app} needs NATS_URL`);
  }
  for (const app of ['gateway', 'book', 'note']) {
    if (services[app] && !services[app].environment?.PICTURE_SIGNING_KEY) problems.push(`compose: ${app} needs PICTURE_SIGNING_KEY`);
  }
  if (!services.gateway?.ports?.some((p) => p.target === 8080)) problems.push('compose: the gateway must publish its port 8080');
  if (services.gateway) for (const flag of missingGatewayFlags(services.gateway.environment?.NODE_OPTIONS ?? undefined)) problems.push(`compose: the gateway lacks ${flag} in NODE_OPTIONS`);
  const adminPort = Number(services.gateway?.environment?.ADMIN_PORT ?? DEFAULT_ADMIN_PORT);
  if (services.gateway?.ports?.some((p) => p.target === adminPort)) problems.push(`compose: the gateway publishes its admin port ${adminPort} (/metrics); it stays on the compose network`);
  for (const [name, s] of Object.entries(services)) {
    // the observability UIs are for the person at this machine: loopback only
    const local = s.profiles?.includes(OBSERVABILITY_PROFILE) && s.ports?.every((p) => p.host_ip === '127.0.0.1');
    if (name !== 'gateway' && s.ports?.length && !local) problems.push(`compose: ${name} publishes a port; only the gateway is reachable from outside (observability UIs on 127.0.0.1 only)`);
  }
  const seed = services.seed;
  if (!seed) problems.push('compose: no seed service');
  else if (seed.depends_on?.gateway?.condition !== 'service_healthy') problems.push('compose: seed must wait for the gateway to be healthy');
  return problems;
}

/** The port and path each app's compose healthcheck asks (healthcheck.js [path] [admin]: PORT for the gateway, HEALTH_PORT else, ADMIN_PORT with `admin`). */
export function composeProbes(model: ComposeModel): ProbeTarget[] {
  const targets: ProbeTarget[] = [];
  for (const app of APPS) {
    const s = model.services?.[app];
    const test = s?.healthcheck?.test;
    if (!s || !test) continue;
    const script = test.findIndex((t) => t.endsWith('healthcheck.js'));
    const path = script >= 0 && test[script + 1] ? test[script + 1] : '/health';
    const env = s.environment ?? {};
    const admin = script >= 0 && test[script + 2] === 'admin';
    const port = Number(admin ? (env.ADMIN_PORT ?? DEFAULT_ADMIN_PORT) : app === 'gateway' ? (env.PORT ?? 8080) : (env.HEALTH_PORT ?? 8081));
    targets.push({ app, kind: 'compose healthcheck', path, port });
  }
  return targets;
}

/** The image's build steps are CI's, it is multi-stage, small and non-root, with a health check, and its CMD runs node with APP_V8_FLAGS. */
export function checkDockerfile(text: string): string[] {
  const problems: string[] = [];
  const lines = text.split('\n').filter((l) => !l.trim().startsWith('#'));
  const body = lines.join('\n');
  const froms = lines.filter((l) => /^FROM\s/i.test(l));
  if (froms.length < 2) problems.push('Dockerfile: must be multi-stage (a build stage and a runtime stage)');
  for (const [what, re] of [
    ['npm ci', /\bnpm ci\b/],
    ['npx tsc -b "apps/$APP/tsconfig.app.json" (the build CI runs)', /npx tsc -b "?apps\/\$\{?APP\}?\/tsconfig\.app\.json"?/],
    ['npm prune --omit=dev (production dependencies only)', /npm prune --omit=dev/],
    ['HEALTHCHECK', /^HEALTHCHECK\s/m],
  ] as const) {
    if (!re.test(body)) problems.push(`Dockerfile: missing ${what}`);
  }
  const cmd = lines.filter((l) => /^CMD\s/.test(l)).pop() ?? '';
  for (const flag of APP_V8_FLAGS) if (!cmd.includes(`"${flag}"`)) problems.push(`Dockerfile: missing ${flag} in CMD`);
  const users = lines.filter((l) => /^USER\s/i.test(l));
  const lastUser = users[users.length - 1]?.split(/\s+/)[1];
  if (!lastUser || /^(0|root)(:|$)/.test(lastUser) || !/^\d+(:\d+)?$/.test(lastUser)) {
    problems.push('Dockerfile: the runtime stage must end with a numeric non-root USER (so runAsNonRoot can verify it)');
  }
  return problems;
}

/** ENV defaults of the Dockerfile's last stage (`ENV A=1 \ B=2`). */
export function dockerfileEnv(text: string): Record<string, string> {
  const stages = text.split(/^FROM\s.*$/m);
  const last = stages[stages.length - 1].replace(/\\\n/g, ' ');
  const env: Record<string, string> = {};
  for (const line of last.split('\n')) {
    const m = /^ENV\s+(.*)$/.exec(line.trim());
    if (!m) continue;
    for (const pair of m[1].matchAll(/([A-Z_][A-Z0-9_]*)=("[^"]*"|\S+)/g)) env[pair[1]] = pair[2].replace(/^"|"$/g, '');
  }
  return env;
}

/** The ports the image listens on by default are the ports the manifests probe and scrape. */
export function checkImagePorts(env: Record<string, string>, probes: ProbeTarget[]): string[] {
  const problems: string[] = [];
  for (const p of probes) {
    const names = p.app === 'gateway' ? ['PORT', 'ADMIN_PORT'] : ['HEALTH_PORT'];
    if (!names.some((n) => Number(env[n]) === p.port)) {
      problems.push(`${p.app} ${p.kind} probe uses port ${p.port}, the image listens on ${names.map((n) => `${env[n]} (${n})`).join(' or ')}`);
    }
  }
  if (['HOST', 'HEALTH_HOST', 'ADMIN_HOST'].some((n) => env[n] !== '0.0.0.0')) problems.push('the image must set HOST, HEALTH_HOST and ADMIN_HOST to 0.0.0.0 so probes and Prometheus reach it');
  return problems;
}

/** Every Secret the manifests use has its `kubectl create secret` in deploy/README.md. */
export function checkSecretsDocumented(secrets: string[], readme: string): string[] {
  return secrets.filter((name) => !new RegExp(`create secret \\w+ ${name}\\b`).test(readme)).map((name) => `deploy/README.md: no \`kubectl create secret ... ${name}\` for Secret ${name}`);
}

/** `max_payload` of a nats-server config file in bytes; without one, the server's default of 1 MiB. */
export function natsMaxPayload(config: string): number {
  const m = /^\s*max_payload\s*[:=]?\s*(\d+)\s*(KB|MB|K|M)?\s*$/im.exec(config);
  if (!m) return 1024 * 1024;
  const unit: Record<string, number> = { K: 1024, KB: 1024, M: 1024 ** 2, MB: 1024 ** 2 };
  return Number(m[1]) * (unit[(m[2] ?? '').toUpperCase()] ?? 1);
}

/** Every answer goes from a service to the gateway as one message: each deployment's NATS must carry the largest. */
export function checkNatsPayload(configs: Record<string, string>, needed: number): string[] {
  return Object.entries(configs)
    .filter(([, config]) => natsMaxPayload(config) < needed)
    .map(([name, config]) => `${name}: max_payload is ${natsMaxPayload(config)} bytes; answers may take ${needed}`);
}
