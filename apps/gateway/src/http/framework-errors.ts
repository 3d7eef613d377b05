import { ApiError } from '@plaza/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { parse as parseQuery } from 'node:querystring';
import { methodsForPath } from '../endpoints/route-patterns';
import { FRAMEWORK_ERRORS } from './api-exception.filter';
import { errorBody } from './error-body';
import { readCallback } from './query-params';
import { pathOf } from './request-context';
import { jsonp } from './wire-hooks';

/**
 * An error answered before routing (no Nest filter, no guard): `{msg, code, request}` like every
 * other error, 400/1015 first when `callback` is malformed, and JSONP when it is valid.
 */
export function sendEarlyError(request: FastifyRequest, reply: FastifyReply, error: ApiError): void {
  const callback = readCallback(request);
  const apiError = callback.kind === 'invalid' ? new ApiError('invalid_callback') : error;
  const json = JSON.stringify(errorBody(request, apiError));
  reply.status(apiError.status);
  if (callback.kind === 'valid') void reply.header('content-type', 'text/javascript; charset=utf-8').send(jsonp(callback.name, json));
  else void reply.header('content-type', 'application/json; charset=utf-8').send(json);
}

/**
 * fastify's `frameworkErrors`: errors its router meets before any route or hook runs (a URL that
 * cannot be decoded, a path parameter longer than `maxParamLength`). Left to fastify they leave
 * in its own shape (`{error, code: "FST_...", message, statusCode: 414}`); here they are 404/1001
 * like any path that matches no route, with the security headers (no hook runs for them).
 * Found by the API fuzzer (docs/RELIABILITY-fuzz.md, finding 1).
 */
export function frameworkErrorHandler(securityHeaders: Record<string, string>) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    reply.headers(securityHeaders);
    reply.header('x-request-id', request.id);
    // the router failed before fastify parsed the query string (for `callback`)
    if (!request.query) {
      const q = request.url.indexOf('?');
      (request as { query: unknown }).query = q === -1 ? {} : parseQuery(request.url.slice(q + 1));
    }
    sendEarlyError(request, reply, new ApiError(FRAMEWORK_ERRORS[error.code] ?? 'invalid_args'));
  };
}

/**
 * An OPTIONS request without `Origin` and `Access-Control-Request-Method` is no CORS preflight:
 * it is answered like any other method no route has (400/1014 on a known path, else 404/1001)
 * instead of @fastify/cors's text/plain "Invalid Preflight Request" (fuzzer finding 2).
 */
export function rejectNonPreflightOptions(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.method !== 'OPTIONS' || (request.headers.origin && request.headers['access-control-request-method'])) return false;
  const methods = methodsForPath(pathOf(request));
  sendEarlyError(request, reply, methods.size > 0 ? new ApiError('wrong_method', `use ${[...methods].join(' or ')}`) : new ApiError('uri_not_found'));
  return true;
}
