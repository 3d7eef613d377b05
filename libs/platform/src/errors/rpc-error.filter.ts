import { ArgumentsHost, Catch, ExceptionFilter, HttpException, ValidationPipe } from '@nestjs/common';
import { ApiError, RpcErrorPayload, validationErrorsToApiError } from '@plaza/contracts';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { Observable, throwError } from 'rxjs';

const DATABASE_UNAVAILABLE = /MongoServerSelectionError|MongoNetworkError|MongoNotConnectedError|MongoTopologyClosedError|MongooseServerSelectionError|before initial connection|buffering timed out|connection .* closed|ECONNREFUSED/;

/**
 * Turns whatever a message handler threw into the one structured error the gateway maps to
 * HTTP. Without it, Nest's default RPC filter makes every error an opaque 500.
 */
export function toRpcErrorPayload(exception: unknown, logger?: Logger, context: Record<string, unknown> = {}): RpcErrorPayload {
  if (exception instanceof ApiError) return exception.toPayload();
  if (exception instanceof HttpException) {
    // a stray Nest HTTP exception (from a pipe, say) keeps its status with our generic code
    const status = exception.getStatus();
    return status === 404 ? new ApiError('uri_not_found').toPayload() : new ApiError('invalid_args', exception.message).toPayload();
  }
  const err = exception as Error;
  const text = `${err?.name ?? ''} ${err?.message ?? ''}`;
  if (DATABASE_UNAVAILABLE.test(text)) {
    logger?.error({ ...context, err: err?.message }, 'database unavailable');
    return new ApiError('service_unavailable', 'database unavailable').toPayload();
  }
  const errorId = randomUUID();
  logger?.error({ ...context, errorId, err }, 'unhandled error in message handler');
  return new ApiError('internal_error', `error id ${errorId}`).toPayload();
}

@Catch()
export class RpcErrorFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): Observable<never> | void {
    if (host.getType() === 'http') {
      // the health endpoints of a service: answer in the API's error shape
      const payload = toRpcErrorPayload(exception, this.logger);
      const reply = host.switchToHttp().getResponse<{ status(code: number): { send(body: unknown): void } }>();
      return reply.status(payload.status).send({ msg: payload.msg, code: payload.code });
    }
    const context = host.switchToRpc().getContext<{ getSubject?(): string; getHeaders?(): { get(name: string): string } | undefined }>();
    const reqId = context?.getHeaders?.()?.get('x-request-id') || undefined;
    return throwError(() => toRpcErrorPayload(exception, this.logger, { pattern: context?.getSubject?.(), reqId }));
  }
}

/**
 * Validates every message payload against its contract class at the consumer: the HTTP pipe
 * never sees a NATS message, and the importer or another service may be the producer.
 */
export function createMessageValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => validationErrorsToApiError(errors),
  });
}
