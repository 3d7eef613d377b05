import { ApiError } from '@plaza/contracts';
import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';

/** Fields a JSON or form body may have: as many as a multipart body (`MULTIPART_LIMITS.fields`). */
export const MAX_BODY_FIELDS = 100;
/** Nesting a JSON body may have. Every body of the API is flat (a `tags` array at most). */
export const MAX_BODY_DEPTH = 16;

/**
 * Rejects parsed bodies whose shape costs more than their bytes: more than MAX_BODY_FIELDS
 * fields (413/1103, like a multipart body with too many fields: 50 000 keys in 1 MiB kept the
 * validation pipe busy for 2 s), or nested deeper than MAX_BODY_DEPTH (400/1016: Nest's
 * validation pipe walks bodies recursively, and 10 000 nested arrays overflowed its stack
 * into a 500). The walk here is iterative, so no body can overflow it.
 */
export function checkBodyShape(body: unknown): void {
  if (body === null || typeof body !== 'object') return;
  if (Object.keys(body).length > MAX_BODY_FIELDS) throw new ApiError('request_too_large', `more than ${MAX_BODY_FIELDS} fields`);
  const pending: Array<{ value: object; depth: number }> = [{ value: body, depth: 1 }];
  while (pending.length > 0) {
    const { value, depth } = pending.pop()!;
    if (depth > MAX_BODY_DEPTH) throw new ApiError('invalid_args', `the body is nested more than ${MAX_BODY_DEPTH} levels deep`);
    for (const child of Object.values(value)) {
      if (child !== null && typeof child === 'object') pending.push({ value: child as object, depth: depth + 1 });
    }
  }
}

/** Methods whose body fastify never parses (its `bodyless` list): nothing to wait for. */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'TRACE']);

/**
 * Body rules for every route, before any handler, pipe or guard sees the body. Also drops
 * fastify's built-in `text/plain` parser: the API takes JSON, form and multipart bodies only,
 * so any other media type is 415/1104 (docs/ERRORS.md), not a string that fails later as 1016.
 */
export function registerBodyShapeRules(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('text/plain');
  // An empty body with any declared type is an empty body (docs/DECISIONS.md): clients that send
  // `Content-Type: application/json` on every request, a DELETE or a like included, must not get
  // the JSON parser's "empty body" error. Without a type, fastify parses nothing.
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (request.headers['content-type'] !== undefined && declaresNoBody(request.headers)) delete request.headers['content-type'];
    done();
  });
  // A chunked body announces no length, so it shows it is empty only once read: preParsing (the
  // step before fastify picks a parser) waits for its first bytes, and a stream that ends without
  // any is answered as the request without a body. fastify tells that by the headers alone, so
  // both the type and the transfer go.
  fastify.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.headers['content-type'] === undefined || request.headers['transfer-encoding'] === undefined || BODYLESS_METHODS.has(request.method)) {
      return done(null, payload);
    }
    whenBodyStarts(payload, (err, empty) => {
      if (err) return done(err);
      if (empty) {
        delete request.headers['content-type'];
        delete request.headers['transfer-encoding'];
      }
      done(null, payload);
    });
  });
  fastify.addHook('preValidation', (request, _reply, done) => {
    try {
      checkBodyShape(request.body);
      done();
    } catch (err) {
      done(err as Error);
    }
  });
}

/** No body follows: no length or a length of 0, and no chunked transfer (RFC 9112 section 6.3). */
export function declaresNoBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return (length === undefined || length === '0') && headers['transfer-encoding'] === undefined;
}

/**
 * Calls back once the stream's first bytes have arrived (`empty` false, the bytes put back for the
 * parser) or it has ended without any (`empty` true). The stream itself is kept: multipart reads
 * the raw request, not a stream handed on.
 */
export function whenBodyStarts(stream: Readable, then: (err: Error | null, empty: boolean) => void): void {
  const settle = (err: Error | null, empty: boolean) => {
    stream.removeListener('readable', onReadable);
    stream.removeListener('end', onEnd);
    stream.removeListener('error', onError);
    then(err, empty);
  };
  const onReadable = () => {
    const chunk: Buffer | null = stream.read();
    if (chunk !== null) {
      stream.unshift(chunk);
      settle(null, false);
    }
    // null: the end is reached, and 'end' follows
  };
  const onEnd = () => settle(null, true);
  // like fastify's own body reading: a stream that fails (an aborted upload) is the client's error
  const onError = (err: Error & { statusCode?: number }) => settle(Object.assign(err, { statusCode: err.statusCode ?? 400 }), false);
  stream.on('readable', onReadable);
  stream.on('end', onEnd);
  stream.on('error', onError);
}
