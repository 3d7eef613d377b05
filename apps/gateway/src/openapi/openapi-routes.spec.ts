import 'reflect-metadata';
import { RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject, OperationObject, ParameterObject } from '@nestjs/swagger';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { createTestGatewayApp, ServedRoute } from './test-gateway-app';

/**
 * Routes the gateway serves under /v2 and /auth2 that the document leaves out on purpose
 * (`@ApiExcludeController()` / `@ApiExcludeEndpoint()`). A route added to this list is a route
 * clients cannot discover: each needs its reason.
 */
const NOT_DOCUMENTED: Record<string, string> = {
  'GET /auth2/auth': 'the consent page: HTML for browsers in the authorization-code flow (docs/api/README.md)',
  'POST /auth2/auth': 'the consent form posting back to the page',
  'GET /v2/openapi.json': 'the document itself',
  'GET /v2/explorer': 'Swagger UI over the document',
  'GET /v2/explorer/{name}': "Swagger UI's files",
};

/** `/v2/book/:id(^[0-9]+$)` (fastify's route, Nest's path) → `/v2/book/{id}` (the document's). */
const documentPath = (url: string) => url.replace(/\(\^[^)]*\$\)/g, '').replace(/:([A-Za-z0-9_]+)/g, '{$1}');

let app: NestFastifyApplication;
let routes: ServedRoute[];
let document: OpenAPIObject;

beforeAll(async () => {
  ({ app, routes } = await createTestGatewayApp());
  const res = await app.inject({ method: 'GET', url: '/v2/openapi.json' });
  expect(res.statusCode).toBe(200);
  document = res.json<OpenAPIObject>();
}, 60_000);

afterAll(() => app?.close());

const operationOf = (method: string, path: string) => document.paths[path]?.[method.toLowerCase() as 'get'] as OperationObject | undefined;

describe('OpenAPI document against what the gateway serves', () => {
  /** Every API route fastify holds, as `METHOD /path` in the document's form (HEAD comes with GET). */
  const served = () =>
    [...new Set(
      routes
        .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && /^\/(v2|auth2)(\/|$)/.test(r.url))
        .map((r) => `${r.method} ${documentPath(r.url)}`),
    )].sort();

  it('reads the routes from fastify (the check below is not vacuous)', () => {
    expect(served().length).toBeGreaterThan(60);
    expect(served()).toEqual(expect.arrayContaining(['GET /v2/book/{id}', 'POST /auth2/token', 'GET /v2/openapi.json']));
  });

  it('has every route the application serves under /v2 and /auth2, but those left out on purpose', () => {
    const missing = served().filter((route) => {
      const [method, path] = route.split(' ');
      return !operationOf(method, path) && !(route in NOT_DOCUMENTED);
    });
    expect(missing).toEqual([]);
  });

  it('describes no route the application does not serve, and leaves out only the listed ones', () => {
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      ['get', 'put', 'post', 'delete', 'patch'].filter((m) => (item as Record<string, unknown>)[m]).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.filter((route) => !served().includes(route))).toEqual([]);
    expect(Object.keys(NOT_DOCUMENTED).filter((route) => !served().includes(route) || documented.includes(route))).toEqual([]);
  });
});

describe('OpenAPI query parameters against the DTOs the handlers validate', () => {
  interface QueryDtoUse {
    route: string;
    dto: Type;
  }

  /** Every `@Query()` DTO of every handler Nest routes, read from Nest's own metadata. */
  function queryDtoUses(): QueryDtoUse[] {
    const uses: QueryDtoUse[] = [];
    const controllers = [...app.get(ModulesContainer).values()].flatMap((m) => [...m.controllers.values()].map((w) => w.metatype as Type));
    for (const controller of controllers) {
      const base = (Reflect.getMetadata(PATH_METADATA, controller) as string | undefined) ?? '';
      const proto = controller.prototype as Record<string, object>;
      for (const key of Object.getOwnPropertyNames(proto)) {
        const handler = proto[key];
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (key === 'constructor' || path === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const route = `${method} ${documentPath(`/${[base, path].flatMap((p) => p.split('/')).filter(Boolean).join('/')}`)}`;
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, key) ?? {}) as Record<string, { index: number; data?: unknown }>;
        const types = (Reflect.getMetadata('design:paramtypes', proto, key) ?? []) as unknown[];
        for (const [argKey, arg] of Object.entries(args)) {
          const type = types[arg.index];
          if (Number(argKey.split(':')[0]) === RouteParamtypes.QUERY && arg.data === undefined && typeof type === 'function' && type !== Object) {
            uses.push({ route, dto: type as Type });
          }
        }
      }
    }
    return uses;
  }

  /**
   * The DTO's properties as class-validator validates them: required unless `@IsOptional()` or
   * `@ValidateIf()` (a property required only beside another, as `q` without `tag`, is optional
   * to the document).
   */
  function propertiesOf(dto: Type): Record<string, boolean> {
    const metadatas = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
    const out: Record<string, boolean> = {};
    for (const name of new Set(metadatas.map((m) => m.propertyName))) {
      const own = metadatas.filter((m) => m.propertyName === name);
      out[name] = !own.some((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION);
    }
    return out;
  }

  it('finds the query DTOs (the check below is not vacuous)', () => {
    const documented = queryDtoUses().filter((use) => !(use.route in NOT_DOCUMENTED));
    expect(documented.length).toBeGreaterThan(10);
    expect(documented.map((u) => u.dto.name)).toEqual(expect.arrayContaining(['BookSearchQuery', 'EventListQuery', 'UserCollectionsQuery']));
  });

  it("has each property of each handler's query DTO as a query parameter, required as the DTO says", () => {
    const problems: string[] = [];
    for (const { route, dto } of queryDtoUses()) {
      if (route in NOT_DOCUMENTED) continue;
      const [method, path] = route.split(' ');
      const params = (operationOf(method, path)?.parameters ?? []) as ParameterObject[];
      const properties = propertiesOf(dto);
      if (Object.keys(properties).length === 0) problems.push(`${route}: ${dto.name} declares no validated property`);
      for (const [name, required] of Object.entries(properties)) {
        const param = params.find((p) => p.in === 'query' && p.name === name);
        if (!param) problems.push(`${route}: ${dto.name}.${name} is not a query parameter`);
        else if (Boolean(param.required) !== required) problems.push(`${route}: ${dto.name}.${name} required ${String(param.required)}, the DTO says ${String(required)}`);
        else if (!param.schema) problems.push(`${route}: ${dto.name}.${name} has no schema`);
      }
    }
    expect(problems).toEqual([]);
  });
});
