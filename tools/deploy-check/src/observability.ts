import { load } from 'js-yaml';
import { APPS, ComposeModel, ComposeService, DEFAULT_ADMIN_PORT, OBSERVABILITY_PROFILE, ProbeTarget, resolvePort } from './checks';
import type { Container, K8sObject, RuleGroup } from './manifests';
import { APP_SERIES, exprProblems, PLAZA_METRICS, PLATFORM_METRICS } from './promql';

/**
 * The rules of metrics, tracing and alerting (docs/OPERATING.md), as pure functions like checks.ts: pod
 * annotations and the gateway's admin port in Kubernetes, the PodMonitors and the alerting rules,
 * the compose Prometheus, OpenTelemetry Collector and Grafana with their config files, and the
 * Grafana dashboard. Each returns the problems it finds (empty = pass).
 */

const DEFAULT_HEALTH_PORT = 8081;
const ANNOTATION = { scrape: 'prometheus.io/scrape', port: 'prometheus.io/port', path: 'prometheus.io/path' };

const subsetOf = (small: Record<string, string> | undefined, big: Record<string, string> | undefined) =>
  Boolean(small && Object.keys(small).length > 0 && Object.entries(small).every(([k, v]) => big?.[k] === v));

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** The variables a Deployment's first container gets from the ConfigMaps in this render and its own env. */
function podEnv(objects: K8sObject[], c: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const ref of c.envFrom ?? []) {
    const map = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === ref.configMapRef?.name);
    Object.assign(env, map?.data ?? {});
  }
  for (const e of c.env ?? []) if (e.value !== undefined) env[e.name] = e.value;
  return env;
}

/** The port an app serves /metrics on: the gateway's admin listener, a service's health listener. */
export function metricsPort(app: string, env: Record<string, string | null | undefined>): number {
  return Number(app === 'gateway' ? (env.ADMIN_PORT ?? DEFAULT_ADMIN_PORT) : (env.HEALTH_PORT ?? DEFAULT_HEALTH_PORT));
}

const appDeployments = (objects: K8sObject[]) => objects.filter((o) => o.kind === 'Deployment' && (APPS as readonly string[]).includes(o.metadata.name));

/**
 * Every app's pod template says where its metrics are (prometheus.io/scrape, port, path), on the
 * port it serves them: the gateway's admin port, bound to all interfaces, which its readiness
 * probe asks and no Service routes to; a service's health port. A NetworkPolicy of the pod
 * admits that port.
 */
export function checkMetricsAnnotations(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const d of appDeployments(objects)) {
    const app = d.metadata.name;
    const where = `Deployment/${app}`;
    const c = d.spec?.template?.spec.containers[0];
    if (!c) continue;
    const env = podEnv(objects, c);
    const expected = metricsPort(app, env);
    const ann = d.spec?.template?.metadata?.annotations ?? {};
    if (ann[ANNOTATION.scrape] !== 'true') problems.push(`${where}: pod annotation ${ANNOTATION.scrape} must be "true"`);
    if (ann[ANNOTATION.path] !== '/metrics') problems.push(`${where}: pod annotation ${ANNOTATION.path} must be /metrics`);
    const port = Number(ann[ANNOTATION.port]);
    if (!ann[ANNOTATION.port]) problems.push(`${where}: no pod annotation ${ANNOTATION.port}`);
    else if (port !== expected) problems.push(`${where}: pod annotation ${ANNOTATION.port} is ${ann[ANNOTATION.port]}, the app serves /metrics on ${expected} (${app === 'gateway' ? 'ADMIN_PORT' : 'HEALTH_PORT'})`);
    if (!c.ports?.some((p) => p.containerPort === expected)) problems.push(`${where}: its metrics port ${expected} is not a port of container ${c.name}`);

    if (app === 'gateway') {
      if (env.ADMIN_HOST !== '0.0.0.0') problems.push(`${where}: ADMIN_HOST must be 0.0.0.0 (else neither the kubelet nor Prometheus reaches the admin port)`);
      if (Number(env.PORT ?? 8080) === expected) problems.push(`${where}: ADMIN_PORT must differ from PORT: the public port never serves /metrics`);
      const ready = c.readinessProbe?.httpGet;
      if (!ready || ready.path !== '/ready' || resolvePort(c, ready.port) !== expected) {
        problems.push(`${where}: the readinessProbe must be GET /ready on the admin port ${expected} (the gateway's own readiness, not its areas')`);
      }
      const labels = d.spec?.template?.metadata?.labels;
      for (const s of objects.filter((o) => o.kind === 'Service' && subsetOf(o.spec?.selector as Record<string, string>, labels))) {
        for (const p of s.spec?.ports ?? []) {
          const target = p.targetPort ?? p.port;
          if (resolvePort(c, target) === expected) problems.push(`Service/${s.metadata.name}: routes to the gateway's admin port; /metrics is for Prometheus only`);
        }
      }
    }
    const labels = d.spec?.template?.metadata?.labels;
    const policies = objects.filter((o) => o.kind === 'NetworkPolicy' && subsetOf(o.spec?.podSelector?.matchLabels, labels));
    const admitted = policies.some((n) => n.spec?.ingress?.some((rule) => !rule.ports || rule.ports.some((p) => p.port === expected || (typeof p.port === 'string' && resolvePort(c, p.port) === expected))));
    if (policies.length > 0 && !admitted) problems.push(`${where}: no NetworkPolicy of its pods admits the metrics port ${expected} (Prometheus could not scrape it)`);
  }
  return problems;
}

/** The metrics endpoint each app's pod annotations name (for asking the real apps). */
export function annotationTargets(objects: K8sObject[]): ProbeTarget[] {
  return appDeployments(objects).flatMap((d) => {
    const ann = d.spec?.template?.metadata?.annotations ?? {};
    return ann[ANNOTATION.port] ? [{ app: d.metadata.name, kind: 'metrics' as const, path: ann[ANNOTATION.path] ?? '/metrics', port: Number(ann[ANNOTATION.port]) }] : [];
  });
}

/**
 * The Prometheus operator scrapes every app of an environment: a PodMonitor of the same
 * namespace selects its pods and names the container port of its prometheus.io/port annotation,
 * path /metrics, and takes `job` from app.kubernetes.io/name (the alerts match `up` by job).
 */
export function checkPodMonitors(apps: K8sObject[], monitoring: K8sObject[]): string[] {
  const problems: string[] = [];
  const monitors = monitoring.filter((o) => o.kind === 'PodMonitor');
  if (monitors.length === 0) return ['no PodMonitor'];
  for (const m of monitors) {
    if (m.spec?.jobLabel !== 'app.kubernetes.io/name') problems.push(`PodMonitor/${m.metadata.name}: jobLabel must be app.kubernetes.io/name, so that job is the app's name as the alerts expect`);
  }
  for (const d of appDeployments(apps)) {
    const c = d.spec?.template?.spec.containers[0];
    const labels = d.spec?.template?.metadata?.labels;
    const port = Number(d.spec?.template?.metadata?.annotations?.[ANNOTATION.port]);
    const scrapes = monitors.some(
      (m) =>
        (m.spec?.namespaceSelector?.any || m.metadata.namespace === d.metadata.namespace || m.spec?.namespaceSelector?.matchNames?.includes(d.metadata.namespace ?? '')) &&
        subsetOf(m.spec?.selector?.matchLabels, labels) &&
        m.spec?.podMetricsEndpoints?.some((e) => c && e.port !== undefined && resolvePort(c, e.port) === port && (e.path ?? '/metrics') === '/metrics'),
    );
    if (!scrapes) problems.push(`Deployment/${d.metadata.name}: no PodMonitor in its namespace selects its pods and scrapes /metrics on its port ${port || '(no prometheus.io/port)'}`);
  }
  return problems;
}

const DURATION = /^(\d+(ms|s|m|h|d|w|y))+$/;

/**
 * A rule file's groups (compose's alerts.yml or a PrometheusRule's spec): well formed, every
 * expression balanced and made of known metrics, alerts with a severity and a summary; and the
 * alerts docs/OPERATING.md ("Dashboard and alerts") names are there.
 */
export function checkRuleGroups(groups: unknown, where: string, { requireKubernetes = false } = {}): string[] {
  if (!Array.isArray(groups) || groups.length === 0) return [`${where}: no rule groups`];
  const problems: string[] = [];
  const rules = (groups as RuleGroup[]).flatMap((g) => (Array.isArray(g?.rules) ? g.rules : []));
  const known = new Set([...APP_SERIES, ...PLATFORM_METRICS, ...rules.map((r) => r.record).filter((r): r is string => Boolean(r))]);
  const names = new Set<string>();
  for (const g of groups as RuleGroup[]) {
    if (!g?.name || !Array.isArray(g.rules) || g.rules.length === 0) {
      problems.push(`${where}: every group needs a name and rules`);
      continue;
    }
    if (names.has(g.name)) problems.push(`${where}: group ${g.name} twice`);
    names.add(g.name);
    for (const r of g.rules) {
      const what = `${where} ${r.alert ?? r.record ?? '(unnamed rule)'}`;
      if (Boolean(r.alert) === Boolean(r.record)) problems.push(`${what}: a rule has either alert or record`);
      if (typeof r.expr !== 'string') {
        problems.push(`${what}: no expr`);
        continue;
      }
      problems.push(...exprProblems(what, r.expr, known));
      if (r.for !== undefined && !DURATION.test(String(r.for))) problems.push(`${what}: for "${r.for}" is not a duration`);
      if (r.alert && (!r.labels?.severity || !r.annotations?.summary)) problems.push(`${what}: an alert needs labels.severity and annotations.summary`);
    }
  }
  const exprs = rules.filter((r) => r.alert && typeof r.expr === 'string').map((r) => r.expr);
  const wanted: Array<[string, (e: string) => boolean]> = [
    ['the 5xx share of plaza_http_request_duration_seconds_count', (e) => e.includes('plaza_http_request_duration_seconds_count') && /status=~"5/.test(e)],
    ['a p99 latency from plaza_http_request_duration_seconds_bucket', (e) => /histogram_quantile\(\s*0\.99/.test(e) && e.includes('plaza_http_request_duration_seconds_bucket')],
    ['NATS no-responders', (e) => e.includes('plaza_nats_client_request_duration_seconds_count') && e.includes('"no_responders"')],
    ['reconcile drift (plaza_reconcile_drift_total)', (e) => /increase\(\s*plaza_reconcile_drift_total\[/.test(e)],
    ['an app without a ready replica or scrape target', (e) => (requireKubernetes ? e.includes('kube_deployment_status_replicas_available') : /\bup\b/.test(e)) && APPS.every((a) => e.includes(a))],
  ];
  for (const [what, test] of wanted) if (!exprs.some(test)) problems.push(`${where}: no alert on ${what}${what.startsWith('an app') ? ' naming every app' : ''}`);
  return problems;
}

/** The PrometheusRule objects of a render. */
export function checkPrometheusRules(objects: K8sObject[]): string[] {
  return objects.filter((o) => o.kind === 'PrometheusRule').flatMap((o) => checkRuleGroups(o.spec?.groups, `PrometheusRule/${o.metadata.name}`, { requireKubernetes: true }));
}

/** Compose's alerts are the cluster's: each alert of the compose rule file is in the PrometheusRule, the same. */
export function checkRulesAgree(compose: RuleGroup[], cluster: RuleGroup[]): string[] {
  const alerts = (groups: RuleGroup[]) => new Map(groups.flatMap((g) => g.rules ?? []).filter((r) => r.alert).map((r) => [r.alert as string, r]));
  const theirs = alerts(cluster);
  const problems: string[] = [];
  for (const [name, r] of alerts(compose)) {
    const k = theirs.get(name);
    if (!k) problems.push(`alert ${name} of deploy/prometheus/alerts.yml is not in the PrometheusRule`);
    else if (k.expr.trim() !== r.expr.trim() || k.for !== r.for || JSON.stringify(k.labels) !== JSON.stringify(r.labels)) {
      problems.push(`alert ${name} differs between deploy/prometheus/alerts.yml and the PrometheusRule (expr, for or labels)`);
    }
  }
  return problems;
}

/** A scrape target of a Prometheus config: `host:port` under a job. */
export interface ScrapeTarget {
  job: string;
  host: string;
  port: number;
  path: string;
}

export function scrapeTargets(config: unknown): ScrapeTarget[] {
  const jobs = isObject(config) && Array.isArray(config.scrape_configs) ? (config.scrape_configs as Array<Record<string, unknown>>) : [];
  return jobs.flatMap((j) =>
    ((j.static_configs as Array<{ targets?: string[] }> | undefined) ?? []).flatMap((s) =>
      (s.targets ?? []).map((t) => {
        const [host, port] = t.split(':');
        return { job: String(j.job_name), host, port: Number(port), path: String(j.metrics_path ?? '/metrics') };
      }),
    ),
  );
}

/** The targets of the compose Prometheus' config file (its --config.file, as mounted); none if it does not parse. */
export function composeScrapeTargets(model: ComposeModel, mounted: MountedFiles): ScrapeTarget[] {
  const path = flag(model.services.prometheus, '--config.file');
  const text = path ? mounted('prometheus')[path] : undefined;
  try {
    return text ? scrapeTargets(load(text)) : [];
  } catch {
    return [];
  }
}

/**
 * The compose Prometheus scrapes every app at the port compose gives it for /metrics (the
 * gateway's ADMIN_PORT, each service's HEALTH_PORT), path /metrics, in a job named after the app
 * (as in Kubernetes, where the alerts match `up` by job), and nothing that is not a compose service.
 */
export function checkPrometheusConfig(config: unknown, model: ComposeModel): string[] {
  if (!isObject(config) || !Array.isArray(config.scrape_configs)) return ['the Prometheus config has no scrape_configs'];
  const problems: string[] = [];
  const targets = scrapeTargets(config);
  for (const app of APPS) {
    const env = model.services[app]?.environment ?? {};
    const port = metricsPort(app, env);
    const mine = targets.filter((t) => t.host === app);
    if (mine.length === 0) problems.push(`Prometheus does not scrape ${app}`);
    for (const t of mine) {
      if (t.port !== port) problems.push(`Prometheus scrapes ${app}:${t.port}; ${app} serves /metrics on ${port} (${app === 'gateway' ? 'ADMIN_PORT' : 'HEALTH_PORT'})`);
      if (t.path !== '/metrics') problems.push(`Prometheus scrapes ${app} at ${t.path}, not /metrics`);
      if (t.job !== app) problems.push(`Prometheus scrapes ${app} in job ${t.job}; name the job ${app}`);
    }
  }
  for (const t of targets) if (t.host !== 'localhost' && !model.services[t.host]) problems.push(`Prometheus scrapes ${t.host}:${t.port}, which is not a compose service`);
  return problems;
}

/** The OpenTelemetry Collector takes OTLP over HTTP (4318) and gRPC (4317) from other containers and has a traces pipeline of defined parts. */
export function checkCollectorConfig(config: unknown): string[] {
  if (!isObject(config)) return ['the collector config is not a mapping'];
  const problems: string[] = [];
  const get = (path: string[]): unknown => path.reduce<unknown>((o, k) => (isObject(o) ? o[k] : undefined), config);
  for (const [protocol, port] of [['http', 4318], ['grpc', 4317]] as const) {
    const endpoint = get(['receivers', 'otlp', 'protocols', protocol, 'endpoint']);
    if (endpoint !== `0.0.0.0:${port}`) problems.push(`collector: receivers.otlp.protocols.${protocol}.endpoint must be 0.0.0.0:${port} (the default listens on localhost only)`);
  }
  const pipelines = get(['service', 'pipelines']);
  const traces = isObject(pipelines) ? pipelines.traces : undefined;
  if (!isObject(traces)) return [...problems, 'collector: no service.pipelines.traces'];
  if (!Array.isArray(traces.receivers) || !traces.receivers.includes('otlp')) problems.push('collector: the traces pipeline must receive otlp');
  if (!Array.isArray(traces.exporters) || traces.exporters.length === 0) problems.push('collector: the traces pipeline has no exporter');
  for (const section of ['receivers', 'processors', 'exporters'] as const) {
    for (const name of (traces[section] as string[] | undefined) ?? []) {
      if (!isObject(config[section]) || !(name in (config[section] as object))) problems.push(`collector: the traces pipeline uses ${section.slice(0, -1)} ${name}, which ${section} does not define`);
    }
  }
  return problems;
}

/** Files mounted into a compose service, by their path in the container. */
export type MountedFiles = (service: string) => Record<string, string>;

const parseYaml = (text: string, what: string, problems: string[]): unknown => {
  try {
    return load(text);
  } catch (err) {
    problems.push(`${what} does not parse as YAML: ${(err as Error).message.split('\n')[0]}`);
    return undefined;
  }
};

function flag(s: ComposeService | undefined, name: string): string | undefined {
  const arg = s?.command?.find((a) => a.startsWith(`${name}=`));
  return arg?.slice(name.length + 1);
}

/**
 * The compose file with every profile: Prometheus, the OpenTelemetry Collector and Grafana are
 * there, only under the observability profile (`defaultModel`, without profiles, lacks them), each
 * reading its config from deploy/; the apps' OTEL_* variables send traces to the collector when
 * turned on; the gateway's admin port is on the compose network only and is what its health
 * check asks.
 */
export function checkComposeObservability(model: ComposeModel, defaultModel: ComposeModel, mounted: MountedFiles): string[] {
  const problems: string[] = [];
  const services = model.services ?? {};
  for (const name of ['prometheus', 'otel-collector', 'grafana']) {
    if (!services[name]) problems.push(`compose: no ${name} service`);
    else if (!services[name].profiles?.includes(OBSERVABILITY_PROFILE) || defaultModel.services?.[name]) problems.push(`compose: ${name} must be in the ${OBSERVABILITY_PROFILE} profile only`);
  }

  const gateway = services.gateway;
  const env = gateway?.environment ?? {};
  if (env.ADMIN_HOST !== '0.0.0.0') problems.push('compose: the gateway needs ADMIN_HOST=0.0.0.0 (Prometheus and the health check reach the admin port)');
  if (!env.ADMIN_PORT) problems.push('compose: the gateway needs ADMIN_PORT');
  const test = gateway?.healthcheck?.test ?? [];
  const script = test.findIndex((t) => t.endsWith('healthcheck.js'));
  if (script < 0 || test[script + 1] !== '/ready' || test[script + 2] !== 'admin') problems.push('compose: the gateway health check must be healthcheck.js /ready admin (its own readiness on the admin port)');

  const collector = services['otel-collector'];
  for (const app of APPS) {
    const e = services[app]?.environment ?? {};
    if (e.OTEL_SERVICE_NAME !== app) problems.push(`compose: ${app} needs OTEL_SERVICE_NAME=${app}`);
    if (!['none', 'otlp'].includes(e.OTEL_TRACES_EXPORTER ?? '')) problems.push(`compose: ${app} needs OTEL_TRACES_EXPORTER (none by default, otlp to trace)`);
    const endpoint = /^http:\/\/([^:/]+):(\d+)\/?$/.exec(e.OTEL_EXPORTER_OTLP_ENDPOINT ?? '');
    const port = e.OTEL_EXPORTER_OTLP_PROTOCOL === 'grpc' ? '4317' : '4318';
    if (!endpoint || !services[endpoint[1]] || endpoint[2] !== port) problems.push(`compose: ${app} OTEL_EXPORTER_OTLP_ENDPOINT must be http://<the collector service>:${port}, got ${e.OTEL_EXPORTER_OTLP_ENDPOINT}`);
  }

  const prometheus = services.prometheus;
  if (prometheus) {
    const files = mounted('prometheus');
    const path = flag(prometheus, '--config.file');
    const text = path ? files[path] : undefined;
    if (!text) problems.push(`compose: prometheus must read its config (--config.file) from a file of deploy/ mounted there`);
    else {
      const config = parseYaml(text, 'the Prometheus config', problems);
      if (config !== undefined) {
        problems.push(...checkPrometheusConfig(config, model));
        for (const rules of (isObject(config) && Array.isArray(config.rule_files) ? config.rule_files : []) as string[]) {
          const rulesText = files[rules];
          if (!rulesText) problems.push(`compose: prometheus loads ${rules}, which is not mounted`);
          else {
            const doc = parseYaml(rulesText, rules, problems);
            if (doc !== undefined) problems.push(...checkRuleGroups(isObject(doc) ? doc.groups : undefined, rules));
          }
        }
      }
    }
  }

  if (collector) {
    const path = flag(collector, '--config') ?? '/etc/otelcol-contrib/config.yaml';
    const text = mounted('otel-collector')[path];
    if (!text) problems.push(`compose: otel-collector must read its config (--config) from a file of deploy/ mounted there`);
    else {
      const config = parseYaml(text, 'the collector config', problems);
      if (config !== undefined) problems.push(...checkCollectorConfig(config));
    }
  }

  if (services.grafana) problems.push(...checkGrafanaProvisioning(mounted('grafana'), model));
  return problems;
}

/** Grafana's provisioning: a Prometheus data source at the compose Prometheus, and a dashboard folder holding a mounted dashboard. */
function checkGrafanaProvisioning(files: Record<string, string>, model: ComposeModel): string[] {
  const problems: string[] = [];
  const docs = (dir: string) =>
    Object.entries(files)
      .filter(([p]) => p.startsWith(`/etc/grafana/provisioning/${dir}/`) && /\.ya?ml$/.test(p))
      .map(([p, text]) => parseYaml(text, p, problems))
      .filter(isObject);
  const sources = docs('datasources').flatMap((d) => (Array.isArray(d.datasources) ? (d.datasources as Array<Record<string, unknown>>) : []));
  if (!model.services.prometheus || !sources.some((s) => s.type === 'prometheus' && s.url === 'http://prometheus:9090')) problems.push('grafana: no provisioned prometheus data source at http://prometheus:9090');
  const providers = docs('dashboards').flatMap((d) => (Array.isArray(d.providers) ? (d.providers as Array<{ options?: { path?: string } }>) : []));
  const folders = providers.map((p) => p.options?.path).filter((p): p is string => Boolean(p));
  const dashboards = Object.keys(files).filter((p) => p.endsWith('.json') && folders.some((f) => p.startsWith(`${f.replace(/\/$/, '')}/`)));
  if (dashboards.length === 0) problems.push('grafana: no dashboard JSON is mounted in a provisioned dashboards folder');
  return problems;
}

// Grafana's own variables
const BUILTIN_VARIABLES = new Set(['__rate_interval', '__interval', '__interval_ms', '__range', '__range_s', '__range_ms', '__dashboard', '__from', '__to']);

interface Panel {
  id?: number;
  type?: string;
  title?: string;
  gridPos?: { h: number; w: number; x: number; y: number };
  datasource?: { type?: string; uid?: string } | string | null;
  targets?: Array<{ refId?: string; expr?: string; datasource?: { uid?: string } }>;
  panels?: Panel[];
}

/**
 * A Grafana dashboard (JSON model): panels with ids, places on the 24-column grid and queries;
 * every query's metrics known and its variables defined; the data source a variable of type
 * datasource (or one of `uids`); and the views docs/OPERATING.md ("Dashboard and alerts") lists: rate, errors and p50/p99 per
 * area, route and NATS subject, cache hit ratio, rate-limit refusals, token rejections, MongoDB
 * p99 by collection.
 */
export function checkDashboard(dashboard: unknown, uids: string[] = []): string[] {
  if (!isObject(dashboard) || !Array.isArray(dashboard.panels)) return ['dashboard: not a Grafana dashboard (no panels)'];
  const problems: string[] = [];
  for (const key of ['title', 'uid'] as const) if (typeof dashboard[key] !== 'string' || !dashboard[key]) problems.push(`dashboard: no ${key}`);
  if (typeof dashboard.schemaVersion !== 'number') problems.push('dashboard: no schemaVersion');
  const variables = ((isObject(dashboard.templating) && Array.isArray(dashboard.templating.list) ? dashboard.templating.list : []) as Array<{ name: string; type: string }>);
  const names = new Set(variables.map((v) => v.name));
  const dsVariables = variables.filter((v) => v.type === 'datasource').map((v) => v.name);
  const dsOk = (ds: Panel['datasource']) => {
    const uid = typeof ds === 'string' ? ds : ds?.uid;
    return Boolean(uid && (uids.includes(uid) || dsVariables.some((v) => uid === `\${${v}}` || uid === `$${v}`)));
  };
  const panels = (dashboard.panels as Panel[]).flatMap((p) => [p, ...(p.panels ?? [])]);
  const ids = new Set<number>();
  const exprs: string[] = [];
  for (const p of panels) {
    const where = `dashboard panel ${p.id ?? '?'} "${p.title ?? ''}"`;
    if (typeof p.id !== 'number' || ids.has(p.id)) problems.push(`${where}: needs a unique numeric id`);
    else ids.add(p.id);
    const g = p.gridPos;
    if (!g || [g.h, g.w, g.x, g.y].some((n) => typeof n !== 'number') || g.x < 0 || g.w < 1 || g.x + g.w > 24) problems.push(`${where}: needs a gridPos inside the 24 columns`);
    if (p.type === 'row') continue;
    if (!p.type) problems.push(`${where}: no type`);
    if (!p.targets?.length) problems.push(`${where}: no queries`);
    if (!dsOk(p.datasource)) problems.push(`${where}: its datasource must be the dashboard's datasource variable (\${${dsVariables[0] ?? 'datasource'}})`);
    const refIds = new Set<string>();
    for (const t of p.targets ?? []) {
      if (!t.refId || refIds.has(t.refId)) problems.push(`${where}: every query needs its own refId`);
      refIds.add(t.refId ?? '');
      if (t.datasource && !dsOk(t.datasource)) problems.push(`${where} query ${t.refId}: its datasource must be the dashboard's datasource variable`);
      if (typeof t.expr !== 'string' || !t.expr.trim()) {
        problems.push(`${where} query ${t.refId}: no expr`);
        continue;
      }
      exprs.push(t.expr);
      problems.push(...exprProblems(`${where} query ${t.refId}`, t.expr, APP_SERIES));
      for (const m of t.expr.matchAll(/\$\{?(\w+)/g)) {
        if (!names.has(m[1]) && !BUILTIN_VARIABLES.has(m[1])) problems.push(`${where} query ${t.refId}: uses $${m[1]}, which the dashboard does not define`);
      }
    }
  }
  if (dsVariables.length === 0 && uids.length === 0) problems.push('dashboard: no variable of type datasource');
  const all = exprs.join('\n');
  const wanted: Array<[string, RegExp]> = [
    ['HTTP rate per area', /by \(service\) \(rate\(plaza_http_request_duration_seconds_count/],
    ['NATS handler rate per area', /by \(service\) \(rate\(plaza_nats_handler_duration_seconds_count/],
    ['p50 per area', /histogram_quantile\(0\.5, sum by \(service, le\)/],
    ['p99 per area', /histogram_quantile\(0\.99, sum by \(service, le\)/],
    ['rate per route', /by \(route\) \(rate\(plaza_http_request_duration_seconds_count/],
    ['5xx per route', /by \(route\) \(rate\(plaza_http_request_duration_seconds_count\{status=~"5/],
    ['p99 per route', /histogram_quantile\(0\.99, sum by \(route, le\) \(rate\(plaza_http_request_duration_seconds_bucket/],
    ['client p99 per subject', /histogram_quantile\(0\.99, sum by \(subject, le\) \(rate\(plaza_nats_client_request_duration_seconds_bucket/],
    ['handler p99 per subject', /histogram_quantile\(0\.99, sum by \(subject, le\) \(rate\(plaza_nats_handler_duration_seconds_bucket/],
    ['MongoDB p99 per collection', /histogram_quantile\(0\.99, sum by \(collection, le\) \(rate\(plaza_mongodb_command_duration_seconds_bucket/],
    ['cache hit ratio', /plaza_response_cache_events_total\{event="hit"\}[\s\S]*\/[\s\S]*plaza_response_cache_events_total/],
  ];
  for (const [what, re] of wanted) if (!re.test(all)) problems.push(`dashboard: no panel shows ${what}`);
  for (const name of Object.keys(PLAZA_METRICS)) if (!all.includes(name)) problems.push(`dashboard: no panel uses ${name}`);
  return problems;
}

/** Families (`# TYPE` lines) of a Prometheus text exposition, and samples that lack `service="<app>"`. */
export function readExposition(text: string, app: string): { families: Set<string>; unlabelled: string[] } {
  const families = new Set<string>();
  const unlabelled: string[] = [];
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) \S+/.exec(line);
    if (type) families.add(type[1]);
    else if (line && !line.startsWith('#') && !line.includes(`service="${app}"`)) unlabelled.push(line.split(' ')[0]);
  }
  return { families, unlabelled };
}

/** Of `used` (series names in the dashboard and the alerts), those no app's exposition declares. */
export function undeclaredSeries(used: string[], families: Set<string>): string[] {
  const base = (name: string) => name.replace(/_(bucket|sum|count)$/, '');
  return used.filter((n) => !families.has(n) && !families.has(base(n)));
}
