import { ApiError, Errors, OAUTH_ERROR_BY_CODE } from '@plaza/contracts';
import { Metrics } from '@plaza/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pathOf, requestLine } from './request-context';

/** Refusals of an access token or API key (`plaza_token_rejections_total`): every error answer passes here. */
const TOKEN_REJECTIONS = new Set<number>([
  Errors.invalid_access_token.code, Errors.access_token_has_expired.code, Errors.invalid_apikey.code,
  Errors.apikey_is_blocked.code, Errors.invalid_credencial2.code,
]);

/** Sends an error as docs/api/README.md ("Errors") shapes it: `{msg, code, request}` with the catalogue's status. */
export function sendApiError(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  if (TOKEN_REJECTIONS.has(error.code)) Metrics.tokenRejected(error.code);
  return reply.status(error.status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(errorBody(request, error)));
}

/** The body of an error: `{msg, code, request}`, plus RFC 6749's fields on the token endpoints. */
export function errorBody(request: FastifyRequest, error: ApiError): Record<string, unknown> {
  const body: Record<string, unknown> = { msg: error.msg, code: error.code, request: requestLine(request) };
  // the token endpoints also speak RFC 6749 (docs/api/oauth.md)
  if (pathOf(request).startsWith('/auth2/')) {
    body.error = OAUTH_ERROR_BY_CODE[error.code] ?? (error.status >= 500 ? 'server_error' : 'invalid_request');
    // a 5xx detail names internal subjects or bus errors; of those only an error id is for the client
    const detail = error.status < 500 || error.code === 1100 ? error.detail : undefined;
    body.error_description = detail ?? error.msg;
  }
  return body;
}
