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
