type Json = Record<string, unknown>;

function pick(object: unknown, fields: Set<string>): unknown {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return object;
  const out: Json = {};
  for (const key of Object.keys(object)) if (fields.has(key)) out[key] = (object as Json)[key];
  return out;
}

/**
 * The `fields` rule (docs/api/README.md, "`fields`"): a single object is filtered at
 * its top level; a list keeps its envelope and each element of its array is filtered.
 * Returns new objects: cached bodies are shared and must not be changed.
 */
export function applyFields(body: unknown, fields: Set<string> | undefined, listKey?: string): unknown {
  if (!fields || typeof body !== 'object' || body === null) return body;
  if (listKey && Array.isArray((body as Json)[listKey])) {
    return { ...(body as Json), [listKey]: ((body as Json)[listKey] as unknown[]).map((item) => pick(item, fields)) };
  }
  return pick(body, fields);
}
