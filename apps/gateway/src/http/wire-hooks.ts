import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { pathOf } from './request-context';

const LINE_SEPARATORS = /[\u2028\u2029]/g;

function escapeSeparators(json: string): string {
  return json.replace(LINE_SEPARATORS, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}

function etagOf(payload: string): string {
  return `"${createHash('sha1').update(payload).digest('base64url')}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/**
 * Wire-level response rules that must see every response, errors included:
 * rate-limit headers; JSONP (`/**\/NAME(JSON);`, status kept, U+2028/2029 escaped, text/javascript
 * with nosniff); and an ETag on every 200 GET, answering a matching If-None-Match with 304.
 */
export function registerWireHooks(fastify: FastifyInstance, logger: Logger): void {
  fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const state = request.plaza;
    if (state?.rateLimitHeaders) reply.headers(state.rateLimitHeaders);
    if (typeof payload !== 'string') return payload;
    let body = payload;
    if (state?.jsonpCallback && String(reply.getHeader('content-type') ?? '').includes('json')) {
      body = `/**/${state.jsonpCallback}(${escapeSeparators(body)});`;
      reply.header('content-type', 'text/javascript; charset=utf-8');
    }
    if ((request.method === 'GET' || request.method === 'HEAD') && reply.statusCode === 200) {
      const etag = etagOf(body);
      reply.header('etag', etag);
      if (matches(request.headers['if-none-match'], etag)) {
        reply.code(304);
        return '';
      }
    }
    return body;
  });

  fastify.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = request.plaza?.caller;
    logger.info(
      {
        reqId: request.id,
        method: request.method,
        path: pathOf(request),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        user: caller?.userId,
        app: caller?.clientId,
      },
      'request',
    );
  });
}
