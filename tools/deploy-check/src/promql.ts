/**
 * What the dashboards and alerts may query: the metrics the apps export (docs/OPERATING.md, "Metrics": prom-client,
 * default registry, a `service` label on every series) and, for alerts, kube-state-metrics and
 * Prometheus' own `up`. A structural look at PromQL, not a parser: enough to catch a misspelt or
 * renamed metric and unbalanced brackets. (@prometheus-io/lezer-promql, the grammar the
 * Prometheus UI uses, would parse fully; it is not a dependency of the project.)
 */

/** Plaza's own metrics (histograms in seconds), as the apps define them. */
export const PLAZA_METRICS: Record<string, 'histogram' | 'counter'> = {
  plaza_http_request_duration_seconds: 'histogram',
  plaza_nats_client_request_duration_seconds: 'histogram',
  plaza_nats_handler_duration_seconds: 'histogram',
  plaza_mongodb_command_duration_seconds: 'histogram',
  plaza_response_cache_events_total: 'counter',
  plaza_rate_limit_refusals_total: 'counter',
  plaza_token_rejections_total: 'counter',
  plaza_login_lockouts_total: 'counter',
  plaza_imported_records_total: 'counter',
  plaza_repair_journal_repairs_total: 'counter',
  plaza_reconcile_drift_total: 'counter',
};

/** prom-client's collectDefaultMetrics() on Linux (v15). */
export const PROM_CLIENT_DEFAULT_METRICS: Record<string, 'histogram' | 'counter' | 'gauge'> = {
  process_cpu_user_seconds_total: 'counter',
  process_cpu_system_seconds_total: 'counter',
  process_cpu_seconds_total: 'counter',
  process_start_time_seconds: 'gauge',
  process_resident_memory_bytes: 'gauge',
  process_virtual_memory_bytes: 'gauge',
  process_heap_bytes: 'gauge',
  process_open_fds: 'gauge',
  process_max_fds: 'gauge',
  nodejs_eventloop_lag_seconds: 'gauge',
  ...Object.fromEntries(['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99'].map((s) => [`nodejs_eventloop_lag_${s}_seconds`, 'gauge' as const])),
  nodejs_active_resources: 'gauge',
  nodejs_active_resources_total: 'gauge',
  nodejs_active_handles: 'gauge',
  nodejs_active_handles_total: 'gauge',
  nodejs_active_requests: 'gauge',
  nodejs_active_requests_total: 'gauge',
  nodejs_heap_size_total_bytes: 'gauge',
  nodejs_heap_size_used_bytes: 'gauge',
  nodejs_external_memory_bytes: 'gauge',
  nodejs_heap_space_size_total_bytes: 'gauge',
  nodejs_heap_space_size_used_bytes: 'gauge',
  nodejs_heap_space_size_available_bytes: 'gauge',
  nodejs_version_info: 'gauge',
  nodejs_gc_duration_seconds: 'histogram',
};

/** What alerts may use besides the apps' metrics: scrape health and kube-state-metrics. */
export const PLATFORM_METRICS = ['up', 'kube_deployment_status_replicas_available', 'kube_deployment_spec_replicas', 'kube_pod_container_status_restarts_total'];

/** Every series name a family exposes: a histogram's _bucket, _sum and _count. */
export function seriesNames(families: Record<string, string>): Set<string> {
  const names = new Set<string>();
  for (const [name, type] of Object.entries(families)) {
    if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(name + s);
    else names.add(name);
  }
  return names;
}

export const APP_SERIES = seriesNames({ ...PLAZA_METRICS, ...PROM_CLIENT_DEFAULT_METRICS });

// aggregation operators, set and binary keywords, literals: identifiers that are not metrics
const KEYWORDS = new Set([
  'sum', 'min', 'max', 'avg', 'count', 'stddev', 'stdvar', 'topk', 'bottomk', 'quantile', 'count_values', 'group', 'limitk', 'limit_ratio',
  'and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'atan2', 'inf', 'nan', 'start', 'end',
]);

/** The metric names an expression selects. Grafana's `$variables` may stand anywhere. */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""') // string literals
    .replace(/\{[^}]*\}/g, ' ') // label matchers
    .replace(/\[[^\]]*\]/g, ' ') // ranges and subqueries
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ') // label lists
    .replace(/\$\{[^}]*\}|\$\w+/g, ' '); // Grafana variables
  const names = new Set<string>();
  // identifiers not inside a number (1e3, 5m) and not called as functions
  for (const m of bare.matchAll(/(?<![\w.:])([a-zA-Z_:][\w:]*)(?![\w:]|\s*\()/g)) {
    if (!KEYWORDS.has(m[1])) names.add(m[1]);
  }
  return [...names];
}

/** Brackets and quotes pair up (what a typo in a hand-written expression most often breaks). */
export function syntaxProblems(expr: string): string[] {
  const problems: string[] = [];
  const bare = expr.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""');
  if (/["'`]/.test(bare.replace(/""/g, ''))) problems.push('an unterminated string');
  const stack: string[] = [];
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  for (const c of bare) {
    if ('([{'.includes(c)) stack.push(c);
    else if (c in pairs && stack.pop() !== pairs[c]) {
      problems.push(`an unmatched "${c}"`);
      return problems;
    }
  }
  if (stack.length) problems.push(`an unclosed "${stack[stack.length - 1]}"`);
  if (!expr.trim()) problems.push('an empty expression');
  return problems;
}

/** Problems with one expression: syntax, and names outside `known`. */
export function exprProblems(where: string, expr: string, known: Set<string>): string[] {
  return [
    ...syntaxProblems(expr).map((p) => `${where}: ${p} in ${JSON.stringify(expr.trim())}`),
    ...metricNames(expr)
      .filter((n) => !known.has(n))
      .map((n) => `${where}: ${n} is not a metric the apps export (tools/deploy-check/src/promql.ts lists them)`),
  ];
}
