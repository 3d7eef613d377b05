import 'reflect-metadata';
import { Type } from '@nestjs/common';
import type { OperationObject, ParameterObject, RequestBodyObject, SchemaObject } from '@nestjs/swagger';
import { AreasModule } from '../areas/areas.module';
import { Auth2Controller } from '../auth2/auth2.controller';
import { ENDPOINT_LIST } from '../endpoints/endpoint-table';
import { GatewayHealthController } from '../health/gateway-health.controller';
import { PictureController } from '../pictures/picture.controller';
import { bindingsOf } from './endpoint-bindings';
import { buildOpenApiDocument } from './openapi-document';
import { OpenApiController } from './openapi.controller';

/** Controllers of a module and of the modules it imports, as Nest would register them. */
function controllersOf(module: Type): Type[] {
  const own = (Reflect.getMetadata('controllers', module) ?? []) as Type[];
  const imports = (Reflect.getMetadata('imports', module) ?? []) as Type[];
  return [...own, ...imports.flatMap(controllersOf)];
}

const controllers = [...controllersOf(AreasModule), PictureController, Auth2Controller, GatewayHealthController, OpenApiController];
const document = buildOpenApiDocument(bindingsOf(controllers), { version: 'test' });
const openApiPath = (path: string) => path.replace(/:([a-z]+)/g, '{$1}');
const operation = (method: string, path: string) => document.paths[openApiPath(path)]?.[method.toLowerCase() as 'get'] as OperationObject;
const param = (op: OperationObject, name: string) => (op.parameters as ParameterObject[]).find((p) => p.name === name);
const schemaOf = (op: OperationObject, name: string) => param(op, name)?.schema as SchemaObject | undefined;
/** A component, by its `$ref`. */
const deref = <T>(value: unknown): T => {
  const ref = (value as { $ref?: string } | undefined)?.$ref;
  if (!ref) return value as T;
  const [, , kind, name] = ref.split('/');
  return (document.components as Record<string, Record<string, unknown>>)[kind][name] as T;
};
const body = (op: OperationObject, type: string) => deref<SchemaObject | undefined>((op.requestBody as RequestBodyObject | undefined)?.content[type]?.schema);
const response = (op: OperationObject, status: string) => deref<Record<string, unknown> | undefined>(op.responses[status]);

describe('OpenAPI document', () => {
  it('has every row of the endpoint table, under its name', () => {
    for (const row of ENDPOINT_LIST) {
      const op = operation(row.method, row.path);
      expect({ row: row.name, found: op?.operationId }).toEqual({ row: row.name, found: row.name });
      expect(op.responses[String(row.status ?? 200)]).toBeDefined();
    }
  });

  it('has the token and revoke endpoints, and leaves out health, the consent page and itself', () => {
    expect(Object.keys(document.paths).filter((p) => !p.startsWith('/v2/')).sort()).toEqual(['/auth2/revoke', '/auth2/token']);
    const token = operation('POST', '/auth2/token');
    expect(token.responses['200']).toBeDefined();
    expect(Object.keys(body(token, 'application/x-www-form-urlencoded')?.properties ?? {})).toEqual(
      expect.arrayContaining(['grant_type', 'client_id', 'client_secret', 'username', 'password', 'refresh_token', 'scope']),
    );
    expect(Object.keys(document.paths).some((p) => p.includes('openapi') || p.includes('explorer'))).toBe(false);
  });

  it('gives path parameters the spec wildcard patterns', () => {
    expect(schemaOf(operation('GET', '/v2/book/:id'), 'id')?.pattern).toBe('^[0-9]+$');
    expect(schemaOf(operation('GET', '/v2/book/user/:name/tags'), 'name')?.pattern).toBe('^[A-Za-z0-9._-]+$');
    expect(schemaOf(operation('GET', '/v2/note/:id/comment/:cid'), 'cid')?.pattern).toBe('^[0-9]+$');
    for (const row of ENDPOINT_LIST) {
      const names = [...row.path.matchAll(/:([a-z]+)/g)].map((m) => m[1]);
      for (const name of names) expect(param(operation(row.method, row.path), name)).toMatchObject({ in: 'path', required: true });
    }
  });

  it('documents paging, fields, callback and apikey where they apply', () => {
    for (const row of ENDPOINT_LIST) {
      const op = operation(row.method, row.path);
      expect(schemaOf(op, 'callback')?.pattern).toBe('^[A-Za-z0-9_]{1,50}$');
      if (row.paging) {
        expect(schemaOf(op, 'start')).toMatchObject({ type: 'integer', minimum: 0 });
        expect(schemaOf(op, 'count')).toMatchObject({ type: 'integer', minimum: 0, default: row.paging.defaultCount });
        expect(op.responses['200']).toMatchObject({
          content: { 'application/json': { schema: { required: ['start', 'count', 'total', row.listKey] } } },
        });
      } else {
        expect(param(op, 'start')).toBeUndefined();
      }
      if (row.method === 'GET' && row.scope !== null) expect(param(op, 'fields')).toBeDefined();
      expect(param(op, 'apikey') !== undefined).toBe(row.access === 'public' && row.scope !== null);
    }
  });

  it("takes each endpoint's own query parameters from its DTO's class-validator metadata", () => {
    const events = operation('GET', '/v2/event/list');
    expect(param(events, 'loc')).toMatchObject({ required: true, schema: { type: 'string', maxLength: 100 } });
    expect(schemaOf(events, 'day_type')?.enum).toEqual(['today', 'tomorrow', 'weekend', 'week', 'future']);
    const collections = operation('GET', '/v2/book/user/:name/collections');
    expect(schemaOf(collections, 'rating')).toMatchObject({ type: 'integer', minimum: 1, maximum: 5 });
    expect(schemaOf(collections, 'from')).toMatchObject({ type: 'string', format: 'date-time' });
    expect(param(operation('GET', '/v2/book/search'), 'q')).toMatchObject({ required: false, schema: { maxLength: 200 } });
    expect(param(operation('GET', '/v2/picture/:name'), 'ck')).toBeDefined();
  });

  it('describes bodies as form and JSON, and picture endpoints as multipart too', () => {
    const collect = operation('POST', '/v2/book/:id/collection');
    const form = body(collect, 'application/x-www-form-urlencoded');
    expect(form?.required).toEqual(['status']);
    expect((form?.properties?.status as SchemaObject).enum).toEqual(['wish', 'reading', 'doing', 'read', 'done']);
    expect((form?.properties?.comment as SchemaObject).maxLength).toBe(350);
    expect(body(collect, 'application/json')).toEqual(form);
    expect(body(collect, 'multipart/form-data')).toBeUndefined();
    expect(collect.responses['409']).toBeDefined();

    const annotation = body(operation('POST', '/v2/book/:id/annotations'), 'multipart/form-data');
    expect(annotation?.properties?.['1']).toMatchObject({ type: 'string', format: 'binary' });
    expect(annotation?.properties?.['10']).toMatchObject({ format: 'binary' });
    expect(annotation?.properties?.['11']).toBeUndefined();
    expect(annotation?.properties?.content).toMatchObject({ type: 'string', minLength: 16 });
    const note = body(operation('POST', '/v2/notes'), 'multipart/form-data');
    expect(note?.required).toEqual(['title', 'content']);
    expect(note?.properties?.image_3).toMatchObject({ format: 'binary' });
    expect(note?.properties?.image_4).toBeUndefined();
    expect(note?.properties?.layout_1).toMatchObject({ enum: ['L', 'C', 'R'] });
  });

  it('asks for the scope of the row, and lets public rows be called without a token', () => {
    expect(operation('GET', '/v2/book/:id').security).toEqual([{}, { oauth2: ['book_basic_r'] }]);
    expect(operation('POST', '/v2/notes').security).toEqual([{ oauth2: ['community_basic_note'] }]);
    expect(operation('GET', '/v2/movie/subject/:id').security).toHaveLength(4);
    expect(operation('GET', '/v2/picture/:name').security).toEqual([]);
  });

  it('documents the error statuses with the error schema', () => {
    const errorRef = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    for (const row of ENDPOINT_LIST) {
      const op = operation(row.method, row.path);
      for (const status of ['400', '401', '403', '500', '503', '504']) expect(response(op, status)).toMatchObject(errorRef);
      if (!row.unlimited) expect(response(op, '429')).toMatchObject(errorRef);
    }
    expect(operation('GET', '/v2/book/search').responses['404']).toBeUndefined();
    expect(operation('GET', '/v2/movie/weekly').responses['404']).toBeDefined();
    expect(response(operation('POST', '/auth2/token'), '400')).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } },
    });
    expect(document.components?.schemas?.Error).toMatchObject({ required: ['msg', 'code', 'request'] });
  });

  // fuzzer finding 5: with `callback` every answer is text/javascript, which the document did not say
  it('documents the JSONP media type beside JSON for answers and errors', () => {
    for (const row of ENDPOINT_LIST.filter((r) => r.scope !== null && r.status !== 204)) {
      const op = operation(row.method, row.path);
      expect(Object.keys(response(op, String(row.status ?? 200))?.content as object)).toEqual(['application/json', 'text/javascript']);
      expect(Object.keys(response(op, '400')?.content as object)).toEqual(['application/json', 'text/javascript']);
    }
  });
});
