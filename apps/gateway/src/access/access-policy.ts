import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '@plaza/contracts';
import type { FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Principal } from '../auth/principal';
import { GATEWAY_CONFIG, GatewayConfig } from '../config/gateway.config';
import { EndpointDefinition } from '../endpoints/endpoint-table';
import { readCallback } from '../http/query-params';
import { RequestState } from '../http/request-context';

/** RFC 6750's `Bearer b64token`, any number of spaces after the scheme (DECISIONS.md). */
const BEARER = /^bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i;
/** The Bearer scheme, with a token or without one (`Bearer` alone: Node strips trailing spaces from header values). */
const BEARER_SCHEME = /^bearer(\s|$)/i;

/** A fastify request or Node's own: the cached-read lane reads headers before fastify exists for a request. */
type WithHeaders = { headers: IncomingHttpHeaders };

/**
 * The access rules that do not depend on how the caller was identified, shared by the access
 * guard (every request) and the cached-read fast path, so both apply exactly the same checks.
 */
@Injectable()
export class AccessPolicy {
  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  /** `callback` syntax (400/1015); a valid name is remembered for the JSONP wrapper. */
  checkCallback(request: FastifyRequest, state: RequestState): void {
    const callback = readCallback(request);
    if (callback.kind === 'invalid') throw new ApiError('invalid_callback');
    if (callback.kind === 'valid') state.jsonpCallback = callback.name;
  }

  /**
   * Whether the caller presents a Bearer credential: `Authorization` names the Bearer scheme,
   * well-formed or not. `Bearer` with no token, or only spaces after it, is a Bearer credential
   * whose token is malformed (401/103 from the guard), never an anonymous call; another scheme
   * (Basic, ...) or no header is not a Bearer credential.
   */
  hasBearer(request: WithHeaders): boolean {
    return BEARER_SCHEME.test(request.headers.authorization ?? '');
  }

  /**
   * The token of a well-formed `Authorization: Bearer` header (RFC 6750), else undefined: with
   * `hasBearer` true, undefined means a malformed token (none at all included). The cached-read
   * fast path and lane answer only a token they verified before, so they leave such a request to
   * the guard.
   */
  bearerToken(request: WithHeaders): string | undefined {
    return BEARER.exec(request.headers.authorization ?? '')?.[1];
  }

  /** A Bearer token over plain http while https is required: 400/100 (docs/CONFIGURATION.md). */
  checkScheme(request: FastifyRequest, hasBearer: boolean): void {
    if (this.schemeMatters(hasBearer) && request.protocol !== 'https') throw new ApiError('invalid_request_scheme');
  }

  /** Whether `checkScheme` looks at the request's protocol at all. */
  schemeMatters(hasBearer: boolean): boolean {
    return hasBearer && this.config.requireHttps;
  }

  /** Login, movie tier and scope, from the endpoint's row of the table. */
  checkEndpoint(endpoint: EndpointDefinition, { caller, scopes }: Principal, hasBearer: boolean): void {
    if (endpoint.access === 'user' && !caller.userId) throw new ApiError('need_permission', 'a logged-in user is required');
    if (endpoint.access === 'token' && !hasBearer) throw new ApiError('need_permission', 'a token is required');
    if (endpoint.tiers && !endpoint.tiers.includes(caller.tier)) throw new ApiError('uri_not_found', `not available to the ${caller.tier} tier`);
    if (hasBearer && endpoint.scope && !hasScope(scopes, endpoint.scope)) {
      throw new ApiError('invalid_credencial2', 'the token lacks the scope this endpoint needs');
    }
  }
}

function hasScope(scopes: readonly string[], scope: NonNullable<EndpointDefinition['scope']>): boolean {
  if (typeof scope === 'string') return scopes.includes(scope);
  return scope.anyOf.some((s) => scopes.includes(s));
}
