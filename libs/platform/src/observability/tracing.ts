import { Context, context, propagation, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
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

let active = false;
export const tracingActive = () => active;

interface Sdk {
  start(): void;
  shutdown(): Promise<void>;
}
let sdk: Sdk | undefined;

/**
 * Starts the SDK when the environment asks for it. Must run before `http` servers exist and
 * before `mongodb` is loaded, so each app's main.ts calls it first. The SDK is loaded only then:
 * a process without tracing never loads it.
 */
export function startTracing(service: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (active || !tracingRequested(env)) return active;
  env.OTEL_SERVICE_NAME ||= service;
  // traces only: Prometheus carries the metrics and stdout the logs
  env.OTEL_METRICS_EXPORTER ||= 'none';
  env.OTEL_LOGS_EXPORTER ||= 'none';
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { MongoDBInstrumentation } = require('@opentelemetry/instrumentation-mongodb') as typeof import('@opentelemetry/instrumentation-mongodb');
  /* eslint-enable @typescript-eslint/no-require-imports */
  sdk = new NodeSDK({
    instrumentations: [
      new HttpInstrumentation({
        // the SDK's own exports and the probes' calls are not requests anyone follows
        ignoreOutgoingRequestHook: () => true,
        ignoreIncomingRequestHook: (req) => /^\/(health|ready|metrics)\b/.test(req.url ?? ''),
      }),
      // values in statements are replaced by `?` (enhancedDatabaseReporting stays off): no user data in spans
      new MongoDBInstrumentation(),
    ],
  });
  sdk.start();
  active = true;
  return active;
}

/** Sends the spans still buffered (on shutdown). */
export async function stopTracing(): Promise<void> {
  await sdk?.shutdown().catch(() => undefined);
}

const tracer = () => trace.getTracer('plaza');

/** The W3C headers of `ctx`, for a message that leaves this process. */
export function traceHeaders(ctx: Context, set: (name: string, value: string) => void): void {
  propagation.inject(ctx, undefined, { set: (_carrier, name, value) => set(name, value) });
}

/** A NATS request's client span, a child of whatever is active (the gateway's HTTP span). */
export function startNatsClientSpan(subject: string): { span: Span; context: Context } {
  const parent = context.active();
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
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** Sets the HTTP route template on the active server span (the HTTP instrumentation knows only the path). */
export function nameServerSpan(method: string, route: string): void {
  const span = trace.getActiveSpan();
  if (!span) return;
  span.setAttribute('http.route', route);
  span.updateName(`${method} ${route}`);
}
