import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Observable, of } from 'rxjs';
import { map, tap } from 'rxjs/operators';
import { ResponseCache } from '../cache/response-cache';
import { GATEWAY_CONFIG, GatewayConfig } from '../config/gateway.config';
import { applyFields } from './fields';
import { readFields } from './query-params';
import { pathOf, stateOf } from './request-context';

/** Query parameters that shape a response but do not change what the service answers. */
const PRESENTATION_PARAMS = new Set(['callback', 'fields', 'apikey', '_']);

/**
 * Response shaping for every endpoint: serve repeated catalogue reads from the response cache,
 * then apply `fields`. (JSONP and ETag work on the serialized bytes, in the onSend hook, since
 * they must also cover errors and may change the status to 304.)
 */
@Injectable()
export class ResponseInterceptor implements NestInterceptor {
  constructor(
    @Inject(ResponseCache) private readonly cache: ResponseCache,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const state = stateOf(request);
    const endpoint = state.endpoint;
    if (!endpoint) return next.handle();
    if (endpoint.status === 204) return next.handle().pipe(map(() => undefined));
    if (endpoint.method !== 'GET') return next.handle();

    const fields = readFields(request);
    const shape = (body: unknown) => applyFields(body, fields, endpoint.listKey);
    const policy = endpoint.cache;
    if (!policy || !this.config.RESPONSE_CACHE_ENABLED || state.caller?.userId) return next.handle().pipe(map(shape));

    const key = this.cacheKey(request, state.caller?.tier ?? 'basic');
    const hit = this.cache.get(key);
    if (hit !== undefined) return of(shape(hit));
    const generation = this.cache.generation;
    const params = (request.params ?? {}) as Record<string, string>;
    return next.handle().pipe(
      tap((body) => this.cache.set(key, body, policy.area, policy.tags?.(params, body) ?? [], policy.ttlSeconds, generation)),
      map(shape),
    );
  }

  private cacheKey(request: FastifyRequest, tier: string): string {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const parts = Object.keys(query)
      .filter((k) => !PRESENTATION_PARAMS.has(k))
      .sort()
      .map((k) => `${k}=${JSON.stringify(query[k])}`);
    return `${tier} ${pathOf(request)}?${parts.join('&')}`;
  }
}
