import { ENDPOINT_LIST, HttpMethod } from './endpoint-table';
import { MAX_PATH_PARAM_LENGTH } from '@plaza/contracts';

/** The spec's wildcards (convention 3): `:id` digits only, `:name` digits, letters and `-_.`. */
// ASCII classes, not `\d`: the OpenAPI document publishes these, and other regex engines (Python's,
// in the fuzzer) read `\d` as any Unicode digit
export const WILDCARDS: Record<string, string> = {
  id: '[0-9]+',
  cid: '[0-9]+',
  name: '[A-Za-z0-9._-]+',
};

/** The longest path parameter the router matches (fastify `maxParamLength`); a longer one matches no route. */
export const MAX_PARAM_LENGTH = MAX_PATH_PARAM_LENGTH;

const wildcardOf = (param: string) => WILDCARDS[param] ?? WILDCARDS.id;

/** `/v2/book/:id` → the fastify route `/v2/book/:id(^[0-9]+$)`, so a wrong wildcard matches no route. */
export function toFastifyPath(path: string): string {
  return path.replace(/:([a-z]+)/g, (_, param: string) => `:${param}(^${wildcardOf(param)}$)`);
}

export function toRegExp(path: string): RegExp {
  const body = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? `(?:${wildcardOf(segment.slice(1))})` : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}/?$`);
}

const patterns = ENDPOINT_LIST.map((e) => ({ method: e.method, regex: toRegExp(e.path) }));
const extraRoutes: Array<{ method: HttpMethod; regex: RegExp }> = [];

/** Routes outside the table (OAuth, health, docs) register here so 404 vs 1014 stays right for them too. */
export function registerExtraRoute(method: HttpMethod, path: string): void {
  extraRoutes.push({ method, regex: toRegExp(path) });
}

/** Methods under which some route matches this path (HEAD counts as GET). */
export function methodsForPath(path: string): Set<string> {
  const methods = new Set<string>();
  for (const p of [...patterns, ...extraRoutes]) if (p.regex.test(path)) methods.add(p.method);
  return methods;
}
