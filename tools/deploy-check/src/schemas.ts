/**
 * The wheel's schemas point into one shared file (`"$ref": "/api/_definitions.json#/$defs/X"`),
 * a reference kubeconform cannot follow from a local folder. A standalone schema carries the
 * definitions it needs itself: the kind's schema, its references rewritten to `#/$defs/X`, and
 * `$defs` holding every definition reachable from it (and nothing else, so files stay small).
 */
const REF = /^(?:\/api\/_definitions\.json)?#\/\$defs\/(.+)$/;

type Json = unknown;

function refName(ref: string): string {
  const m = REF.exec(ref);
  if (!m) throw new Error(`unexpected $ref ${ref}`);
  return m[1];
}

function collect(node: Json, definitions: Record<string, Json>, seen: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collect(item, definitions, seen);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = refName(value);
        if (seen.has(name)) continue;
        if (!(name in definitions)) throw new Error(`$ref to a missing definition ${name}`);
        seen.add(name);
        collect(definitions[name], definitions, seen);
      } else {
        collect(value, definitions, seen);
      }
    }
  }
}

function rewrite(node: Json): Json {
  if (Array.isArray(node)) return node.map(rewrite);
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? `#/$defs/${refName(value)}` : rewrite(value)]),
    );
  }
  return node;
}

export function standaloneSchema(schema: Record<string, Json>, definitions: Record<string, Json>): Record<string, Json> {
  const seen = new Set<string>();
  collect(schema, definitions, seen);
  const $defs = Object.fromEntries([...seen].sort().map((name) => [name, rewrite(definitions[name])]));
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', ...(rewrite(schema) as Record<string, Json>), $defs };
}

/**
 * A CustomResourceDefinition version's openAPIV3Schema as the JSON schema kubeconform validates
 * against, strict like the Kubernetes schemas above: objects with declared properties take no
 * others (unless the CRD preserves unknown fields), int-or-string fields take either, and
 * `nullable` fields take null (what kubeconform's own openapi2jsonschema.py does).
 */
export function crdSchema(openApi: Record<string, Json>): Record<string, Json> {
  const convert = (node: Json): Json => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
    const s = node as Record<string, Json>;
    if (s['x-kubernetes-int-or-string'] === true || s.format === 'int-or-string') {
      return { ...(s.description ? { description: s.description } : {}), oneOf: [{ type: 'string' }, { type: 'integer' }] };
    }
    const out: Record<string, Json> = { ...s };
    if (s.properties && typeof s.properties === 'object') {
      out.properties = Object.fromEntries(Object.entries(s.properties as Record<string, Json>).map(([k, v]) => [k, convert(v)]));
      if (!('additionalProperties' in s) && s['x-kubernetes-preserve-unknown-fields'] !== true) out.additionalProperties = false;
    }
    if (s.additionalProperties && typeof s.additionalProperties === 'object') out.additionalProperties = convert(s.additionalProperties);
    if (s.items) out.items = convert(s.items);
    for (const key of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(s[key])) out[key] = (s[key] as Json[]).map(convert);
    if (s.nullable === true && typeof s.type === 'string') out.type = [s.type, 'null'];
    return out;
  };
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', ...(convert(openApi) as Record<string, Json>) };
}
