import { MAX_PATH_PARAM_LENGTH, PATH_ID_CHARACTERS, PATH_NAME_CHARACTERS } from '@plaza/contracts';
import { EndpointDefinition, ENDPOINT_LIST, HttpMethod } from './endpoint-table';

/** The path wildcards (docs/api/README.md, "Addresses"), as @plaza/contracts defines them for the services too. */
export const WILDCARDS: Record<string, string> = {
  id: `${PATH_ID_CHARACTERS}+`,
  cid: `${PATH_ID_CHARACTERS}+`,
  name: `${PATH_NAME_CHARACTERS}+`,
  /** An IMDb id: the router takes any name, the service answers a malformed one 400/1016 (docs/api/movie.md). */
  imdb: `${PATH_NAME_CHARACTERS}+`,
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

const patterns = ENDPOINT_LIST.map((e) => ({ method: e.method, regex: toRegExp(e.path), endpoint: e as EndpointDefinition }));
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

/** The endpoint of the table that a request for `path` (no query) reaches, if any (HEAD as GET). */
export function endpointFor(method: string, path: string): EndpointDefinition | undefined {
  const wanted = method === 'HEAD' ? 'GET' : method;
  return patterns.find((p) => p.method === wanted && p.regex.test(path))?.endpoint;
}
