import { Stack } from '@plaza/stack';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Contender, LoadOptions, measureInterleaved, single } from './load';
import { emptyStats, OtlpSink, SinkStats } from './otlp-sink';
import { CpuMeter } from './proc';
import { CostReport, CostRow, MetricsScrape, Observability, TargetCheck } from './report';
import { idRead } from './scenarios';

/**
 * What metrics and tracing cost (docs/PERFORMANCE.md, "What tracing costs"): the warm and cold book reads on three stacks that
 * differ only in their environment, measured in the same cycles. The metrics-off stack is the
 * baseline of both targets: metrics may cost 5 % of its warm rate, metrics and tracing at 100 %
 * sampling together 25 %.
 */

/** In cycle order; the first is the baseline every ratio is taken to. */
export const CONFIGURATIONS: readonly Observability[] = ['metrics off', 'metrics on', 'traced'];

/** The warm read with metrics on must keep this share of its rate with metrics off. */
export const METRICS_FLOOR = 0.95;
/** The warm read traced at 100 % (metrics on too) must keep this share of its rate with metrics off. */
export const TRACED_FLOOR = 0.75;

/** The environment that makes a stack one configuration (the apps' contract: libs/platform). */
export function observabilityEnv(config: Observability, endpoint: string, protocol: string): Record<string, string> {
  switch (config) {
    case 'metrics off':
      return { METRICS_ENABLED: 'false' };
    case 'metrics on':
      return { METRICS_ENABLED: 'true' };
    case 'traced':
      return {
        METRICS_ENABLED: 'true',
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_TRACES_SAMPLER: 'always_on',
      };
  }
}

/**
 * The apps inherit the benchmark's own environment: an OTEL_* variable or METRICS_ENABLED set
 * there would trace or silence the stacks this section compares. Returns what it removed.
 */
export function dropInheritedObservability(env: NodeJS.ProcessEnv = process.env): string[] {
  const names = Object.keys(env).filter((name) => name.startsWith('OTEL_') || name === 'METRICS_ENABLED');
  for (const name of names) delete env[name];
  return names;
}

/** What went wrong with the metrics configurations, as read from the scrapes (empty: as configured). */
export function metricsProblems(scrapes: MetricsScrape[]): string[] {
  return scrapes.flatMap((s) => {
    if (s.config === 'metrics off') return s.status === 200 ? [`${s.process} served /metrics with METRICS_ENABLED=false`] : [];
    return s.status === 200 && s.samples > 0 ? [] : [`${s.process} (${s.config}) answered /metrics with ${s.status || 'no connection'}`];
  });
}

/**
 * The processes the book reads cross, by the service name each gives its spans (the apps name
 * themselves when OTEL_SERVICE_NAME is unset, as here): both must have exported spans.
 */
export const TRACED_SERVICES = ['gateway', 'book'];

/** Why the traced stack may not have been traced: no spans, or none from a process the reads cross. */
export function tracingProblems(received: SinkStats): string[] {
  if (received.spans === 0) return [`no spans received (${received.requests} export requests, ${received.unreadable} unreadable)`];
  const missing = TRACED_SERVICES.filter((s) => !received.byService[s]);
  return missing.length ? [`no spans from ${missing.join(', ')} (spans by service: ${Object.entries(received.byService).map(([s, n]) => `${s} ${n}`).join(', ')})`] : [];
}

const cycles = (ratios: number[]) => ratios.map((r) => r.toFixed(2)).join(', ');

/**
 * The two targets of docs/PERFORMANCE.md ("Targets, and what limits each") on the warm read, and the tracing one on the cold read too: a cached
 * read is the gateway's work alone, a cold one crosses every process a trace follows.
 */
export function costTargets(cost: CostReport): TargetCheck[] {
  const row = (config: Observability, read: 'warm' | 'cold' = 'warm') => cost.rows.find((r) => r.read === read && r.config === config);
  const on = row('metrics on');
  const traced = row('traced');
  const tracedCold = row('traced', 'cold');
  const metrics = metricsProblems(cost.scrapes);
  const tracing = tracingProblems(cost.received);
  const measured = (r: CostRow | undefined, problems: string[], proof: string) =>
    `${r ? `${r.ratio.toFixed(2)} × metrics off (cycles: ${cycles(r.ratios)})` : 'not measured'}; ${problems.length ? problems.join('; ') : proof}`;
  const spans = Object.entries(cost.received.byService).map(([s, n]) => `${s} ${n}`).join(', ');
  return [
    {
      target: `metrics cost ≤ 5 %: warm GET /v2/book/:id, metrics on ≥ ${METRICS_FLOOR.toFixed(2)} × metrics off`,
      measured: measured(on, metrics, '/metrics served only where on'),
      ok: Boolean(on && on.ratio >= METRICS_FLOOR && metrics.length === 0),
    },
    {
      target: `tracing at 100 % sampling, with metrics, costs ≤ 25 %: warm GET /v2/book/:id traced ≥ ${TRACED_FLOOR.toFixed(2)} × metrics off`,
      measured: measured(traced, tracing, `${cost.received.spans} spans received (${spans})`),
      ok: Boolean(traced && traced.ratio >= TRACED_FLOOR && tracing.length === 0),
      seeAlso: 'docs/PERFORMANCE.md "What tracing costs"',
    },
    {
      target: `tracing at 100 % sampling, with metrics, costs ≤ 25 %: cold GET /v2/book/:id traced ≥ ${TRACED_FLOOR.toFixed(2)} × metrics off`,
      measured: measured(tracedCold, tracing, 'gateway, NATS, book and MongoDB spans'),
      ok: Boolean(tracedCold && tracedCold.ratio >= TRACED_FLOOR && tracing.length === 0),
    },
  ];
}

interface Variant {
  config: Observability;
  stack: Stack;
  cold: { baseUrl: string; adminUrl: string };
  /** The processes whose CPU its rows count: its own, the shared database, the sink for the traced one. */
  pids: Map<string, number | undefined>;
}

export interface CostOptions {
  /** The benchmark's stack: its database (with the catalogue), signing keys and secrets are shared. */
  main: Stack;
  dataDir: string;
  /** The environment the benchmark gives every app of its own stack. */
  env: Record<string, string>;
  hotBooks: string[];
  books: string[];
  token: string;
  load: LoadOptions;
  warmCycles: number;
  coldCycles: number;
  /** OTEL_EXPORTER_OTLP_PROTOCOL of the traced stack. */
  protocol: string;
  say: (line: string) => void;
}

async function startVariant(config: Observability, o: CostOptions, sink: OtlpSink): Promise<Variant> {
  const dir = join(o.dataDir, `cost-${config.replace(/ /g, '-')}`);
  mkdirSync(dir, { recursive: true });
  // the same secrets and signing keys as the benchmark's stack: its token and answers hold here too
  copyFileSync(join(o.dataDir, 'secrets.json'), join(dir, 'secrets.json'));
  const stack = await Stack.start({
    dataDir: dir,
    mongoUrl: o.main.mongoUrl,
    // the three share the benchmark's database, so they take the MongoDB branch, which holds no
    // one-instance lease (docs/ENGINES.md, "Replicas"); a by-id book read is the same on both
    env: { ...o.env, ...observabilityEnv(config, sink.endpoint, o.protocol), DATABASE_MODE: 'mongodb' },
    appEnv: { identity: { JWT_KEYS_DIR: join(o.dataDir, 'keys') } },
  });
  try {
    const cold = await stack.startExtraGateway({ RESPONSE_CACHE_ENABLED: 'false' });
    const pids = new Map<string, number | undefined>([...stack.apps.entries()].map(([n, p]) => [n, p.pid]));
    if (stack.nats) pids.set('nats-server', stack.nats.process.pid);
    if (o.main.mongo) pids.set(o.main.mongo.kind, o.main.mongo.process.pid);
    if (config === 'traced') pids.set('otlp-sink', sink.pid);
    return { config, stack, cold, pids };
  } catch (err) {
    await stack.stop().catch(() => undefined);
    throw err;
  }
}

async function scrape(config: Observability, process: string, url: string): Promise<MetricsScrape> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    const text = await res.text();
    const samples = res.status === 200 ? text.split('\n').filter((line) => line.trim() && !line.startsWith('#')).length : 0;
    return { config, process, status: res.status, samples };
  } catch {
    return { config, process, status: 0, samples: 0 };
  }
}

/** The processes the book reads cross, each at its `/metrics`. */
function scrapeVariant(v: Variant): Promise<MetricsScrape[]> {
  return Promise.all([
    scrape(v.config, 'gateway', `${v.stack.adminUrl}/metrics`),
    scrape(v.config, 'gateway-1', `${v.cold.adminUrl}/metrics`),
    scrape(v.config, 'book', `http://127.0.0.1:${v.stack.healthPort('book') ?? 0}/metrics`),
  ]);
}

export async function measureCost(o: CostOptions): Promise<CostReport> {
  const started = Date.now();
  const dropped = dropInheritedObservability();
  if (dropped.length) o.say(`  (left out of the apps' environment: ${dropped.join(', ')})`);
  const sink = await OtlpSink.start(join(o.dataDir, 'logs', 'otlp-sink.log'));
  const variants: Variant[] = [];
  const stopStacks = () => Promise.all(variants.splice(0).map((v) => v.stack.stop().catch(() => undefined)));
  try {
    const settled = await Promise.allSettled(CONFIGURATIONS.map((config) => startVariant(config, o, sink)));
    for (const s of settled) if (s.status === 'fulfilled') variants.push(s.value);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    o.say(`  stacks of their own, ${CONFIGURATIONS.join(', ')}, ready in ${Math.round((Date.now() - started) / 1000)} s`);

    const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];
    const reads = {
      warm: single(idRead('/v2/book/', () => pick(o.hotBooks), o.token)),
      cold: single(idRead('/v2/book/', () => pick(o.books), o.token)),
    };
    const rows: CostRow[] = [];
    for (const read of ['warm', 'cold'] as const) {
      o.say(`  GET /v2/book/:id ${read}, ${CONFIGURATIONS.join(', ')}, in alternating cycles...`);
      const meters = variants.map((v) => new CpuMeter(v.pids));
      const contenders: Contender[] = variants.map((v, i) => ({ url: read === 'warm' ? v.stack.baseUrl : v.cold.baseUrl, target: reads[read], meter: meters[i] }));
      const results = await measureInterleaved(contenders, o.load, read === 'warm' ? o.warmCycles : o.coldCycles);
      for (const [i, r] of results.entries()) {
        rows.push({ read, config: variants[i].config, ...r, cpu: meters[i].perRequest(r.servedInMeasuredRounds) });
        o.say(`    ${variants[i].config}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}${i > 0 ? `, ${r.ratio.toFixed(2)} × ${CONFIGURATIONS[0]} (cycles: ${cycles(r.ratios)})` : ''}${r.failures?.length ? `: ${r.failures.join('; ')}` : ''}`);
      }
    }
    const scrapes = (await Promise.all(variants.map(scrapeVariant))).flat();
    const tracedRequests = rows.filter((r) => r.config === 'traced').reduce((a, r) => a + r.servedInMeasuredRounds + r.servedInWarmUp, 0);
    // stopped before the sink is read: a stack's last spans leave on its shutdown
    const stopping = Date.now();
    await stopStacks();
    const received = await sink.stats().catch(() => emptyStats());
    o.say(`    traced: the sink received ${received.requests} export requests, ${received.spans} spans (${Object.entries(received.byService).map(([s, n]) => `${s} ${n}`).join(', ') || 'none'})`);
    o.say(`    (stacks stopped in ${Math.round((Date.now() - stopping) / 1000)} s; the whole section took ${Math.round((Date.now() - started) / 1000)} s)`);
    return { cycles: { warm: o.warmCycles, cold: o.coldCycles }, protocol: o.protocol, rows, scrapes, received, tracedRequests };
  } finally {
    await stopStacks();
    await sink.stop();
  }
}
