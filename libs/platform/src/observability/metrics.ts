import { collectDefaultMetrics, Counter, Histogram, register } from 'prom-client';

/**
 * The Prometheus metrics of one process (docs/OPERATING.md lists them), on prom-client's default
 * registry. Every series carries `service` (gateway, identity, book...), so one dashboard reads
 * every area the same way whatever the scrape job is called.
 *
 * Labels are bounded by construction: route templates, message subjects, collection and command
 * names, error codes: never a raw path, an id, a user name or a token.
 *
 * Off (`METRICS_ENABLED=false`), every method returns at once and nothing is registered: the
 * benchmark measures the cost of metrics against that.
 */

/** Seconds: from a cached read (well under a millisecond) to a request's timeout (5 s by default). */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What a request over NATS ended with: `ok`, `timeout`, `no_responders`, or the API error code. */
export type NatsOutcome = 'ok' | 'timeout' | 'no_responders' | `${number}`;

type Observer = { observe(value: number): void };
type Incrementer = { inc(value?: number): void };

/**
 * Each label combination's child, kept (one Map lookup on a joined key). prom-client validates
 * and hashes the labels on every `observe` all the same: 0.5–1 µs an observe whichever way it is
 * called (docs/PERFORMANCE.md, "What tracing costs").
 */
class Children<T> {
  private readonly children = new Map<string, T>();
  constructor(private readonly make: (values: string[]) => T) {}

  get(values: string[]): T {
    const key = values.join('\u0000');
    let child = this.children.get(key);
    if (!child) {
      child = this.make(values);
      this.children.set(key, child);
    }
    return child;
  }
}

function histogram(name: string, help: string, labelNames: string[]): Children<Observer> {
  const metric = new Histogram({ name, help, labelNames, buckets: DURATION_BUCKETS });
  return new Children((values) => metric.labels(...values));
}

function counter(name: string, help: string, labelNames: string[]): Children<Incrementer> {
  const metric = new Counter({ name, help, labelNames });
  return new Children((values) => (labelNames.length ? metric.labels(...values) : metric));
}

class Instruments {
  readonly http = histogram('plaza_http_request_duration_seconds', 'HTTP requests answered by the gateway, by route template, method and status', ['route', 'method', 'status']);
  readonly natsClient = histogram('plaza_nats_client_request_duration_seconds', 'Requests this process sent over NATS, by subject and outcome', ['subject', 'outcome']);
  readonly natsHandler = histogram('plaza_nats_handler_duration_seconds', 'NATS requests this service handled, by subject and outcome', ['subject', 'outcome']);
  readonly mongo = histogram('plaza_mongodb_command_duration_seconds', 'MongoDB commands, by collection, command and outcome (the driver\'s command monitoring)', ['collection', 'command', 'outcome']);
  readonly cache = counter('plaza_response_cache_events_total', 'Gateway response cache: hits, misses, evictions (room for newer answers) and invalidated answers', ['event']);
  readonly rateLimit = counter('plaza_rate_limit_refusals_total', 'Requests refused with 429 by a rate limit, by limit', ['limit']);
  readonly tokenRejections = counter('plaza_token_rejections_total', 'Access tokens or API keys refused, by error code', ['code']);
  readonly lockouts = counter('plaza_login_lockouts_total', 'Sign-ins refused because the account is locked after failed attempts', []);
  readonly shed = counter('plaza_requests_shed_total', 'Requests a service refused at once (load shedding): over its capacity, or over the caller\'s share', ['subject', 'reason']);
  readonly drift = counter('plaza_reconcile_drift_total', 'Derived values a reconciliation found different from their source, by kind (any is a bug: every write is journaled)', ['kind']);
  readonly journalRepairs = counter('plaza_repair_journal_repairs_total', 'Targets of writes left unfinished (a process died midway) that the repair sweep re-derived, by outcome', ['outcome']);
  readonly imported = counter('plaza_imported_records_total', 'Import records handled, by kind and outcome', ['kind', 'outcome']);
}

let instruments: Instruments | undefined;

/**
 * Called once at start-up by every process, before anything records. Registers the process and
 * runtime defaults (CPU, memory, event-loop lag, GC) too.
 */
export function initMetrics(service: string, enabled: boolean): void {
  if (!enabled || instruments) return;
  register.setDefaultLabels({ service });
  collectDefaultMetrics();
  instruments = new Instruments();
}

/** The text a Prometheus scrape reads, with its content type; undefined while metrics are off. */
export async function metricsText(): Promise<{ contentType: string; body: string } | undefined> {
  if (!instruments) return undefined;
  return { contentType: register.contentType, body: await register.metrics() };
}

export const metricsEnabled = () => instruments !== undefined;

/** Seconds since `started` (a `performance.now()` reading). */
export const secondsSince = (started: number) => (performance.now() - started) / 1000;

/** The recording side, used by the gateway, the services and the shared NATS and database code. */
export const Metrics = {
  httpRequest(route: string, method: string, status: number, seconds: number): void {
    instruments?.http.get([route, method, String(status)]).observe(seconds);
  },
  natsClientRequest(subject: string, outcome: NatsOutcome, seconds: number): void {
    instruments?.natsClient.get([subject, outcome]).observe(seconds);
  },
  natsHandled(subject: string, outcome: NatsOutcome, seconds: number): void {
    instruments?.natsHandler.get([subject, outcome]).observe(seconds);
  },
  mongoCommand(collection: string, command: string, ok: boolean, seconds: number): void {
    instruments?.mongo.get([collection, command, ok ? 'ok' : 'error']).observe(seconds);
  },
  cacheEvent(event: 'hit' | 'miss' | 'eviction' | 'invalidation', count = 1): void {
    instruments?.cache.get([event]).inc(count);
  },
  rateLimitRefused(limit: string): void {
    instruments?.rateLimit.get([limit]).inc();
  },
  tokenRejected(code: number): void {
    instruments?.tokenRejections.get([String(code)]).inc();
  },
  loginLockedOut(): void {
    instruments?.lockouts.get([]).inc();
  },
  shed(subject: string, reason: 'capacity' | 'caller'): void {
    instruments?.shed.get([subject, reason]).inc();
  },
  reconcileDrift(kind: string, count: number): void {
    if (count > 0) instruments?.drift.get([kind]).inc(count);
  },
  journalRepairs(outcome: 'repaired' | 'failed', count: number): void {
    if (count > 0) instruments?.journalRepairs.get([outcome]).inc(count);
  },
  imported(kind: string, ok: boolean): void {
    instruments?.imported.get([kind, ok ? 'ok' : 'error']).inc();
  },
};
