import {
  Context, context, ContextManager, defaultTextMapGetter, propagation, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace,
} from '@opentelemetry/api';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseBoolean } from '../config/load-config';

/**
 * OpenTelemetry tracing (docs/OPERATING.md, "Traces"): configured only by the standard `OTEL_*`
 * variables, and off unless they ask for it. One client request makes one trace: the gateway's
 * HTTP server span, its NATS request span, the service's handler span and the MongoDB spans
 * under it, linked by W3C `traceparent` in the NATS message headers.
 */

/** True when the environment asks for traces: an exporter other than `none`, or an OTLP endpoint. */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (parseBoolean(env.OTEL_SDK_DISABLED) === true) return false;
  const exporters = env.OTEL_TRACES_EXPORTER?.split(',').map((e) => e.trim()).filter(Boolean);
  if (exporters) return exporters.some((e) => e !== 'none');
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** No span is ever implicitly active: each context goes only where it is handed (the API's default). */
class ExplicitContext implements ContextManager {
  active(): Context {
    return ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(_context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return fn.call(thisArg, ...args);
  }
  bind<T>(_context: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    return this;
  }
}

let active = false;
export const tracingActive = () => active;

interface Sdk {
  start(): void;
  shutdown(): Promise<void>;
}
let sdk: Sdk | undefined;

export interface TracingOptions {
  /**
   * Whether the active span follows async work by itself (the SDK's AsyncLocalStorage context
   * manager). The services need it: the MongoDB instrumentation finds its parent that way. The
   * gateway does without: the context manager's async hooks made every request of the process
   * pay, traced or not (a cached read at about half its rate in the benchmark), so the gateway
   * keeps each request's context on the request and hands it to the NATS client explicitly.
   */
  implicitContext: boolean;
}

/**
 * Starts the SDK when the environment asks for it. Must run before `mongodb` is loaded, so each
 * app's main.ts imports its instrumentation.ts first. The SDK is loaded only then: a process
 * without tracing never loads it.
 */
export function startTracing(service: string, options: TracingOptions, env: NodeJS.ProcessEnv = process.env): boolean {
  if (active || !tracingRequested(env)) return active;
  env.OTEL_SERVICE_NAME ||= service;
  // traces only: Prometheus carries the metrics and stdout the logs
  env.OTEL_METRICS_EXPORTER ||= 'none';
  env.OTEL_LOGS_EXPORTER ||= 'none';
  // fuller batches than the SDK's defaults (2048 queued, 512 a request): a busy gateway makes tens
  // of thousands of spans a second, which a small queue drops and small batches send at more cost
  env.OTEL_BSP_MAX_QUEUE_SIZE ||= '8192';
  env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE ||= '1024';
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { MongoDBInstrumentation } = require('@opentelemetry/instrumentation-mongodb') as typeof import('@opentelemetry/instrumentation-mongodb');
  /* eslint-enable @typescript-eslint/no-require-imports */
  // values in statements are replaced by `?` (enhancedDatabaseReporting stays off): no user data in spans
  sdk = new NodeSDK({
    instrumentations: [new MongoDBInstrumentation()],
    ...(options.implicitContext ? {} : { contextManager: new ExplicitContext() }),
  });
  sdk.start();
  active = true;
  return active;
}

/** Sends the spans still buffered (on shutdown). */
export async function stopTracing(): Promise<void> {
  await sdk?.shutdown().catch(() => undefined);
}

/** Looked up once the SDK is registered: each lookup builds a key and searches the provider's map. */
let plazaTracer: ReturnType<typeof trace.getTracer> | undefined;
const tracer = () => (plazaTracer ??= trace.getTracer('plaza'));

/** The W3C headers of `ctx`, for a message that leaves this process. */
export function traceHeaders(ctx: Context, set: (name: string, value: string) => void): void {
  propagation.inject(ctx, undefined, { set: (_carrier, name, value) => set(name, value) });
}

/** A NATS request's client span, a child of `parent` (the gateway's HTTP span), else of whatever is active. */
export function startNatsClientSpan(subject: string, parent: Context = context.active()): { span: Span; context: Context } {
  const span = tracer().startSpan(`send ${subject}`, {
    kind: SpanKind.CLIENT,
    attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject, 'messaging.operation.type': 'send' },
  }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

/** A service's handler span, a child of the span whose `traceparent` came with the message. */
export function startNatsHandlerSpan(subject: string, header: (name: string) => string | undefined): { span: Span; context: Context } {
  const parent = propagation.extract(context.active(), undefined, {
    keys: () => ['traceparent', 'tracestate'],
    get: (_carrier, name) => header(name) || undefined,
  });
  const span = tracer().startSpan(`process ${subject}`, {
    kind: SpanKind.SERVER,
    attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject, 'messaging.operation.type': 'process' },
  }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

/** Ends a span with the outcome label the metrics use (`ok` or what went wrong). */
export function endSpan(span: Span, outcome: string): void {
  if (outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
  span.setAttribute('plaza.outcome', outcome);
  span.end();
}

/** The active span's ids, for log lines (empty when tracing is off or nothing is active). */
export function activeTraceIds(): { trace_id?: string; span_id?: string } {
  return idsOf(trace.getActiveSpan());
}

function idsOf(span: Span | undefined): { trace_id?: string; span_id?: string } {
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/**
 * Each traced HTTP request's context (its server span), for what handles it later: a property of
 * the request rather than a WeakMap entry, whose ephemeron the garbage collector would trace for
 * every request.
 */
const REQUEST_CONTEXT = Symbol('plaza.traceContext');
type TracedRequest = IncomingMessage & { [REQUEST_CONTEXT]?: Context };

export const traceContextOf = (req: IncomingMessage): Context | undefined => (req as TracedRequest)[REQUEST_CONTEXT];

/** The ids of a request's server span, for its log lines. */
export const requestTraceIds = (req: IncomingMessage) => {
  const ctx = traceContextOf(req);
  return ctx ? idsOf(trace.getSpan(ctx)) : {};
};

/** Names a request's server span after its route template (the request handler knows only the path). */
export function nameServerSpan(req: IncomingMessage, method: string, route: string): void {
  const ctx = traceContextOf(req);
  const span = ctx && trace.getSpan(ctx);
  if (!span) return;
  span.setAttribute('http.route', route);
  span.updateName(`${method} ${route}`);
}

/** Probes and scrapes make no spans. */
const UNTRACED_PATHS = /^\/(health|ready|metrics)(\/|\?|$)/;

/**
 * Wraps an HTTP server's request handler in a server span: the client's `traceparent` is its
 * parent, and its context is kept for the request (`traceContextOf`). Written here rather than
 * taken from `@opentelemetry/instrumentation-http`, which needs the implicit context the gateway
 * does without (TracingOptions) and does three times the work per request.
 */
export function traceRequests(handle: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = req.url ?? '/';
    if (UNTRACED_PATHS.test(url)) return handle(req, res);
    const method = req.method ?? 'GET';
    const parent = propagation.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
    const query = url.indexOf('?');
    const span = tracer().startSpan(method, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': method, 'url.path': query === -1 ? url : url.slice(0, query) },
    }, parent);
    const ctx = trace.setSpan(parent, span);
    (req as TracedRequest)[REQUEST_CONTEXT] = ctx;
    // a response emits 'close' once, after 'finish' or when the client went away first
    res.once('close', () => {
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(ctx, () => handle(req, res));
  };
}
