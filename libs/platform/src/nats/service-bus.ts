import type { Context } from '@opentelemetry/api';
import { ApiError, EventDefinition, MessageDefinition, RpcErrorPayload } from '@plaza/contracts';
import { createInbox, ErrorCode, headers as natsHeaders, Msg, NatsConnection, NatsError, Subscription } from 'nats';
import { randomUUID } from 'node:crypto';
import { Metrics, NatsOutcome, secondsSince } from '../observability/metrics';
import { endSpan, startNatsClientSpan, traceHeaders, tracingActive } from '../observability/tracing';
import { PublishBatch, publishBatchFor } from './publish-batch';
import { Forwarded, responseBytesOf, ServiceJson } from './service-json';

export interface RequestOptions {
  /** Milliseconds before the request fails with 504/1102. */
  timeout?: number;
  /** Propagated to the service's logs as `reqId`. */
  requestId?: string;
  /** The trace context the request belongs to; without it, the active one (docs/OPERATING.md, "Traces"). */
  trace?: Context;
  /** Whose share of the service's capacity the request takes (`user:<id>`, `app:<id>`, `addr:<ip>`): load shedding. */
  caller?: string;
}

/** What a request to a service carries from the HTTP request that caused it. */
export type RequestOrigin = Pick<RequestOptions, 'requestId' | 'trace' | 'caller'>;

/** The NATS header naming whose share a request takes (docs/DECISIONS.md, "Limits"). */
export const CALLER_HEADER = 'plaza-caller';

/** The packet a Nest NATS server replies with (see @nestjs/microservices Server.send). */
interface NestReply<T> {
  id?: string;
  response?: T;
  err?: unknown;
  isDisposed?: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An error of the transport itself, not of the service that would have answered. */
type TransportFailure = ApiError & { outcome?: 'timeout' | 'no_responders' };

const noResponders = (subject: string): TransportFailure =>
  Object.assign(new ApiError('service_unavailable', `no instance answers ${subject}`), { outcome: 'no_responders' as const });
const timedOut = (subject: string): TransportFailure =>
  Object.assign(new ApiError('service_timeout', `${subject} did not answer in time`), { outcome: 'timeout' as const });

/** The metrics label of a failed request: the transport's failure, or the service's error code. */
export function outcomeOf(err: unknown): NatsOutcome {
  const outcome = (err as TransportFailure)?.outcome;
  if (outcome) return outcome;
  return `${err instanceof ApiError ? err.code : 1100}`;
}

interface Pending {
  resolve(data: Uint8Array): void;
  reject(error: ApiError): void;
  timer: NodeJS.Timeout;
  subject: string;
}

/**
 * Typed request/reply over NATS, speaking the @nestjs/microservices packet format so services
 * stay ordinary `@MessagePattern` handlers.
 *
 * Replies arrive on one wildcard inbox subscription shared by all requests, as with nats.js's
 * own `request()` (Nest's ClientNats subscribes a new inbox per request instead). We keep our own
 * table of pending requests because nats.js builds a NatsError, stack trace included, to cancel
 * every request it has already answered: a tenth of the gateway's time on the NATS path.
 * Errors come back as ApiError: a service's own error keeps its code; no responder gives 503,
 * a timeout 504.
 */
export class ServiceBus {
  private readonly inbox: string;
  private readonly pending = new Map<string, Pending>();
  private subscription?: Subscription;
  private nextToken = 0;
  private readonly batch: PublishBatch;

  constructor(
    private readonly nc: NatsConnection,
    private readonly defaultTimeout = 5000,
  ) {
    this.batch = publishBatchFor(nc);
    // the connection's own prefix (its NATS user's: natsInboxPrefix), the only inbox its user may read
    this.inbox = createInbox((nc as { options?: { inboxPrefix?: string } }).options?.inboxPrefix);
  }

  private replies(): void {
    if (this.subscription && !this.subscription.isClosed()) return;
    this.subscription = this.nc.subscribe(`${this.inbox}.*`, { callback: (err, msg) => (err ? undefined : this.onReply(msg)) });
  }

  private onReply(msg: Msg): void {
    const token = msg.subject.slice(this.inbox.length + 1);
    const request = this.pending.get(token);
    if (!request) return;
    this.pending.delete(token);
    clearTimeout(request.timer);
    // the server answers a request nobody subscribes to with an empty 503 status message
    if (msg.data.length === 0 && msg.headers?.code === 503) {
      request.reject(noResponders(request.subject));
    } else {
      request.resolve(msg.data);
    }
  }

  private send(subject: string, packet: Uint8Array, timeout: number, options: RequestOptions, trace?: (set: (name: string, value: string) => void) => void): Promise<Uint8Array> {
    const { requestId, caller } = options;
    this.replies();
    const token = (this.nextToken = (this.nextToken + 1) % Number.MAX_SAFE_INTEGER).toString(36);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(token);
        reject(timedOut(subject));
      }, timeout);
      this.pending.set(token, { resolve, reject, timer, subject });
      this.batch.add(() => {
        try {
          const hdrs = requestId || trace || caller ? natsHeaders() : undefined;
          if (hdrs && requestId) hdrs.set('x-request-id', requestId);
          if (hdrs && caller) hdrs.set(CALLER_HEADER, caller);
          if (hdrs && trace) trace((name, value) => hdrs.set(name, value));
          this.nc.publish(subject, packet, { reply: `${this.inbox}.${token}`, headers: hdrs });
        } catch (err) {
          this.pending.delete(token);
          clearTimeout(timer);
          reject(translateNatsError(err, subject));
        }
      });
    });
  }

  async request<Req extends object, Res>(
    message: MessageDefinition<Req, Res>,
    payload: Req,
    options: RequestOptions = {},
  ): Promise<Res> {
    return this.exchange(message, payload, options, (raw) => answerOf(parseReply<Res>(raw), message.subject));
  }

  /**
   * `request`, answered as the service's JSON bytes rather than an object (undefined when the
   * service answered nothing): for a controller that hands the answer to the client as it is
   * (docs/ARCHITECTURE.md, "Request lifecycle").
   */
  async forward<Req extends object, Res>(
    message: MessageDefinition<Req, Res>,
    payload: Req,
    options: RequestOptions = {},
  ): Promise<Forwarded<Res>> {
    return this.exchange(message, payload, options, (raw, id) => {
      const bytes = responseBytesOf(raw, id);
      if (bytes) return new ServiceJson<Res>(bytes);
      // another shape: an error (thrown here), an empty answer (sent empty, as `request`'s), anything else
      const answer = answerOf(parseReply<Res>(raw), message.subject);
      return answer === undefined ? undefined : ServiceJson.of(answer);
    });
  }

  private async exchange<Req extends object, Res, T>(
    message: MessageDefinition<Req, Res>,
    payload: Req,
    options: RequestOptions,
    read: (raw: Uint8Array, id: string) => T,
  ): Promise<T> {
    const started = performance.now();
    // the trace context is taken now: the publish itself leaves later, from the batch
    const traced = tracingActive() ? startNatsClientSpan(message.subject, options.trace) : undefined;
    try {
      const id = randomUUID();
      const packet = encoder.encode(JSON.stringify({ pattern: message.subject, data: payload, id }));
      const raw = await this.send(message.subject, packet, options.timeout ?? this.defaultTimeout, options, traced && ((set) => traceHeaders(traced.context, set)));
      const answer = read(raw, id);
      Metrics.natsClientRequest(message.subject, 'ok', secondsSince(started));
      if (traced) endSpan(traced.span, 'ok');
      return answer;
    } catch (err) {
      const outcome = outcomeOf(err);
      Metrics.natsClientRequest(message.subject, outcome, secondsSince(started));
      if (traced) endSpan(traced.span, outcome);
      throw err;
    }
  }

  /** Fire-and-forget broadcast (every subscriber gets it), sent with the loop turn's other publishes (PublishBatch). */
  publish<P extends object>(event: EventDefinition<P>, payload: P): void {
    const packet = encoder.encode(JSON.stringify({ pattern: event.subject, data: payload }));
    this.batch.add(() => this.nc.publish(event.subject, packet));
  }

  get connection(): NatsConnection {
    return this.nc;
  }
}

function parseReply<Res>(raw: Uint8Array): NestReply<Res> {
  return JSON.parse(decoder.decode(raw)) as NestReply<Res>;
}

/** The reply's answer, or the service's error thrown as the ApiError it was. */
function answerOf<Res>(reply: NestReply<Res>, subject: string): Res {
  if (reply.err !== undefined && reply.err !== null) {
    if (ApiError.isPayload(reply.err)) throw rebuildApiError(reply.err);
    throw new ApiError('internal_error', `${subject}: unexpected error reply`);
  }
  return reply.response as Res;
}

function translateNatsError(err: unknown, subject: string): ApiError {
  if (err instanceof NatsError) {
    if (err.code === ErrorCode.NoResponders) return noResponders(subject);
    if (err.code === ErrorCode.Timeout) return timedOut(subject);
    if (err.code === ErrorCode.ConnectionClosed || err.code === ErrorCode.Disconnect) {
      return new ApiError('service_unavailable', 'message bus unavailable');
    }
  }
  return new ApiError('service_unavailable', `${subject}: ${(err as Error)?.message ?? 'request failed'}`);
}

/** Rebuilds an ApiError from a payload, keeping the service's status and message exactly. */
export function rebuildApiError(payload: RpcErrorPayload): ApiError {
  const error = Object.create(ApiError.prototype) as ApiError;
  Object.assign(error, {
    name: 'ApiError',
    message: payload.detail ? `${payload.msg}: ${payload.detail}` : payload.msg,
    code: payload.code,
    status: payload.status,
    msg: payload.msg,
    detail: payload.detail,
  });
  return error;
}

export const SERVICE_BUS = Symbol('SERVICE_BUS');
