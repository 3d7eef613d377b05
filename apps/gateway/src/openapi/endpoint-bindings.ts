import { HttpStatus, RequestMethod, Type } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ENDPOINT_METADATA } from '../endpoints/endpoint.decorator';
import { EndpointDefinition, HttpMethod } from '../endpoints/endpoint-table';

// @nestjs/swagger's metadata keys (its constants module is not exported by its package map)
const API_TAGS = 'swagger/apiUseTags';
const API_EXCLUDE_ENDPOINT = 'swagger/apiExcludeEndpoint';
/** Where `@ApiBody({ type })` leaves its DTO: handlers that read their body themselves (multipart too) name it so. */
const API_PARAMETERS = 'swagger/apiParameters';
const API_EXCLUDE_CONTROLLER = 'swagger/apiExcludeController';

export type DtoClass = new () => object;

/** One route as the code declares it: the endpoint-table row it is bound to and the DTOs its handler validates. */
export interface OperationBinding {
  operationId: string;
  method: HttpMethod;
  /** With the spec's wildcards (`:id`, `:name`). */
  path: string;
  /** The endpoint-table row (every /v2 route has one); undefined for the OAuth routes. */
  endpoint?: EndpointDefinition;
  tags: string[];
  /** Classes of the handler's `@Query()` parameters, validated by the global pipe. */
  queryDtos: DtoClass[];
  /** Names of single `@Query('name')` parameters. */
  queryNames: string[];
  /** Class of a `@Body()` parameter (routes outside the table; table rows declare `body`). */
  bodyDto?: DtoClass;
  status: number;
}

interface RouteArg {
  index: number;
  data?: unknown;
}

const joinPath = (...parts: Array<string | undefined>) =>
  `/${parts.flatMap((p) => (p ?? '').split('/')).filter(Boolean).join('/')}`;

/**
 * Reads the routes of the given controllers from the metadata Nest itself routes and validates
 * with (the same reflection @nestjs/swagger uses): method, path, success status, and the design
 * types of `@Query()`/`@Body()` parameters. Routes excluded with `@ApiExcludeController()` or
 * `@ApiExcludeEndpoint()` (health, the consent page, the document itself) are left out.
 */
export function bindingsOf(controllers: Type[]): OperationBinding[] {
  const bindings: OperationBinding[] = [];
  for (const controller of controllers) {
    if ((Reflect.getMetadata(API_EXCLUDE_CONTROLLER, controller) as unknown[] | undefined)?.[0]) continue;
    const tags = (Reflect.getMetadata(API_TAGS, controller) as string[] | undefined) ?? [];
    const base = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
    const proto = controller.prototype as Record<string, unknown>;
    for (const key of Object.getOwnPropertyNames(proto)) {
      const handler = proto[key];
      if (key === 'constructor' || typeof handler !== 'function') continue;
      const routePath = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
      if (routePath === undefined) continue;
      if ((Reflect.getMetadata(API_EXCLUDE_ENDPOINT, handler) as { disable?: boolean } | undefined)?.disable) continue;

      const endpoint = Reflect.getMetadata(ENDPOINT_METADATA, handler) as (EndpointDefinition & { name?: string }) | undefined;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod] as HttpMethod;
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, key) ?? {}) as Record<string, RouteArg>;
      const types = (Reflect.getMetadata('design:paramtypes', proto, key) ?? []) as unknown[];
      const queryDtos: DtoClass[] = [];
      const queryNames: string[] = [];
      let bodyDto: DtoClass | undefined;
      for (const [argKey, arg] of Object.entries(args)) {
        const type = Number(argKey.split(':')[0]);
        const designType = types[arg.index];
        const isDto = typeof designType === 'function' && designType !== Object && designType !== String;
        if (type === RouteParamtypes.QUERY) {
          if (typeof arg.data === 'string') queryNames.push(arg.data);
          else if (isDto) queryDtos.push(designType as DtoClass);
        } else if (type === RouteParamtypes.BODY && arg.data === undefined && isDto) {
          bodyDto = designType as DtoClass;
        }
      }
      if (!bodyDto) {
        const declared = (Reflect.getMetadata(API_PARAMETERS, handler) as Array<{ in?: string; type?: unknown }> | undefined)?.find((p) => p.in === 'body');
        if (typeof declared?.type === 'function') bodyDto = declared.type as DtoClass;
      }
      const defaultStatus = method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK;
      bindings.push({
        operationId: `${controller.name.replace(/Controller$/, '')}_${key}`,
        method,
        path: endpoint?.path ?? joinPath(base, routePath),
        endpoint,
        tags,
        queryDtos,
        queryNames,
        bodyDto,
        status: endpoint ? (endpoint.status ?? HttpStatus.OK) : ((Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ?? defaultStatus),
      });
    }
  }
  return bindings;
}
