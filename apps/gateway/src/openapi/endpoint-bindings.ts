import { Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ENDPOINT_METADATA } from '../endpoints/endpoint.decorator';
import { EndpointDefinition } from '../endpoints/endpoint-table';

/** Where `@ApiBody({ type })` leaves its DTO (@nestjs/swagger's constants module is not in its package map). */
const API_PARAMETERS = 'swagger/apiParameters';

export type DtoClass = new () => object;

/**
 * What the OpenAPI document needs of a handler beyond what @nestjs/swagger reads from it: its
 * endpoint-table row and the classes its parameters are validated against.
 */
export interface HandlerBinding {
  controller: Type;
  /** The handler's method name. */
  key: string;
  /** The endpoint-table row (every /v2 route has one); undefined for the OAuth routes. */
  endpoint?: EndpointDefinition;
  /** Classes of the handler's `@Query()` parameters, validated by the global pipe (@nestjs/swagger reads only `@ApiProperty()`). */
  queryDtos: DtoClass[];
  /** Names of single `@Query('name')` parameters. */
  queryNames: string[];
  /** Class of a `@Body()` parameter or of `@ApiBody({ type })` (table rows declare theirs in `body`). */
  bodyDto?: DtoClass;
}

interface RouteArg {
  index: number;
  data?: unknown;
}

/** Reads a handler's row and DTO classes from the metadata Nest routes and validates with. */
export function handlerBinding(controller: Type, key: string): HandlerBinding {
  const proto = controller.prototype as Record<string, unknown>;
  const handler = proto[key] as object;
  const endpoint = Reflect.getMetadata(ENDPOINT_METADATA, handler) as EndpointDefinition | undefined;
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
  return { controller, key, endpoint, queryDtos, queryNames, bodyDto };
}

/** The operation id @nestjs/swagger is asked to give each handler, so an operation leads back to its handler. */
export const handlerId = (controllerName: string, key: string) => `${controllerName}.${key}`;

/** The controllers by name; two of one name would make the operation ids ambiguous. */
export function controllersByName(controllers: Type[]): Map<string, Type> {
  const names = new Map<string, Type>();
  for (const controller of controllers) {
    const seen = names.get(controller.name);
    if (seen && seen !== controller) throw new Error(`OpenAPI: two controllers are named ${controller.name}`);
    names.set(controller.name, controller);
  }
  return names;
}
