import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load, loadAll } from 'js-yaml';
import { checkCompose, checkImagePorts, ComposeModel, ComposeService, composeProbes } from './checks';
import type { K8sObject, RuleGroup } from './manifests';
import {
  annotationTargets,
  checkCollectorConfig,
  checkComposeObservability,
  checkDashboard,
  checkMetricsAnnotations,
  checkPodMonitors,
  checkPrometheusConfig,
  checkPrometheusRules,
  checkRuleGroups,
  checkRulesAgree,
  composeScrapeTargets,
  readExposition,
  undeclaredSeries,
} from './observability';
import { APP_SERIES, exprProblems, metricNames, syntaxProblems } from './promql';
import { crdSchema } from './schemas';

const deploy = join(__dirname, '..', '..', '..', 'deploy');
const read = (path: string) => readFileSync(join(deploy, path), 'utf8');
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('PromQL names', () => {
  it('finds the metrics of an expression, not its functions, labels, variables or numbers', () => {
    const expr = `histogram_quantile(0.99, sum by (route, le) (rate(plaza_http_request_duration_seconds_bucket{service=~"$service", route!="x y"}[$__rate_interval])))
      / on (route) group_left sum without (le) (up offset 5m) > 1e3 and absent(nodejs_version_info)`;
    expect(metricNames(expr).sort()).toEqual(['nodejs_version_info', 'plaza_http_request_duration_seconds_bucket', 'up']);
  });

  it('reports unbalanced brackets, unknown metrics and empty expressions', () => {
    expect(syntaxProblems('sum(rate(up[5m])')).toEqual(['an unclosed "("']);
    expect(syntaxProblems('rate(up{job="a"]')).toEqual(['an unmatched "]"']);
    expect(exprProblems('x', 'rate(plaza_http_requests_total[5m])', APP_SERIES)).toEqual([expect.stringContaining('plaza_http_requests_total is not a metric')]);
    expect(exprProblems('x', ' ', APP_SERIES)).toEqual([expect.stringContaining('an empty expression')]);
  });
});

const labels = (name: string, component = 'service') => ({ 'app.kubernetes.io/name': name, 'app.kubernetes.io/component': component, 'app.kubernetes.io/part-of': 'plaza' });
const select = (name: string) => ({ 'app.kubernetes.io/name': name, 'app.kubernetes.io/part-of': 'plaza' });

function app(name: string): K8sObject[] {
  const gateway = name === 'gateway';
  const port = gateway ? 9464 : 8081;
  const meta = (kind: string, apiVersion: string, spec: K8sObject['spec']): K8sObject => ({ apiVersion, kind, metadata: { name, namespace: 'plaza', labels: labels(name) }, spec });
  return [
    meta('Deployment', 'apps/v1', {
      selector: { matchLabels: select(name) },
      template: {
        metadata: {
          labels: labels(name, gateway ? 'gateway' : 'service'),
          annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port), 'prometheus.io/path': '/metrics' },
        },
        spec: {
          containers: [
            {
              name,
              ports: gateway ? [{ name: 'http', containerPort: 8080 }, { name: 'admin', containerPort: 9464 }] : [{ name: 'health', containerPort: 8081 }],
              envFrom: [{ configMapRef: { name: `${name}-config` } }],
              readinessProbe: { httpGet: { path: '/ready', port: gateway ? 'admin' : 'health' } },
              livenessProbe: { httpGet: { path: '/health', port: gateway ? 'http' : 'health' } },
            },
          ],
        },
      },
    }),
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${name}-config` }, data: gateway ? { PORT: '8080', ADMIN_HOST: '0.0.0.0', ADMIN_PORT: '9464' } : { HEALTH_PORT: '8081' } },
    meta('Service', 'v1', { selector: select(name) as never, ports: [gateway ? { name: 'http', port: 80, targetPort: 'http' } : { name: 'health', port: 8081, targetPort: 'health' }] }),
    meta('NetworkPolicy', 'networking.k8s.io/v1', { podSelector: { matchLabels: select(name) }, ingress: [{ from: [{}], ports: [{ port }] }] }),
  ];
}

const deployment = (objects: K8sObject[], name: string) => objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name) as K8sObject;
const container = (d: K8sObject) => d.spec?.template?.spec.containers[0] as NonNullable<NonNullable<K8sObject['spec']>['template']>['spec']['containers'][0];

describe('metrics in Kubernetes', () => {
  it('accepts annotated pods, the gateway ready on its admin port, Prometheus admitted', () => {
    expect(checkMetricsAnnotations([...app('gateway'), ...app('book')])).toEqual([]);
    expect(annotationTargets(app('gateway'))).toEqual([{ app: 'gateway', kind: 'metrics', path: '/metrics', port: 9464 }]);
  });

  it('reports a missing or wrong annotation, a port the container lacks, a policy that shuts Prometheus out', () => {
    const objects = app('book');
    const d = deployment(objects, 'book');
    const annotations = d.spec?.template?.metadata?.annotations as Record<string, string>;
    delete annotations['prometheus.io/scrape'];
    annotations['prometheus.io/port'] = '8080';
    annotations['prometheus.io/path'] = '/stats';
    container(d).ports = [{ name: 'health', containerPort: 9000 }];
    (objects[3].spec?.ingress ?? [])[0].ports = [{ port: 8080 }];
    const problems = checkMetricsAnnotations(objects).join('\n');
    for (const text of ['prometheus.io/scrape must be "true"', 'prometheus.io/path must be /metrics', 'prometheus.io/port is 8080, the app serves /metrics on 8081', 'metrics port 8081 is not a port', 'admits the metrics port 8081']) {
      expect(problems).toContain(text);
    }
  });

  it("reports a gateway ready on its public port, an admin port on loopback or behind the Service", () => {
    const objects = app('gateway');
    container(deployment(objects, 'gateway')).readinessProbe = { httpGet: { path: '/ready', port: 'http' } };
    (objects[1].data as Record<string, string>).ADMIN_HOST = '127.0.0.1';
    objects[2].spec = { ...objects[2].spec, ports: [{ name: 'metrics', port: 9464, targetPort: 'admin' }] };
    const problems = checkMetricsAnnotations(objects).join('\n');
    for (const text of ['readinessProbe must be GET /ready on the admin port 9464', 'ADMIN_HOST must be 0.0.0.0', "Service/gateway: routes to the gateway's admin port"]) expect(problems).toContain(text);
  });

  const monitors = loadAll(read('k8s/base/monitoring/podmonitors.yaml')) as K8sObject[];
  const inPlaza = () => monitors.map((m) => ({ ...clone(m), metadata: { ...m.metadata, namespace: 'plaza' } }));

  it('accepts the PodMonitors of base/monitoring for the apps', () => {
    expect(checkPodMonitors([...app('gateway'), ...app('book')], inPlaza())).toEqual([]);
  });

  it('reports an app no PodMonitor scrapes on its metrics port, another namespace, and a job not named after the app', () => {
    const bad = inPlaza();
    bad[0].spec = { ...bad[0].spec, podMetricsEndpoints: [{ port: 'http', path: '/metrics' }] };
    delete bad[1].spec?.jobLabel;
    bad[1].metadata.namespace = 'monitoring';
    const problems = checkPodMonitors([...app('gateway'), ...app('book')], bad).join('\n');
    expect(problems).toContain('Deployment/gateway: no PodMonitor');
    expect(problems).toContain('Deployment/book: no PodMonitor');
    expect(problems).toContain('PodMonitor/plaza-services: jobLabel must be app.kubernetes.io/name');
    expect(checkPodMonitors(app('book'), [])).toEqual(['no PodMonitor']);
  });
});

describe('alerting rules', () => {
  const composeRules = (load(read('prometheus/alerts.yml')) as { groups: RuleGroup[] }).groups;
  const prometheusRule = load(read('k8s/base/monitoring/prometheusrule.yaml')) as K8sObject;

  it('accepts the compose rules and the PrometheusRule, which agree', () => {
    expect(checkRuleGroups(composeRules, 'alerts.yml')).toEqual([]);
    expect(checkPrometheusRules([prometheusRule])).toEqual([]);
    expect(checkRulesAgree(composeRules, prometheusRule.spec?.groups ?? [])).toEqual([]);
  });

  it('reports unknown metrics, broken expressions, alerts without severity or summary, bad durations', () => {
    const groups = clone(composeRules);
    groups[0].rules[0].expr = 'sum(rate(plaza_http_requests_total[5m])) > 1';
    groups[0].rules[1].expr = 'histogram_quantile(0.99, sum by (le) (rate(plaza_http_request_duration_seconds_bucket[5m]))';
    delete groups[0].rules[2].labels;
    groups[0].rules[3].for = 'five minutes';
    const problems = checkRuleGroups(groups, 'alerts.yml').join('\n');
    for (const text of ['plaza_http_requests_total is not a metric', 'an unclosed "("', 'PlazaNatsNoResponders: an alert needs labels.severity', 'for "five minutes" is not a duration', 'no alert on the 5xx share']) {
      expect(problems).toContain(text);
    }
  });

  it('wants the alerts of docs/OPERATING.md, in Kubernetes on kube-state-metrics for every app', () => {
    expect(checkRuleGroups([{ name: 'g', rules: [{ alert: 'A', expr: 'up == 0', labels: { severity: 'x' }, annotations: { summary: 's' } }] }], 'f')).toEqual([
      'f: no alert on the 5xx share of plaza_http_request_duration_seconds_count',
      'f: no alert on a p99 latency from plaza_http_request_duration_seconds_bucket',
      'f: no alert on NATS no-responders',
      'f: no alert on reconcile drift (plaza_reconcile_drift_total)',
      'f: no alert on an app without a ready replica or scrape target naming every app',
    ]);
    const rule = clone(prometheusRule);
    rule.spec?.groups?.splice(1, 1);
    expect(checkPrometheusRules([rule])).toEqual([expect.stringContaining('no alert on an app without a ready replica')]);
    expect(checkRuleGroups([], 'f')).toEqual(['f: no rule groups']);
    // docs/OPERATING.md recommends alerting on any reconcile drift: PlazaReconcileDrift
    const withoutDrift = clone(composeRules);
    withoutDrift[0].rules = withoutDrift[0].rules.filter((r) => r.alert !== 'PlazaReconcileDrift');
    expect(withoutDrift[0].rules).toHaveLength(composeRules[0].rules.length - 1);
    expect(checkRuleGroups(withoutDrift, 'alerts.yml')).toEqual(['alerts.yml: no alert on reconcile drift (plaza_reconcile_drift_total)']);
  });

  it('reports an alert whose compose and Kubernetes versions differ', () => {
    const changed = clone(composeRules);
    changed[0].rules[0].expr += ' * 2';
    changed[0].rules.push({ alert: 'ComposeOnly', expr: 'up == 0' });
    expect(checkRulesAgree(changed, prometheusRule.spec?.groups ?? [])).toEqual([
      expect.stringContaining('alert PlazaHighErrorRatio differs'),
      expect.stringContaining('alert ComposeOnly of deploy/prometheus/alerts.yml is not in the PrometheusRule'),
    ]);
  });
});

/** The compose model of the observability part, as `docker compose config` resolves it. */
function composeModel(): { model: ComposeModel; files: Record<string, Record<string, string>> } {
  const bind = (source: string, target: string) => ({ type: 'bind', source: join(deploy, source), target });
  const otel = { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' };
  const services: Record<string, ComposeService> = {
    gateway: {
      environment: { ...otel, OTEL_SERVICE_NAME: 'gateway', PORT: '8080', ADMIN_HOST: '0.0.0.0', ADMIN_PORT: '9464' },
      healthcheck: { test: ['CMD', '/nodejs/bin/node', '/app/deploy/docker/healthcheck.js', '/ready', 'admin'] },
      ports: [{ target: 8080, published: '8080' }],
    },
    prometheus: {
      profiles: ['observability'],
      command: ['--config.file=/etc/prometheus/prometheus.yml'],
      volumes: [bind('prometheus/prometheus.yml', '/etc/prometheus/prometheus.yml'), bind('prometheus/alerts.yml', '/etc/prometheus/alerts.yml')],
      ports: [{ target: 9090, published: '9090', host_ip: '127.0.0.1' }],
    },
    'otel-collector': { profiles: ['observability'], command: ['--config=/etc/otelcol-contrib/config.yaml'] },
    grafana: { profiles: ['observability'], ports: [{ target: 3000, published: '3000', host_ip: '127.0.0.1' }] },
  };
  for (const name of ['identity', 'book', 'movie', 'note', 'event']) services[name] = { environment: { ...otel, OTEL_SERVICE_NAME: name, HEALTH_PORT: '8081' } };
  const files = {
    prometheus: { '/etc/prometheus/prometheus.yml': read('prometheus/prometheus.yml'), '/etc/prometheus/alerts.yml': read('prometheus/alerts.yml') },
    'otel-collector': { '/etc/otelcol-contrib/config.yaml': read('otel/collector.yaml') },
    grafana: {
      '/etc/grafana/provisioning/datasources/prometheus.yaml': read('grafana/provisioning/datasources/prometheus.yaml'),
      '/etc/grafana/provisioning/dashboards/plaza.yaml': read('grafana/provisioning/dashboards/plaza.yaml'),
      '/var/lib/grafana/dashboards/plaza-dashboard.json': read('grafana/plaza-dashboard.json'),
    },
  };
  return { model: { services }, files };
}

const withoutProfiles = (model: ComposeModel): ComposeModel => ({ services: Object.fromEntries(Object.entries(model.services).filter(([, s]) => !s.profiles)) });

describe('observability in compose', () => {
  it('accepts Prometheus, the collector and Grafana in their profile, reading deploy/', () => {
    const { model, files } = composeModel();
    expect(checkComposeObservability(model, withoutProfiles(model), (s) => files[s as keyof typeof files] ?? {})).toEqual([]);
    const targets = composeScrapeTargets(model, (s) => files[s as keyof typeof files] ?? {});
    expect(targets.filter((t) => t.host === 'gateway' || t.host === 'book')).toEqual([
      { job: 'gateway', host: 'gateway', port: 9464, path: '/metrics' },
      { job: 'book', host: 'book', port: 8081, path: '/metrics' },
    ]);
  });

  it('reports services outside the profile, missing config files, apps without tracing settings, a gateway checked on its public port', () => {
    const { model, files } = composeModel();
    delete model.services['otel-collector'];
    delete model.services.grafana.profiles;
    model.services.gateway.healthcheck = { test: ['CMD', '/nodejs/bin/node', '/app/deploy/docker/healthcheck.js', '/ready'] };
    delete model.services.gateway.environment?.ADMIN_HOST;
    model.services.book.environment = { HEALTH_PORT: '8081', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318' };
    const noFiles = { ...files, prometheus: { '/etc/prometheus/prometheus.yml': read('prometheus/prometheus.yml') } };
    const problems = checkComposeObservability(model, withoutProfiles(model), (s) => noFiles[s as keyof typeof noFiles] ?? {}).join('\n');
    for (const text of [
      'no otel-collector service',
      'grafana must be in the observability profile only',
      'the gateway health check must be healthcheck.js /ready admin',
      'the gateway needs ADMIN_HOST=0.0.0.0',
      'book needs OTEL_SERVICE_NAME=book',
      'book needs OTEL_TRACES_EXPORTER',
      'book OTEL_EXPORTER_OTLP_ENDPOINT must be http://<the collector service>:4318',
      'prometheus loads /etc/prometheus/alerts.yml, which is not mounted',
    ]) {
      expect(problems).toContain(text);
    }
  });

  it('reports a Prometheus config that misses an app, scrapes the wrong port or path, or a job not named after the app', () => {
    const { model } = composeModel();
    const config = load(read('prometheus/prometheus.yml')) as { scrape_configs: Array<Record<string, unknown>> };
    config.scrape_configs = config.scrape_configs.filter((j) => j.job_name !== 'movie');
    config.scrape_configs[0].static_configs = [{ targets: ['gateway:8080'] }];
    config.scrape_configs[1].metrics_path = '/prom';
    config.scrape_configs[2].job_name = 'services';
    config.scrape_configs.push({ job_name: 'jaeger', static_configs: [{ targets: ['jaeger:14269'] }] });
    expect(checkPrometheusConfig(config, model)).toEqual([
      'Prometheus scrapes gateway:8080; gateway serves /metrics on 9464 (ADMIN_PORT)',
      'Prometheus scrapes identity at /prom, not /metrics',
      'Prometheus scrapes book in job services; name the job book',
      'Prometheus does not scrape movie',
      'Prometheus scrapes jaeger:14269, which is not a compose service',
    ]);
    expect(checkPrometheusConfig('nonsense', model)).toEqual(['the Prometheus config has no scrape_configs']);
  });

  it('reports a collector that listens on localhost or exports to what it does not define', () => {
    const config = load(read('otel/collector.yaml')) as Record<string, Record<string, unknown>>;
    expect(checkCollectorConfig(config)).toEqual([]);
    const bad = clone(config) as { receivers: { otlp: { protocols: { http: { endpoint: string } } } }; service: { pipelines: { traces: { exporters: string[] } } } };
    bad.receivers.otlp.protocols.http.endpoint = 'localhost:4318';
    bad.service.pipelines.traces.exporters = ['otlp/jaeger'];
    expect(checkCollectorConfig(bad)).toEqual([
      'collector: receivers.otlp.protocols.http.endpoint must be 0.0.0.0:4318 (the default listens on localhost only)',
      'collector: the traces pipeline uses exporter otlp/jaeger, which exporters does not define',
    ]);
  });

  it('keeps the admin port off the host and the observability UIs on loopback', () => {
    const model: ComposeModel = {
      services: {
        gateway: { environment: { ADMIN_PORT: '9464' }, ports: [{ target: 8080 }, { target: 9464, published: '9464' }] },
        grafana: { profiles: ['observability'], ports: [{ target: 3000, published: '3000' }] },
      },
    };
    const problems = checkCompose(model).join('\n');
    expect(problems).toContain('the gateway publishes its admin port 9464');
    expect(problems).toContain('grafana publishes a port');
  });

  it('reads the admin health check and matches it with the image ports', () => {
    const { model } = composeModel();
    expect(composeProbes({ services: { gateway: model.services.gateway } })).toEqual([{ app: 'gateway', kind: 'compose healthcheck', path: '/ready', port: 9464 }]);
    const env = { PORT: '8080', HEALTH_PORT: '8081', ADMIN_PORT: '9464', HOST: '0.0.0.0', HEALTH_HOST: '0.0.0.0', ADMIN_HOST: '0.0.0.0' };
    expect(checkImagePorts(env, [{ app: 'gateway', kind: 'metrics', path: '/metrics', port: 9464 }])).toEqual([]);
    expect(checkImagePorts({ ...env, ADMIN_HOST: '127.0.0.1' }, [{ app: 'gateway', kind: 'metrics', path: '/metrics', port: 9465 }])).toEqual([
      'gateway metrics probe uses port 9465, the image listens on 8080 (PORT) or 9464 (ADMIN_PORT)',
      expect.stringContaining('ADMIN_HOST to 0.0.0.0'),
    ]);
  });
});

describe('Grafana dashboard', () => {
  const dashboard = JSON.parse(read('grafana/plaza-dashboard.json')) as { panels: Array<Record<string, unknown> & { targets?: Array<Record<string, unknown>> }>; templating: { list: unknown[] } };

  it('accepts deploy/grafana/plaza-dashboard.json', () => {
    expect(checkDashboard(dashboard)).toEqual([]);
  });

  it('reports unknown metrics, undefined variables, duplicate ids, fixed data sources and panels off the grid', () => {
    const bad = clone(dashboard);
    const panels = bad.panels.filter((p) => p.type !== 'row');
    (panels[0].targets ?? [])[0].expr = 'sum(rate(plaza_http_requests_total[$__rate_interval]))';
    (panels[1].targets ?? [])[0].expr = 'sum(rate(up{area=~"$area"}[5m]))';
    panels[2].id = panels[3].id;
    panels[4].datasource = { type: 'prometheus', uid: 'P1809F7CD0C75ACF3' };
    panels[5].gridPos = { h: 8, w: 12, x: 18, y: 0 };
    const problems = checkDashboard(bad).join('\n');
    for (const text of ['plaza_http_requests_total is not a metric', 'uses $area, which the dashboard does not define', 'needs a unique numeric id', "its datasource must be the dashboard's datasource variable", 'needs a gridPos inside the 24 columns', 'no panel shows HTTP rate per area']) {
      expect(problems).toContain(text);
    }
    expect(checkDashboard({ title: 'x' })).toEqual(['dashboard: not a Grafana dashboard (no panels)']);
  });

  it('reports the dashboard views docs/OPERATING.md lists when they are missing', () => {
    const bad = clone(dashboard);
    bad.panels = bad.panels.filter((p) => !String(p.title).includes('MongoDB') && !String(p.title).includes('cache'));
    const problems = checkDashboard(bad);
    expect(problems).toEqual(
      expect.arrayContaining([
        'dashboard: no panel shows MongoDB p99 per collection',
        'dashboard: no panel shows cache hit ratio',
        'dashboard: no panel uses plaza_mongodb_command_duration_seconds',
        'dashboard: no panel uses plaza_response_cache_events_total',
      ]),
    );
  });
});

describe('metrics exposition', () => {
  const text = [
    '# HELP plaza_http_request_duration_seconds answer time',
    '# TYPE plaza_http_request_duration_seconds histogram',
    'plaza_http_request_duration_seconds_bucket{le="0.1",route="/v2/book/:id",method="GET",status="200",service="gateway"} 3',
    '# TYPE process_cpu_seconds_total counter',
    'process_cpu_seconds_total 1.5',
  ].join('\n');

  it('reads the families and finds series without the app\'s service label', () => {
    const { families, unlabelled } = readExposition(text, 'gateway');
    expect([...families]).toEqual(['plaza_http_request_duration_seconds', 'process_cpu_seconds_total']);
    expect(unlabelled).toEqual(['process_cpu_seconds_total']);
    expect(undeclaredSeries(['plaza_http_request_duration_seconds_count', 'process_cpu_seconds_total', 'plaza_login_lockouts_total'], families)).toEqual(['plaza_login_lockouts_total']);
  });
});

describe('CRD schemas', () => {
  it('makes an openAPIV3Schema strict, with int-or-string and nullable fields', () => {
    const schema = crdSchema({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
            labels: { type: 'object', additionalProperties: { type: 'string' } },
            free: { type: 'object', properties: { a: { type: 'string' } }, 'x-kubernetes-preserve-unknown-fields': true },
            items: { type: 'array', items: { type: 'object', properties: { b: { type: 'string', nullable: true } } } },
          },
        },
      },
    });
    expect(schema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      properties: {
        spec: {
          type: 'object',
          additionalProperties: false,
          properties: {
            port: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
            labels: { type: 'object', additionalProperties: { type: 'string' } },
            free: { type: 'object', properties: { a: { type: 'string' } }, 'x-kubernetes-preserve-unknown-fields': true },
            items: { type: 'array', items: { type: 'object', additionalProperties: false, properties: { b: { type: ['string', 'null'], nullable: true } } } },
          },
        },
      },
    });
  });
});
