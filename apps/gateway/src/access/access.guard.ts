import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { ANONYMOUS, ApiError, Caller } from '@plaza/contracts';
import type { FastifyRequest } from 'fastify';
import { ApikeyResolver } from '../auth/apikey-resolver';
import { ENDPOINT_METADATA } from '../endpoints/endpoint.decorator';
import { EndpointDefinition } from '../endpoints/endpoint-table';
import { readPaging } from '../http/query-params';
import { stateOf } from '../http/request-context';
import { RateLimitPolicy } from '../rate-limit/rate-limit.policy';
import { AccessPolicy } from './access-policy';

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
    @Inject(AccessPolicy) private readonly policy: AccessPolicy,
    @Inject(ApikeyResolver) private readonly apikeys: ApikeyResolver,
    @Inject(RateLimitPolicy) private readonly rateLimits: RateLimitPolicy,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const endpoint = this.reflector.get<EndpointDefinition | undefined>(ENDPOINT_METADATA, context.getHandler());
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const state = stateOf(request);
    state.endpoint = endpoint;

    this.policy.checkCallback(request, state);
    if (!endpoint) return true;

    const hasBearer = this.policy.hasBearer(request);
    this.policy.checkScheme(request, hasBearer);
    const caller = await this.identify(context, request, hasBearer);
    state.caller = caller;
    this.policy.checkEndpoint(endpoint, caller, hasBearer);
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
