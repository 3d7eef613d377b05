import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { ApiError } from '@plaza/contracts';
import { tooManyAtOnce } from '@plaza/platform';
import type { FastifyRequest } from 'fastify';
import { ApikeyResolver } from '../auth/apikey-resolver';
import { ANONYMOUS_PRINCIPAL, apikeyPrincipal, Principal } from '../auth/principal';
import { ENDPOINT_METADATA } from '../endpoints/endpoint.decorator';
import { EndpointDefinition } from '../endpoints/endpoint-table';
import { readPaging } from '../http/query-params';
import { shareOf, stateOf } from '../http/request-context';
import { moveInFlightShare } from '../rate-limit/in-flight';
import { RateLimitPolicy } from '../rate-limit/rate-limit.policy';
import { AccessPolicy } from './access-policy';

/** What passport sees of a request: its Bearer header, and the user it authenticated. */
interface BearerView {
  headers: { authorization?: string };
  user?: unknown;
}

/**
 * Passport's Bearer guard, shown the Authorization header alone. passport-http-bearer also reads
 * `access_token` from the query and the body and refuses a request that has two (RFC 6750
 * section 2); tokens here travel in the header only (DECISIONS.md), so such a parameter is ignored,
 * not a reason to refuse. A well-formed header is handed on as `Bearer <token>`: RFC 6750 allows
 * more than one space after the scheme, which that parser (a split on one space) does not. A
 * malformed one never gets here (the access guard refuses it first).
 */
class HeaderBearerGuard extends AuthGuard('bearer') {
  private readonly views = new WeakMap<object, BearerView>();

  constructor(private readonly policy: AccessPolicy) {
    super();
  }

  override getRequest(context: ExecutionContext): BearerView {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    let view = this.views.get(request);
    if (!view) {
      const token = this.policy.bearerToken(request);
      view = { headers: { authorization: token === undefined ? request.headers.authorization : `Bearer ${token}` } };
      this.views.set(request, view);
    }
    return view;
  }
}

/**
 * Every rule that decides whether a request may reach a service, in one ordered place:
 * callback syntax → https → who is calling (Bearer via passport, or apikey) → login → movie
 * tier → scope → paging → in-flight share → rate limit. Each rule reads the endpoint's row in the
 * endpoint table.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly bearer: HeaderBearerGuard;

  constructor(
    private readonly reflector: Reflector,
    @Inject(AccessPolicy) private readonly policy: AccessPolicy,
    @Inject(ApikeyResolver) private readonly apikeys: ApikeyResolver,
    @Inject(RateLimitPolicy) private readonly rateLimits: RateLimitPolicy,
  ) {
    this.bearer = new HeaderBearerGuard(policy);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const endpoint = this.reflector.get<EndpointDefinition | undefined>(ENDPOINT_METADATA, context.getHandler());
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const state = stateOf(request);
    state.endpoint = endpoint;

    this.policy.checkCallback(request, state);
    if (!endpoint) return true;

    const hasBearer = this.policy.hasBearer(request);
    this.policy.checkScheme(request, hasBearer);
    const principal = await this.identify(context, request, hasBearer);
    const caller = principal.caller;
    state.caller = caller;
    this.policy.checkEndpoint(endpoint, principal, hasBearer);
    if (endpoint.paging) state.page = readPaging(request, endpoint.paging);
    // a caller known only now (a token verified here for the first time, an apikey) was counted by the client address on arrival
    const share = shareOf(caller, request.ip);
    if (!moveInFlightShare(request.raw, share)) throw tooManyAtOnce(share);
    await this.rateLimits.enforce(request, endpoint, caller, hasBearer);
    return true;
  }

  private async identify(context: ExecutionContext, request: FastifyRequest, hasBearer: boolean): Promise<Principal> {
    if (hasBearer) {
      // `Bearer` without a token (or with characters RFC 6750 does not allow in one) is a
      // malformed token: 401/103, never an anonymous call
      if (this.policy.bearerToken(request) === undefined) throw new ApiError('invalid_access_token', 'malformed Bearer credentials');
      await this.bearer.canActivate(context);
      return this.bearer.getRequest(context).user as Principal;
    }
    const apikey = (request.query as Record<string, unknown> | undefined)?.apikey;
    if (apikey !== undefined) {
      if (typeof apikey !== 'string' || apikey === '') throw new ApiError('invalid_apikey');
      const app = await this.apikeys.resolve(apikey);
      return apikeyPrincipal(app.client_id, app.tier);
    }
    return ANONYMOUS_PRINCIPAL;
  }
}
