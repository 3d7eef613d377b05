import { NatsOptions, OutgoingResponse, ServerNats } from '@nestjs/microservices';
import { context as otelContext, Span } from '@opentelemetry/api';
import { ApiError } from '@plaza/contracts';
import type { Msg, MsgHdrs, NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { Metrics, NatsOutcome, secondsSince } from '../observability/metrics';
import { endSpan, startNatsHandlerSpan, tracingActive } from '../observability/tracing';
import { Admission, AdmissionLimits } from './admission';
import { FairTurns } from './fair-turns';
import { publishBatchFor } from './publish-batch';
import { CALLER_HEADER } from './service-bus';
import { replyPacketWithJson } from './service-json';

/** What the server knows of a request between its arrival and its reply (metrics, trace, its place). */
interface Handling {
  subject: string;
  started: number;
  span?: Span;
  /** The caller whose share it took, when it took one (released with the reply). */
  admitted?: { caller: string | undefined };
}

type NatsMessage = Pick<Msg, 'reply' | 'respond'> & { headers?: MsgHdrs };

interface DrainingNatsServerOptions {
  /** Queue group: instances of one service share the work, each message goes to exactly one. */
  queue: string;
  logger: Logger;
  /** Load shedding (admission.ts); none when absent. */
  limits?: AdmissionLimits;
}

/** Health pings are never shed: a busy service is up, and its readiness must say so. */
const NEVER_SHED = /\.health\./;
const encoder = new TextEncoder();

/**
 * Nest's NATS server, changed in two ways that matter in production:
 * - it uses the process's shared connection, so a service's cache invalidations and its replies
 *   leave on one connection, in order (a client that wrote and then reads never sees stale data);
 * - on shutdown it drains: it stops taking new messages (queue peers take them), waits for every
 *   in-flight handler to reply, and only then lets the connection close.
 */
export class DrainingNatsServer extends ServerNats {
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];
  private readonly subs: Subscription[] = [];
  private readonly routes = new Map<string, string>();
  private readonly handling = new WeakMap<object, Handling>();
  private readonly admission?: Admission;
  private readonly turns: FairTurns;

  constructor(
    private readonly connection: NatsConnection,
    private readonly drainOptions: DrainingNatsServerOptions,
  ) {
    super({ queue: drainOptions.queue });
    if (drainOptions.limits) this.admission = new Admission(drainOptions.limits);
    this.turns = new FairTurns(drainOptions.limits?.maxPerCaller);
  }

  override async createNatsClient(): Promise<NatsConnection> {
    return this.connection;
  }

  override bindEvents(client: NatsConnection): void {
    for (const [channel, handler] of this.messageHandlers) {
      const queue = (handler.extras?.queue as string | undefined) ?? this.drainOptions.queue;
      const callback = this.getMessageHandler(channel).bind(this);
      this.subs.push(client.subscribe(channel, { queue, callback }));
    }
  }

  override async handleMessage(channel: string, natsMsg: NatsMessage): Promise<unknown> {
    const tracked = Boolean(natsMsg.reply);
    if (tracked) this.inFlight++;
    try {
      if (!tracked) return await super.handleMessage(channel, natsMsg);
      const handling: Handling = { subject: channel, started: performance.now() };
      if (this.admission && !NEVER_SHED.test(channel)) {
        const caller = natsMsg.headers?.get(CALLER_HEADER) || undefined;
        const refusal = this.admission.admit(caller);
        if (refusal) return this.refuse(natsMsg, handling, refusal);
        handling.admitted = { caller };
        // one caller's queued burst does not start before another caller's request (fair-turns.ts)
        await this.turns.turn(caller ?? '');
      }
      this.handling.set(natsMsg, handling);
      if (!tracingActive()) return await super.handleMessage(channel, natsMsg);
      // the handler, and the database calls it makes, run as children of the caller's span
      const traced = startNatsHandlerSpan(channel, (name) => natsMsg.headers?.get(name));
      handling.span = traced.span;
      return await otelContext.with(traced.context, () => super.handleMessage(channel, natsMsg));
    } catch (err) {
      const handling = this.handling.get(natsMsg);
      if (handling) {
        this.handling.delete(natsMsg);
        this.recordHandled(handling, new ApiError('internal_error').toPayload());
      }
      if (tracked) this.finished();
      this.drainOptions.logger.error({ err, channel }, 'message could not be handled');
      return undefined;
    }
  }

  /** Nest's serializer, except for an answer given as JSON bytes (ServiceJson), which is sent as it is. */
  protected override initializeSerializer(options: NatsOptions['options']): void {
    super.initializeSerializer(options);
    const nest = this.serializer;
    this.serializer = {
      serialize: (packet: OutgoingResponse) => {
        const data = replyPacketWithJson(packet);
        return data ? { data } : nest.serialize(packet);
      },
    };
  }

  override getPublisher(natsMsg: object, id: string, ctx: never): (response: { isDisposed?: boolean; status?: string; err?: unknown }) => unknown {
    const publish = super.getPublisher(natsMsg, id, ctx);
    const batch = publishBatchFor(this.connection);
    const handling = this.handling.get(natsMsg);
    return (response) => {
      if (handling && (response.isDisposed || response.status === 'error' || response.err !== undefined)) {
        this.handling.delete(natsMsg);
        this.recordHandled(handling, response.err);
      }
      batch.add(() => {
        try {
          publish(response);
        } catch (err) {
          this.drainOptions.logger.error({ err }, 'reply could not be published');
          // an answer too large for a message (max_payload) would leave the caller waiting for its
          // timeout (504 after seconds); a short error reply tells it at once
          const failure = { err: new ApiError('internal_error', 'the answer could not be sent').toPayload(), isDisposed: true };
          try {
            publish(failure);
          } catch {
            // the connection itself is gone: the caller's timeout answers
          }
        }
        // counted as finished once the reply has left, so a drain never closes before it
        if (response.isDisposed || response.status === 'error') this.finished();
      });
      return true;
    };
  }

  /**
   * Patterns are plain subjects here. Nest's version first tries `JSON.parse` on every message and
   * pays for the SyntaxError it throws (5% of a service's time per message); the routes of the
   * subscribed subjects are few and never change.
   */
  override getRouteFromPattern(pattern: string): string {
    let route = this.routes.get(pattern);
    if (route === undefined) {
      route = super.getRouteFromPattern(pattern);
      this.routes.set(pattern, route);
    }
    return route;
  }

  /** Answers at once, without deserialising the message or running its handler. */
  private refuse(natsMsg: NatsMessage, handling: Handling, refusal: ApiError): undefined {
    try {
      natsMsg.respond(encoder.encode(JSON.stringify({ err: refusal.toPayload(), isDisposed: true })));
    } catch {
      // the connection is gone: the caller's timeout answers
    }
    Metrics.shed(handling.subject, refusal.status === 429 ? 'caller' : 'capacity');
    this.recordHandled(handling, refusal.toPayload());
    this.finished();
    return undefined;
  }

  private recordHandled(handling: Handling, err: unknown): void {
    const outcome: NatsOutcome = err === undefined || err === null ? 'ok' : `${ApiError.isPayload(err) ? err.code : 1100}`;
    if (handling.admitted) {
      this.admission?.release(handling.admitted.caller);
      this.turns.done(handling.admitted.caller ?? '');
    }
    Metrics.natsHandled(handling.subject, outcome, secondsSince(handling.started));
    if (handling.span) endSpan(handling.span, outcome);
  }

  get inFlightCount(): number {
    return this.inFlight;
  }

  override async close(): Promise<void> {
    const started = Date.now();
    // drain() unsubscribes and still delivers what the server already routed to us
    await Promise.allSettled(this.subs.map((s) => s.drain()));
    this.subs.length = 0;
    await this.waitForIdle();
    this.drainOptions.logger.info({ ms: Date.now() - started }, 'nats subscriptions drained');
  }

  private finished(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (this.inFlight === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      waiters.forEach((w) => w());
    }
  }

  private waitForIdle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
