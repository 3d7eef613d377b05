import { costTargets, dropInheritedObservability, metricsProblems, observabilityEnv, tracingProblems } from './cost';
import { emptyStats } from './otlp-sink';
import { CostReport, CostRow, MetricsScrape, Observability, renderMarkdown, Report } from './report';

const row = (read: 'warm' | 'cold', config: Observability, ratio: number, rps = 40_000 * ratio): CostRow => ({
  read, config, rps, p50: 1, p90: 1, p99: 2, p999: 4, errors: 0, requests: rps * 5, ratio, ratios: [ratio, ratio], servedInMeasuredRounds: rps * 10, servedInWarmUp: rps * 2,
  cpu: { gateway: 20, 'nats-server': 0, ...(config === 'traced' ? { 'otlp-sink': 3 } : {}) },
});
const scrapes = (on: number, off: number): MetricsScrape[] => [
  { config: 'metrics off', process: 'gateway', status: off, samples: off === 200 ? 40 : 0 },
  { config: 'metrics on', process: 'gateway', status: on, samples: on === 200 ? 40 : 0 },
  { config: 'traced', process: 'book', status: 200, samples: 35 },
];
const received = { ...emptyStats(), requests: 12, bytes: 3 << 20, spans: 5000, byService: { gateway: 4000, book: 1000 }, contentTypes: { 'application/x-protobuf': 12 } };
const cost = (onRatio: number, tracedRatio: number, over: Partial<CostReport> = {}, tracedColdRatio = 0.9): CostReport => ({
  cycles: { warm: 5, cold: 3 }, protocol: 'http/protobuf',
  rows: [row('warm', 'metrics off', 1), row('warm', 'metrics on', onRatio), row('warm', 'traced', tracedRatio), row('cold', 'metrics off', 1, 1400), row('cold', 'metrics on', 0.99, 1390), row('cold', 'traced', tracedColdRatio, 1400 * tracedColdRatio)],
  scrapes: scrapes(200, 404), received, tracedRequests: 10_000, ...over,
});

describe('what metrics and tracing cost', () => {
  it('configures each stack through the apps\' environment only', () => {
    expect(observabilityEnv('metrics off', 'http://127.0.0.1:1', 'http/protobuf')).toEqual({ METRICS_ENABLED: 'false' });
    expect(observabilityEnv('metrics on', 'http://127.0.0.1:1', 'http/protobuf')).toEqual({ METRICS_ENABLED: 'true' });
    expect(observabilityEnv('traced', 'http://127.0.0.1:1', 'http/json')).toEqual({
      METRICS_ENABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_TRACES_SAMPLER: 'always_on',
    });
  });

  it('keeps the benchmark\'s own OTEL_* and METRICS_ENABLED out of the apps', () => {
    const env: NodeJS.ProcessEnv = { PATH: '/bin', OTEL_TRACES_EXPORTER: 'otlp', OTEL_BSP_MAX_QUEUE_SIZE: '10', METRICS_ENABLED: 'false' };
    expect(dropInheritedObservability(env).sort()).toEqual(['METRICS_ENABLED', 'OTEL_BSP_MAX_QUEUE_SIZE', 'OTEL_TRACES_EXPORTER']);
    expect(env).toEqual({ PATH: '/bin' });
  });

  it('meets the targets at their lines, every ratio to metrics off', () => {
    const checks = costTargets(cost(0.95, 0.75, {}, 0.75));
    expect(checks.map((c) => c.ok)).toEqual([true, true, true]);
    expect(checks[0].measured).toBe('0.95 × metrics off (cycles: 0.95, 0.95); /metrics served only where on');
    expect(checks[1].measured).toBe('0.75 × metrics off (cycles: 0.75, 0.75); 5000 spans received (gateway 4000, book 1000)');
  });

  it('misses them below their lines', () => {
    expect(costTargets(cost(0.94, 0.8)).map((c) => c.ok)).toEqual([false, true, true]);
    expect(costTargets(cost(0.99, 0.74)).map((c) => c.ok)).toEqual([true, false, true]);
    expect(costTargets(cost(0.99, 0.8, {}, 0.74)).map((c) => c.ok)).toEqual([true, true, false]);
  });

  it('misses the metrics target when the configurations did not take: metrics served while off, or not served while on', () => {
    expect(metricsProblems(scrapes(200, 404))).toEqual([]);
    expect(metricsProblems(scrapes(200, 0))).toEqual([]);
    expect(metricsProblems(scrapes(200, 200))).toEqual(['gateway served /metrics with METRICS_ENABLED=false']);
    expect(metricsProblems(scrapes(404, 404))).toEqual(['gateway (metrics on) answered /metrics with 404']);
    const checks = costTargets(cost(1.0, 0.9, { scrapes: scrapes(0, 404) }));
    expect(checks[0]).toMatchObject({ ok: false, measured: '1.00 × metrics off (cycles: 1.00, 1.00); gateway (metrics on) answered /metrics with no connection' });
  });

  it('misses the tracing target unless spans came from the gateway and the book service', () => {
    expect(tracingProblems(received)).toEqual([]);
    expect(tracingProblems(emptyStats())).toEqual(['no spans received (0 export requests, 0 unreadable)']);
    expect(tracingProblems({ ...received, byService: { gateway: 4990, identity: 10 } })).toEqual(['no spans from book (spans by service: gateway 4990, identity 10)']);
    expect(costTargets(cost(1.0, 0.99, { received: emptyStats() }))[1].ok).toBe(false);
  });

  it('writes the figures into the report', () => {
    const c = cost(0.97, 0.8);
    const report: Report = {
      date: 'now', command: 'npm run bench', machine: 'm', versions: {}, load: 'l', startToReadyMs: 1000, scenarios: [], memory: [], scale: [],
      commands: [], cpu: [{ scenario: 'GET /v2/book/:id warm', micros: { gateway: 20 } }, ...c.rows.map((r) => ({ scenario: `GET /v2/book/:id ${r.read}, ${r.config}`, micros: r.cpu }))],
      cost: c, targets: costTargets(c).map((t) => ({ ...t })),
    };
    const md = renderMarkdown(report);
    expect(md).toContain('## What metrics and tracing cost');
    expect(md).toContain('| GET /v2/book/:id warm | metrics off | 40000 | 1 | 2 | 4 | 0 | 1.00 | 20 |');
    expect(md).toContain('| GET /v2/book/:id warm | metrics on | 38800 | 1 | 2 | 4 | 0 | 0.97 (0.97, 0.97) | 20 |');
    expect(md).toContain('| GET /v2/book/:id cold | traced | 1260 | 1 | 2 | 4 | 0 | 0.90 (0.90, 0.90) | 23 |');
    expect(md).toContain('`GET /metrics` after the rounds: metrics off: gateway 404; metrics on: gateway 200 (40 samples); traced: book 200 (35 samples).');
    expect(md).toContain('The sink received 12 export requests (3.0 MiB, application/x-protobuf) holding 5000 spans (gateway 4000, book 1000): 0.50 a request');
    // the CPU table takes its columns from every row, the sink's included
    expect(md).toContain('| scenario | gateway | otlp-sink | total |');
    expect(md).toContain('| GET /v2/book/:id warm, traced | 20 | 3 | 23 |');
    expect(md).toContain('| tracing at 100 % sampling, with metrics, costs ≤ 25 %: warm GET /v2/book/:id traced ≥ 0.75 × metrics off | 0.80 × metrics off');
  });
});
