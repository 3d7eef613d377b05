import { INestApplication, Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type {
  OpenAPIObject, OperationObject, ParameterObject, PathItemObject, RequestBodyObject, ResponseObject, SchemaObject, SecurityRequirementObject,
} from '@nestjs/swagger';
import {
  Errors, MAX_NOTE_CAPTION_LENGTH, MAX_NOTE_PICTURES_PER_REQUEST, NotePictureLayouts, Scope, Scopes,
} from '@plaza/contracts';
import { ValidationTypes } from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import { EndpointDefinition, Endpoints, HttpMethod } from '../endpoints/endpoint-table';
import { MAX_PARAM_LENGTH, WILDCARDS } from '../endpoints/route-patterns';
import { CALLBACK, MAX_PAGING_VALUE } from '../http/query-params';
import { MULTIPART_LIMITS } from '../pictures/multipart-body';
import { controllersByName, DtoClass, HandlerBinding, handlerBinding, handlerId } from './endpoint-bindings';

type Converters = NonNullable<NonNullable<Parameters<typeof targetConstructorToSchema>[1]>['additionalConverters']>;

/** What each scope allows (docs/api/README.md, "Tiers and scopes"). */
const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  book_basic_r: 'book reads',
  book_basic_w: 'collection and annotation writes',
  service_basic_common: 'book review writes, the deprecated user_tags read, the user reads (/v2/user/~me, /v2/user/{name}, /v2/user), account deletion and export',
  movie_basic_r: 'movie reads (basic tier)',
  movie_basic_w: 'movie writes (basic tier)',
  movie_advance_r: 'movie reads (advance tier)',
  movie_advance_w: 'movie writes (advance tier)',
  movie_premium_r: 'movie reads (premium tier)',
  movie_premium_w: 'movie writes (premium tier)',
  community_basic_note: 'every note endpoint',
  event_basic_r: 'event and city reads',
  event_basic_w: 'joining, leaving and marking interest in events',
  catalogue_changes_r: 'the public catalogue\'s change feed (a token is required: an app\'s or a user\'s)',
};

const STATUS_TEXT: Record<number, string> = {
  304: 'Not modified: `If-None-Match` named the current ETag',
  400: 'Bad request',
  401: 'The Bearer token is invalid, revoked or expired',
  403: 'Forbidden: login needed, scope missing, or not the owner',
  404: 'Not found (also: an endpoint outside the caller\'s movie tier)',
  409: 'Conflict',
  410: 'Gone: the change-feed cursor is older than the feed keeps, resync',
  413: 'Request body too large',
  415: 'Unsupported body media type',
  429: 'Rate limit exceeded (see `Retry-After`)',
  500: 'Internal error (the logs hold an error id)',
  503: 'A service, the bus or the database is unavailable',
  504: 'A service did not answer in time',
};

/** Error codes of the catalogue, by HTTP status, for the response descriptions. */
function codesOf(status: number): string {
  return Object.values(Errors)
    .filter((e) => e.status === status)
    .map((e) => `${e.code} \`${e.msg}\``)
    .join(', ');
}

/**
 * Converters for the project's own class-validator decorators (book-validators, event.dto);
 * class-validator-jsonschema converts the library's decorators itself. `@IsDefined()` is
 * expressed by `required` alone (the library's `not: {type: null}` is not OpenAPI 3.0).
 */
const CONVERTERS: Converters = {
  [ValidationTypes.IS_DEFINED]: {},
  minTrimmedLength: (meta) => ({ type: 'string', minLength: meta.constraints[0] as number, description: `at least ${meta.constraints[0] as number} characters besides surrounding blanks` }),
  isTagList: { type: 'string', description: 'tags separated by blanks or commas: at most 20 tags of at most 50 characters' },
  isRfc3339Timestamp: { type: 'string', format: 'date-time' },
  isCalendarDate: { type: 'string', format: 'date' },
};

function dtoSchema(dto: DtoClass): SchemaObject {
  return targetConstructorToSchema(dto, { additionalConverters: CONVERTERS }) as SchemaObject;
}

const ERROR_SCHEMA: SchemaObject = {
  type: 'object',
  description: 'Every error (docs/api/README.md, "Errors"): `request` is the method and the path without its query string.',
  required: ['msg', 'code', 'request'],
  properties: { msg: { type: 'string' }, code: { type: 'integer' }, request: { type: 'string', example: 'GET /v2/book/1' } },
};

const OAUTH_ERROR_SCHEMA: SchemaObject = {
  allOf: [
    { $ref: '#/components/schemas/Error' },
    { type: 'object', required: ['error', 'error_description'], properties: { error: { type: 'string' }, error_description: { type: 'string' } } },
  ],
};

const TOKEN_RESPONSE_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in', 'scope'],
  properties: {
    access_token: { type: 'string' },
    token_type: { type: 'string', enum: ['Bearer'] },
    expires_in: { type: 'integer' },
    refresh_token: { type: 'string' },
    scope: { type: 'string' },
    user_id: { type: 'string' },
    user_name: { type: 'string' },
  },
};

/** With a `callback` every JSON answer, errors included, comes as JSONP (docs/api/README.md). */
const JSONP_CONTENT = { 'text/javascript': { schema: { type: 'string', description: 'JSONP: `/**/NAME(JSON);`, when `callback` is given' } as SchemaObject } };

/** One operation as @nestjs/swagger generated it, with what the document adds to it. */
export interface OperationBinding extends HandlerBinding {
  operationId: string;
  method: HttpMethod;
  /** In OpenAPI form, with the path wildcards of docs/api/README.md ("Addresses"): `/v2/book/{id}`. */
  path: string;
  tags: string[];
  /** The success status (`@HttpCode`, which `@Endpoint` sets from the row). */
  status: number;
  generated: OperationObject;
}

const pathParams = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

/**
 * Path parameters with the router's patterns, paging, the `@Query()` DTO's properties, the
 * parameters @nestjs/swagger found (`@Query('name')`, `@ApiQuery()`...), `fields`, `apikey` and
 * `callback`. A name given twice keeps its first definition.
 */
function parameters(binding: OperationBinding): ParameterObject[] {
  const row = binding.endpoint;
  const generated = ((binding.generated.parameters ?? []) as ParameterObject[]).filter((p) => p.in !== 'path');
  const params: ParameterObject[] = [];
  const add = (param: ParameterObject) => {
    if (params.some((p) => p.name === param.name && p.in === param.in)) return;
    const declared = generated.find((p) => p.name === param.name && p.in === param.in);
    params.push(declared?.description && !param.description ? { ...param, description: declared.description } : param);
  };
  for (const name of pathParams(binding.path)) {
    add({ name, in: 'path', required: true, schema: { type: 'string', pattern: `^${WILDCARDS[name] ?? WILDCARDS.id}$`, maxLength: MAX_PARAM_LENGTH } });
  }
  const query = (name: string, schema: SchemaObject, description?: string, required = false) =>
    add({ name, in: 'query', required, schema, ...(description ? { description } : {}) });

  if (row?.paging) {
    const { defaultCount, maxCount } = row.paging;
    query('start', { type: 'integer', minimum: 0, default: 0 }, `offset of the first element (a larger value than ${MAX_PAGING_VALUE} is read as ${MAX_PAGING_VALUE})`);
    query('count', { type: 'integer', minimum: 0, default: defaultCount },
      `number of elements; at most ${maxCount} are returned (a larger value is cut to ${maxCount})`);
  }
  for (const dto of binding.queryDtos) {
    const schema = dtoSchema(dto);
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      query(name, property as SchemaObject, undefined, schema.required?.includes(name) ?? false);
    }
  }
  for (const param of generated) add(param);
  // a single `@Query('name')` is an optional string (@nestjs/swagger marks it required, or drops it when typed `unknown`)
  for (const name of binding.queryNames) {
    const index = params.findIndex((p) => p.in === 'query' && p.name === name);
    if (index >= 0) params[index] = { ...params[index], required: false };
    else query(name, { type: 'string' });
  }
  if (row && binding.method === 'GET' && row.scope !== null) {
    query('fields', { type: 'string' }, 'comma-separated field names to return (of each list element for lists); empty or `all`: every field');
  }
  if (row?.access === 'public' && row.scope !== null) {
    query('apikey', { type: 'string' }, 'the app\'s client_id, for calls without a token: raises the rate limit and sets the movie tier');
  }
  query('callback', { type: 'string', pattern: CALLBACK.source }, 'JSONP: the answer (errors too) becomes `/**/NAME(JSON);` as text/javascript, status kept');
  return params;
}

function pictureParts(kind: 'annotation' | 'note'): Record<string, SchemaObject> {
  const parts: Record<string, SchemaObject> = {};
  // notes take three pictures a request; annotations as many as a multipart body may carry
  const most = kind === 'note' ? MAX_NOTE_PICTURES_PER_REQUEST : MULTIPART_LIMITS.files;
  for (let n = 1; n <= most; n++) {
    if (kind === 'annotation') {
      parts[String(n)] = { type: 'string', format: 'binary', description: `picture ${n} (JPEG, PNG, GIF or BMP, under 3 MiB; also named pic${n}); referenced in content as <图片${n}>` };
    } else {
      parts[`image_${n}`] = { type: 'string', format: 'binary', description: `picture ${n} (JPEG, PNG, GIF or BMP, under 3 MiB; also named image_p_${n}); referenced in content as <图片p_${n}>` };
      parts[`layout_${n}`] = { type: 'string', enum: [...NotePictureLayouts], description: `layout of picture ${n}` };
      parts[`desc_${n}`] = { type: 'string', maxLength: MAX_NOTE_CAPTION_LENGTH, description: `caption of picture ${n}` };
    }
  }
  if (kind === 'note') parts.pids = { type: 'string', description: 'comma-separated picture numbers like `p_1,p_2`; when given it must name every image part' };
  return parts;
}

function requestBody(binding: OperationBinding, schemas: Record<string, SchemaObject>): RequestBodyObject | undefined {
  const spec = binding.endpoint?.body;
  const dto = spec?.dto ?? binding.bodyDto;
  if (!dto) return binding.generated.requestBody as RequestBodyObject | undefined;
  const schema = dtoSchema(dto);
  schemas[dto.name] = schema;
  const ref = { $ref: `#/components/schemas/${dto.name}` } as SchemaObject;
  const content: RequestBodyObject['content'] = {
    'application/x-www-form-urlencoded': { schema: ref },
    'application/json': { schema: ref },
  };
  if (spec?.pictures) {
    const name = `${dto.name}WithPictures`;
    schemas[name] = { ...schema, properties: { ...schema.properties, ...pictureParts(spec.pictures) } };
    content['multipart/form-data'] = { schema: { $ref: `#/components/schemas/${name}` } as SchemaObject };
  }
  return { required: (schema.required?.length ?? 0) > 0, content };
}

function successResponse(binding: OperationBinding): ResponseObject {
  const row = binding.endpoint;
  if (binding.status === 204) return { description: 'Done, no body' };
  if (row && row.scope === null) {
    const image: SchemaObject = { type: 'string', format: 'binary' };
    return { description: 'The picture', content: Object.fromEntries(['image/jpeg', 'image/png', 'image/gif', 'image/bmp'].map((t) => [t, { schema: image }])) };
  }
  if (row?.path === Endpoints.accountExport.path) {
    return { description: 'A tar archive of import-format NDJSON pages and pictures (docs/api/export.md)', content: { 'application/x-tar': { schema: { type: 'string', format: 'binary' } } } };
  }
  let schema: SchemaObject = { type: 'object' };
  if (binding.path === '/auth2/token') schema = { $ref: '#/components/schemas/TokenResponse' } as SchemaObject;
  else if (row?.listKey && row.paging) {
    schema = {
      type: 'object',
      required: ['start', 'count', 'total', row.listKey],
      properties: {
        start: { type: 'integer', minimum: 0 },
        count: { type: 'integer', minimum: 0, description: 'elements returned' },
        total: { type: 'integer', minimum: 0, description: 'all matches' },
        [row.listKey]: { type: 'array', items: { type: 'object' } },
      },
    };
  } else if (row?.listKey) {
    schema = { type: 'object', required: [row.listKey], properties: { [row.listKey]: { type: 'array', items: { type: 'object' } } } };
  }
  return { description: row?.summary ?? 'OK', content: { 'application/json': { schema }, ...JSONP_CONTENT } };
}

/**
 * The error statuses an operation can answer, from what its row declares: every route checks
 * `callback`, parameters and tokens (400, 401, 403); a path with a parameter, or a movie tier
 * rule, can be 404; writes can be too large or of another media type (413, 415); rate-limited
 * rows can be 429; any route can meet a failing service (500, 503, 504).
 */
export function errorStatuses(binding: OperationBinding): number[] {
  const row = binding.endpoint;
  const statuses = new Set<number>([400, 500, 503, 504]);
  const write = binding.method !== 'GET';
  if (row) {
    statuses.add(401).add(403);
    if (pathParams(binding.path).length > 0 || row.tiers) statuses.add(404);
    if (!row.unlimited) statuses.add(429);
    for (const s of row.errorStatuses ?? []) statuses.add(s);
  }
  if (write) statuses.add(413).add(415);
  return [...statuses].sort((a, b) => a - b);
}

/** Shared error responses, `Error<status>` and `OAuthError<status>` (the token endpoints' flavour). */
function errorResponses(bindings: OperationBinding[]): Record<string, ResponseObject> {
  const out: Record<string, ResponseObject> = {};
  for (const binding of bindings) {
    const flavour = errorFlavour(binding);
    for (const status of errorStatuses(binding)) {
      const codes = codesOf(status);
      out[`${flavour}${status}`] = {
        description: `${STATUS_TEXT[status] ?? 'Error'}${codes ? `. Codes: ${codes}` : ''}`,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${flavour}` } as SchemaObject }, ...JSONP_CONTENT },
      };
    }
  }
  return out;
}

const errorFlavour = (binding: OperationBinding) => (binding.path.startsWith('/auth2/') ? 'OAuthError' : 'Error');

function responses(binding: OperationBinding): Record<string, ResponseObject> {
  // responses declared with @ApiResponse() stay (not @nestjs/swagger's empty placeholder), unless the document says more of that status
  const declared = Object.entries((binding.generated.responses ?? {}) as Record<string, ResponseObject>).filter(([, r]) => r.description);
  const out: Record<string, ResponseObject> = { ...Object.fromEntries(declared), [String(binding.status)]: successResponse(binding) };
  if (binding.method === 'GET') out['304'] = { description: STATUS_TEXT[304] };
  for (const status of errorStatuses(binding)) {
    out[String(status)] = { $ref: `#/components/responses/${errorFlavour(binding)}${status}` } as unknown as ResponseObject;
  }
  return out;
}

function security(binding: OperationBinding): SecurityRequirementObject[] | undefined {
  const row = binding.endpoint;
  if (!row) return binding.path.startsWith('/auth2/') ? [{}, { clientBasic: [] }] : undefined;
  if (row.scope === null) return [];
  const scopes = typeof row.scope === 'string' ? [row.scope] : row.scope.anyOf;
  const tokens = scopes.map((scope) => ({ oauth2: [scope] }));
  return row.access === 'public' ? [{}, ...tokens] : tokens;
}

function description(row: EndpointDefinition | undefined): string | undefined {
  if (!row) return undefined;
  const lines: string[] = [];
  if (row.access === 'user') lines.push('Needs a logged-in user: no token, or a client-only token, is 403/1000.');
  else if (row.access === 'token') lines.push('Needs a token, an app\'s (client credentials) or a user\'s: without one, 403/1000.');
  else if (row.scope !== null) lines.push('Public: works without a token (an `apikey` raises the rate limit); a token sent must be valid and carry the scope.');
  if (row.tiers) lines.push(`Movie tiers: ${row.tiers.join(', ')}; another tier gets 404/1001.`);
  if (row.paging) lines.push(`Paged: \`count\` defaults to ${row.paging.defaultCount}, at most ${row.paging.maxCount}.`);
  if (row.listKey && row.paging) lines.push(`Answer: \`{start, count, total, ${row.listKey}: [...]}\`.`);
  return lines.join(' ') || undefined;
}

export interface DocumentOptions {
  version: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Every controller Nest registered, in every module of the application. */
function controllersOf(app: INestApplication): Type[] {
  return [...app.get(ModulesContainer).values()].flatMap((module) =>
    [...module.controllers.values()].map((wrapper) => wrapper.metatype as Type | null).filter((type): type is Type => typeof type === 'function'),
  );
}

/**
 * The OpenAPI 3 document of the public API, generated from the running application:
 * `SwaggerModule.createDocument` reads every route Nest registered (paths, methods, success
 * statuses, tags, summaries; `@ApiExcludeController()`/`@ApiExcludeEndpoint()` leave a route
 * out), and each operation is completed from its handler's endpoint-table row (path-parameter
 * patterns, paging, `fields`, `apikey`, `callback`, security, list envelope, error statuses) and
 * from the class-validator metadata of the DTOs it validates (query parameters and bodies),
 * through class-validator-jsonschema. Built once, when first asked for.
 */
export function createOpenApiDocument(app: INestApplication, options: DocumentOptions): OpenAPIObject {
  const scopes = Object.fromEntries(Scopes.map((s) => [s, SCOPE_DESCRIPTIONS[s]]));
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.0.3')
    .setTitle('Plaza API')
    .setVersion(options.version)
    .setDescription(
      'Books, movies, notes, events and cities (interface v2). Generated with @nestjs/swagger from the gateway\'s controllers, ' +
        'completed from its endpoint table and the class-validator DTOs. Every error is `{msg, code, request}`; see docs/ERRORS.md for the codes.',
    )
    .addServer('/')
    .addOAuth2(
      {
        type: 'oauth2',
        description: 'OAuth 2.0 access tokens, sent as `Authorization: Bearer <token>`.',
        flows: {
          password: { tokenUrl: '/auth2/token', scopes },
          authorizationCode: { authorizationUrl: '/auth2/auth', tokenUrl: '/auth2/token', scopes },
          clientCredentials: { tokenUrl: '/auth2/token', scopes },
        },
      },
      'oauth2',
    )
    .addBasicAuth({ type: 'http', scheme: 'basic', description: 'client_id and client_secret (or send them in the body)' }, 'clientBasic')
    .build();
  const generated = SwaggerModule.createDocument(app, config, { operationIdFactory: handlerId, autoTagControllers: false });

  const controllers = controllersByName(controllersOf(app));
  const rowNames = new Map<EndpointDefinition, string>(Object.entries(Endpoints).map(([name, row]) => [row as EndpointDefinition, name]));
  const bindings: OperationBinding[] = [];
  for (const [path, item] of Object.entries(generated.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const [controllerName, key] = (op.operationId ?? '').split('.');
      const controller = controllers.get(controllerName);
      if (!controller || !key) throw new Error(`OpenAPI: no handler for ${method.toUpperCase()} ${path} (${op.operationId})`);
      const handler = handlerBinding(controller, key);
      const success = Object.keys(op.responses ?? {}).find((status) => /^2\d\d$/.test(status));
      bindings.push({
        ...handler,
        operationId: (handler.endpoint && rowNames.get(handler.endpoint)) ?? `${controllerName.replace(/Controller$/, '')}_${key}`,
        method: method.toUpperCase() as HttpMethod,
        path,
        tags: op.tags ?? [],
        status: Number(success ?? handler.endpoint?.status ?? 200),
        generated: op,
      });
    }
  }

  const paths: Record<string, PathItemObject> = {};
  const bodySchemas: Record<string, SchemaObject> = {};
  for (const binding of bindings.sort((a, b) => a.path.localeCompare(b.path))) {
    const row = binding.endpoint;
    const operation: OperationObject = {
      operationId: binding.operationId,
      summary: binding.generated.summary || row?.summary || binding.operationId,
      tags: binding.tags,
      parameters: parameters(binding),
      responses: responses(binding),
    };
    const desc = [binding.generated.description, description(row)].filter(Boolean).join(' ');
    if (desc) operation.description = desc;
    if (row?.deprecated || binding.generated.deprecated) operation.deprecated = true;
    const body = requestBody(binding, bodySchemas);
    if (body) operation.requestBody = body;
    const sec = security(binding) ?? binding.generated.security;
    if (sec) operation.security = sec;
    if (row?.tiers) (operation as OperationObject & Record<string, unknown>)['x-movie-tiers'] = row.tiers;
    paths[binding.path] = { ...paths[binding.path], [binding.method.toLowerCase()]: operation };
  }
  // DocumentBuilder leaves an empty `contact`
  const { contact, ...info } = generated.info;
  return {
    ...generated,
    info: contact && Object.keys(contact).length > 0 ? { ...info, contact } : info,
    tags: [...new Set(bindings.flatMap((b) => b.tags))].sort().map((name) => ({ name })),
    paths,
    components: {
      ...generated.components,
      schemas: { ...generated.components?.schemas, Error: ERROR_SCHEMA, OAuthError: OAUTH_ERROR_SCHEMA, TokenResponse: TOKEN_RESPONSE_SCHEMA, ...bodySchemas },
      responses: { ...generated.components?.responses, ...errorResponses(bindings) },
    },
  };
}
