import { ApiError, EventDefinition, MessageDefinition, RpcErrorPayload } from '@plaza/contracts';
import { ErrorCode, headers as natsHeaders, NatsConnection, NatsError } from 'nats';
import { randomUUID } from 'node:crypto';

export interface RequestOptions {
  /** Milliseconds before the request fails with 504/1102. */
  timeout?: number;
  /** Propagated to the service's logs as `reqId`. */
  requestId?: string;
}

/** The packet a Nest NATS server replies with (see @nestjs/microservices Server.send). */
interface NestReply<T> {
  id?: string;
  response?: T;
  err?: unknown;
  isDisposed?: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Typed request/reply over NATS, speaking the @nestjs/microservices packet format so services
 * stay ordinary `@MessagePattern` handlers. It uses nats.js `request()`, which shares one reply
 * subscription per connection, where Nest's ClientNats subscribes a new inbox per request.
 * Errors come back as ApiError: a service's own error keeps its code; no responder gives 503,
 * a timeout 504.
 */
export class ServiceBus {
  constructor(
    private readonly nc: NatsConnection,
    private readonly defaultTimeout = 5000,
  ) {}

  async request<Req extends object, Res>(
    message: MessageDefinition<Req, Res>,
    payload: Req,
    options: RequestOptions = {},
  ): Promise<Res> {
    const packet = encoder.encode(JSON.stringify({ pattern: message.subject, data: payload, id: randomUUID() }));
    const hdrs = options.requestId ? natsHeaders() : undefined;
    if (hdrs && options.requestId) hdrs.set('x-request-id', options.requestId);
    let raw: Uint8Array;
    try {
      const reply = await this.nc.request(message.subject, packet, {
        timeout: options.timeout ?? this.defaultTimeout,
        headers: hdrs,
      });
      raw = reply.data;
    } catch (err) {
      throw translateNatsError(err, message.subject);
    }
    const reply = JSON.parse(decoder.decode(raw)) as NestReply<Res>;
    if (reply.err !== undefined && reply.err !== null) {
      if (ApiError.isPayload(reply.err)) throw rebuildApiError(reply.err);
      throw new ApiError('internal_error', `${message.subject}: unexpected error reply`);
    }
    return reply.response as Res;
  }

  /** Fire-and-forget broadcast (every subscriber gets it). */
  publish<P extends object>(event: EventDefinition<P>, payload: P): void {
    this.nc.publish(event.subject, encoder.encode(JSON.stringify({ pattern: event.subject, data: payload })));
  }

  get connection(): NatsConnection {
    return this.nc;
  }
}

function translateNatsError(err: unknown, subject: string): ApiError {
  if (err instanceof NatsError) {
    if (err.code === ErrorCode.NoResponders) return new ApiError('service_unavailable', `no instance answers ${subject}`);
    if (err.code === ErrorCode.Timeout) return new ApiError('service_timeout', `${subject} did not answer in time`);
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
