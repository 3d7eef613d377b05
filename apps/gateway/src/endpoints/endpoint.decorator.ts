import { applyDecorators, HttpCode, RequestMapping, RequestMethod, SetMetadata } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiOperation } from '@nestjs/swagger';
import { EndpointDefinition } from './endpoint-table';
import { toFastifyPath } from './route-patterns';

export const ENDPOINT_METADATA = 'plaza:endpoint';

/**
 * Binds a controller method to its row of the endpoint table: route (with the wildcard rules),
 * success status, the metadata the access guard and response shaping read, and its OpenAPI
 * operation. A handler cannot get one without the others.
 */
export function Endpoint(definition: EndpointDefinition): MethodDecorator {
  return applyDecorators(
    RequestMapping({ path: toFastifyPath(definition.path), method: RequestMethod[definition.method] }),
    HttpCode(definition.status ?? 200),
    SetMetadata(ENDPOINT_METADATA, definition),
    // also on the fastify route, for hooks that run before Nest (the cached-read fast path)
    RouteConfig({ endpoint: definition }),
    ApiOperation({ summary: definition.summary, deprecated: definition.deprecated }),
  );
}
