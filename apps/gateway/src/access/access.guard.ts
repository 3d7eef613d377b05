import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { ANONYMOUS, ApiError, Caller } from '@plaza/contracts';
import type { FastifyRequest } from 'fastify';
import { ApikeyResolver } from '../auth/apikey-resolver';
import { GATEWAY_CONFIG, GatewayConfig } from '../config/gateway.config';
import { ENDPOINT_METADATA } from '../endpoints/endpoint.decorator';
import { EndpointDefinition } from '../endpoints/endpoint-table';
import { readCallback, readPaging } from '../http/query-params';
import { stateOf } from '../http/request-context';
import { RateLimitPolicy } from '../rate-limit/rate-limit.policy';

const BearerAuthGuard = AuthGuard('bearer');

/**
 * Every rule that decides whether a request may reach a service, in one ordered place:
 * callback syntax → https → who is calling (Bearer via passport, or apikey) → login → movie
 * tier → scope → paging → rate limit. Each rule reads the endpoint's row in the endpoint table.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly bearer = new BearerAuthGuard();

  constructor(
    private readonly reflector: Reflector,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(ApikeyResolver) private readonly apikeys: ApikeyResolver,
    @Inject(RateLimitPolicy) private readonly rateLimits: RateLimitPolicy,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const endpoint = this.reflector.get<EndpointDefinition | undefined>(ENDPOINT_METADATA, context.getHandler());
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const state = stateOf(request);
    state.endpoint = endpoint;

    const callback = readCallback(request);
    if (callback.kind === 'invalid') throw new ApiError('invalid_callback');
    if (callback.kind === 'valid') state.jsonpCallback = callback.name;
    if (!endpoint) return true;

    const hasBearer = /^bearer\s/i.test(request.headers.authorization ?? '');
    if (hasBearer && this.config.requireHttps && request.protocol !== 'https') throw new ApiError('invalid_request_scheme');

    const caller = await this.identify(context, request, hasBearer);
    state.caller = caller;

    if (endpoint.access === 'user' && !caller.userId) throw new ApiError('need_permission', 'a logged-in user is required');
    if (endpoint.tiers && !endpoint.tiers.includes(caller.tier)) throw new ApiError('uri_not_found', `not available to the ${caller.tier} tier`);
    if (hasBearer && endpoint.scope && !hasScope(caller, endpoint.scope)) throw new ApiError('invalid_credencial2', 'the token lacks the scope this endpoint needs');

    if (endpoint.paging) state.page = readPaging(request, endpoint.paging);

    await this.rateLimits.enforce(request, endpoint, caller, hasBearer);
    return true;
  }

  private async identify(context: ExecutionContext, request: FastifyRequest, hasBearer: boolean): Promise<Caller> {
    if (hasBearer) {
      await this.bearer.canActivate(context);
      return request.user as Caller;
    }
    const apikey = (request.query as Record<string, unknown> | undefined)?.apikey;
    if (apikey !== undefined) {
      if (typeof apikey !== 'string' || apikey === '') throw new ApiError('invalid_apikey');
      const app = await this.apikeys.resolve(apikey);
      return { clientId: app.client_id, tier: app.tier, scopes: [] };
    }
    return ANONYMOUS;
  }
}

function hasScope(caller: Caller, scope: NonNullable<EndpointDefinition['scope']>): boolean {
  if (typeof scope === 'string') return caller.scopes.includes(scope);
  return scope.anyOf.some((s) => caller.scopes.includes(s));
}
