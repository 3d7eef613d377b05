import { traceRequests, tracingActive } from '@plaza/platform';
import type { FastifyServerFactory } from 'fastify';
import { createServer, IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';

/** Looks at a request before fastify does; true when it answered it. */
export type RequestShortcut = (req: IncomingMessage, res: ServerResponse) => boolean;

/** The shortcuts given, in order, until one answers; undefined when none is given. */
export function firstAnswer(...shortcuts: Array<RequestShortcut | undefined | false>): RequestShortcut | undefined {
  const given = shortcuts.filter((s): s is RequestShortcut => Boolean(s));
  if (given.length <= 1) return given[0];
  const [first, second] = given;
  return given.length === 2 ? (req, res) => first(req, res) || second(req, res) : (req, res) => given.some((s) => s(req, res));
}

/**
 * fastify's `serverFactory`: the HTTP/1 server fastify would make itself (its timeouts and
 * per-socket limit, applied the same way), with `shortcut` (the cached-read lane), when there is
 * one, given the first look at each request, and, while tracing is on, every request in a server
 * span that both answer in.
 */
export function httpServerWith(shortcut?: RequestShortcut): FastifyServerFactory<Server> {
  return (handler, opts) => {
    // fastify passes its options with their defaults filled in
    const options = opts as { http?: ServerOptions; keepAliveTimeout: number; requestTimeout: number; connectionTimeout: number; maxRequestsPerSocket: number };
    const answer = shortcut ? (req: IncomingMessage, res: ServerResponse) => (shortcut(req, res) ? undefined : handler(req, res)) : handler;
    const server = createServer(options.http ?? {}, tracingActive() ? traceRequests(answer) : answer);
    server.keepAliveTimeout = options.keepAliveTimeout;
    server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
