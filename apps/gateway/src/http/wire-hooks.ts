import { Metrics, nameServerSpan, requestTraceIds, tracingActive } from '@plaza/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches, etagOf } from './etag';
import type { Logger } from 'pino';
import { pathOf } from './request-context';

const LINE_SEPARATORS = /[\u2028\u2029]/g;

function escapeSeparators(json: string): string {
  return json.replace(LINE_SEPARATORS, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}

/** The JSONP form of a JSON text (docs/api/README.md). */
export function jsonp(callback: string, json: string): string {
  return `/**/${callback}(${escapeSeparators(json)});`;
}


/**
 * Wire-level response rules that must see every response, errors included:
 * rate-limit headers; JSONP (`/**\/NAME(JSON);`, status kept, U+2028/2029 escaped, text/javascript
 * with nosniff); and an ETag on every 200 GET, answering a matching If-None-Match with 304.
 * Then each request's metrics and, given an access log (`accessLoggerOf`), its line.
 */
export function registerWireHooks(fastify: FastifyInstance, accessLog: Logger | undefined): void {
  // (a cached answer arrives as bytes, with its ETag and 304 already handled by the fast path)
  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, value: unknown) => void) => {
    done(null, shape(request, reply, payload));
  });

  function shape(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
    const state = request.plaza;
    if (state?.rateLimitHeaders) reply.headers(state.rateLimitHeaders);
    let body: string | Buffer;
    if (typeof payload === 'string') body = payload;
    else if (state?.sendsJsonBytes && payload instanceof Buffer) body = payload;
    else return payload;
    if (state?.jsonpCallback && String(reply.getHeader('content-type') ?? '').includes('json')) {
      body = jsonp(state.jsonpCallback, body.toString('utf8'));
      reply.header('content-type', 'text/javascript; charset=utf-8');
    }
    if ((request.method === 'GET' || request.method === 'HEAD') && reply.statusCode === 200) {
      // a cached answer arrives with its ETag already made
      const etag = (reply.getHeader('etag') as string | undefined) ?? etagOf(body);
      reply.header('etag', etag);
      if (etagMatches(request.headers['if-none-match'], etag)) {
        reply.code(304);
        return '';
      }
    }
    return body;
  }

  const tracing = tracingActive();
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    Metrics.httpRequest(routeTemplateOf(request), request.method, reply.statusCode, reply.elapsedTime / 1000);
    if (!accessLog) return done();
    const caller = request.plaza?.caller;
    accessLog.info(
      {
        ...(tracing ? requestTraceIds(request.raw) : undefined),
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
    done();
  });
}

/** While tracing is on, names the HTTP server span after the route template (before the fast path, which answers in onRequest). */
export function registerTraceNaming(fastify: FastifyInstance): void {
  if (!tracingActive()) return;
  fastify.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    nameServerSpan(request.raw, request.method, routeTemplateOf(request));
    done();
  });
}

const templates = new Map<string, string>();

/**
 * The route a request matched, as the endpoint table writes it (`/v2/book/:id`, without the
 * router's parameter patterns), or `unmatched`: a bounded label, never the raw path.
 */
export function routeTemplateOf(request: FastifyRequest): string {
  const url = request.routeOptions?.url;
  if (!url) return 'unmatched';
  let template = templates.get(url);
  if (template === undefined) {
    template = url.replace(/\(\^[^)]*\$\)/g, '');
    templates.set(url, template);
  }
  return template;
}
