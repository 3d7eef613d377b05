import type { FastifyServerFactory } from 'fastify';
import { createServer, IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';

/** Looks at a request before fastify does; true when it answered it. */
export type RequestShortcut = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * fastify's `serverFactory`: the HTTP/1 server fastify would make itself (its timeouts and
 * per-socket limit, applied the same way), with `shortcut` given the first look at each request.
 */
export function httpServerWith(shortcut: RequestShortcut): FastifyServerFactory<Server> {
  return (handler, opts) => {
    // fastify passes its options with their defaults filled in
    const options = opts as { http?: ServerOptions; keepAliveTimeout: number; requestTimeout: number; connectionTimeout: number; maxRequestsPerSocket: number };
    const server = createServer(options.http ?? {}, (req, res) => {
      if (!shortcut(req, res)) handler(req, res);
    });
    server.keepAliveTimeout = options.keepAliveTimeout;
    server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
