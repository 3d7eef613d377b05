import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ANONYMOUS, Caller, PageRequest } from '@plaza/contracts';
import { RequestOrigin, traceContextOf } from '@plaza/platform';
import type { FastifyRequest } from 'fastify';
import type { EndpointDefinition } from '../endpoints/endpoint-table';

/** What the gateway learns about a request before the controller runs. */
export interface RequestState {
  endpoint?: EndpointDefinition;
  caller?: Caller;
  page?: PageRequest;
  /** A valid JSONP callback name, when the request asked for one. */
  jsonpCallback?: string;
  /** The response cache's generation when the request began (a later invalidation voids its answer). */
  cacheGeneration?: number;
  /** Rate-limit headers to add to the response. */
  rateLimitHeaders?: Record<string, string>;
  /** The body is a service's JSON as bytes (response-shaping.hooks.ts), which JSONP and the ETag take like a JSON text. */
  sendsJsonBytes?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    plaza: RequestState;
  }
}

export function stateOf(request: FastifyRequest): RequestState {
  if (!request.plaza) request.plaza = {};
  return request.plaza;
}

/** `"METHOD /path"` without the query string: the `request` field of every error body. */
export function requestLine(request: FastifyRequest): string {
  const url = request.url ?? '/';
  const q = url.indexOf('?');
  return `${request.method} ${q === -1 ? url : url.slice(0, q)}`;
}

export function pathOf(request: FastifyRequest): string {
  const url = request.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** The caller established by the access guard (anonymous when there was no token or apikey). */
export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): Caller => {
  const request = ctx.switchToHttp().getRequest<FastifyRequest>();
  return stateOf(request).caller ?? ANONYMOUS;
});

/** `start`/`count` as validated against the endpoint's paging rule. */
export const Page = createParamDecorator((_: unknown, ctx: ExecutionContext): PageRequest => {
  const request = ctx.switchToHttp().getRequest<FastifyRequest>();
  return stateOf(request).page ?? { start: 0, count: 20 };
});

/**
 * What a request to a service carries from this HTTP request: its id (`X-Request-Id` or
 * generated), its trace, and whose share of the service's capacity it takes (the user, else the
 * app, else the client address: docs/DECISIONS.md, "Limits").
 */
export function originOf(request: FastifyRequest): RequestOrigin {
  return { requestId: String(request.id), trace: traceContextOf(request.raw), caller: shareOf(request.plaza?.caller, request.ip) };
}

/** Whose share of capacity a request takes: the signed-in user, else the app, else the client address. */
export function shareOf(caller: Caller | undefined, address: string): string {
  return caller?.userId ? `user:${caller.userId}` : caller?.clientId ? `app:${caller.clientId}` : `addr:${address}`;
}

/** The request's origin, handed to `ServiceBus.request` as is. */
export const Origin = createParamDecorator((_: unknown, ctx: ExecutionContext): RequestOrigin => originOf(ctx.switchToHttp().getRequest<FastifyRequest>()));
