import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import { ApiError, ErrorName } from '@plaza/contracts';
import { LOGGER, Logger, requestTraceIds } from '@plaza/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { methodsForPath } from '../endpoints/route-patterns';
import { readCallback } from './query-params';
import { sendApiError } from './error-body';
import { pathOf, stateOf } from './request-context';

/** Errors fastify and its plugins raise before a handler runs, by their code. */
export const FRAMEWORK_ERRORS: Record<string, ErrorName> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'request_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_args',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_args',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_args',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'invalid_args',
  FST_REQ_FILE_TOO_LARGE: 'image_too_large',
  FST_FILES_LIMIT: 'invalid_args',
  FST_PARTS_LIMIT: 'request_too_large',
  FST_FIELDS_LIMIT: 'request_too_large',
  FST_PROTO_VIOLATION: 'invalid_args',
  FST_ERR_BAD_URL: 'uri_not_found',
  // a path parameter longer than the router matches: no route has such a path
  FST_ERR_MAX_PARAM_LENGTH: 'uri_not_found',
};

/**
 * Every error leaves as `{msg, code, request}` with the catalogue's status (docs/api/README.md, "Errors"):
 * service errors keep their code, an unknown route is 404/1001 or, when the path exists under
 * another method, 400/1014; nothing internal (stack, driver message) reaches the client.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const state = stateOf(request);
    // the callback is checked before anything else, unknown routes included
    const callback = readCallback(request);
    const error = callback.kind === 'invalid' ? new ApiError('invalid_callback') : this.toApiError(exception, request);
    if (callback.kind === 'valid') state.jsonpCallback = callback.name;
    if (error.status >= 500) {
      this.logger.error({ ...requestTraceIds(request.raw), reqId: request.id, code: error.code, detail: error.detail, err: exception instanceof ApiError ? undefined : exception }, 'request failed');
    }
    void sendApiError(request, reply, error);
  }

  private toApiError(exception: unknown, request: FastifyRequest): ApiError {
    if (exception instanceof ApiError) return exception;
    const err = exception as { code?: string; statusCode?: number; status?: number; name?: string };
    if (err?.code && FRAMEWORK_ERRORS[err.code]) return new ApiError(FRAMEWORK_ERRORS[err.code]);
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) return this.routeNotFound(request);
      if (status === 401) return new ApiError('invalid_access_token');
      if (status === 403) return new ApiError('need_permission');
      if (status === 413) return new ApiError('request_too_large');
      if (status === 415) return new ApiError('unsupported_media_type');
      if (status < 500) return new ApiError('invalid_args');
    }
    const status = err?.statusCode ?? err?.status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return status === 413 ? new ApiError('request_too_large') : new ApiError('invalid_args');
    }
    const errorId = randomUUID();
    this.logger.error({ ...requestTraceIds(request.raw), reqId: request.id, errorId, err: exception }, 'unhandled error');
    return new ApiError('internal_error', `error id ${errorId}`);
  }

  private routeNotFound(request: FastifyRequest): ApiError {
    const methods = methodsForPath(pathOf(request));
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (methods.size > 0 && !methods.has(method)) return new ApiError('wrong_method', `use ${[...methods].join(' or ')}`);
    return new ApiError('uri_not_found');
  }
}
