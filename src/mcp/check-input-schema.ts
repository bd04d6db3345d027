/**
 * Why an MCP tool's `inputSchema` cannot be used as a tool's parameters, or `undefined` when it
 * can. MCP requires a JSON Schema object with `type: "object"` at the root; model APIs reject a
 * whole request over one bad schema, so a bad one is skipped rather than sent.
 */
export function checkInputSchema(schema: unknown): string | undefined {
  if (!isRecord(schema)) return `inputSchema must be a JSON Schema object; got ${describe(schema)}.`;
  if (schema['type'] !== 'object') {
    return `inputSchema must have "type": "object" at the root (MCP requires it); got "type": ${describe(schema['type'])}.`;
  }
  const properties = schema['properties'];
  if (properties !== undefined) {
    if (!isRecord(properties))
      return `inputSchema.properties must be an object; got ${describe(properties)}.`;
    for (const [name, property] of Object.entries(properties)) {
      if (!isRecord(property) && typeof property !== 'boolean') {
        return `inputSchema.properties.${name} must be a schema object; got ${describe(property)}.`;
      }
    }
  }
  const required = schema['required'];
  if (
    required !== undefined &&
    !(Array.isArray(required) && required.every((name) => typeof name === 'string'))
  ) {
    return `inputSchema.required must be an array of property names; got ${describe(required)}.`;
  }
  return unresolvedReference(schema, schema, new Set());
}

/** The first `$ref` that does not point into the schema itself (no fetching of remote schemas). */
function unresolvedReference(
  root: Record<string, unknown>,
  node: unknown,
  seen: Set<unknown>,
): string | undefined {
  if (typeof node !== 'object' || node === null || seen.has(node)) return undefined;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const item of node) {
      const problem = unresolvedReference(root, item, seen);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  const record = node as Record<string, unknown>;
  const reference = record['$ref'];
  if (reference !== undefined) {
    if (typeof reference !== 'string') return `a "$ref" must be a string; got ${describe(reference)}.`;
    if (!resolves(root, reference)) {
      return `"$ref": ${JSON.stringify(reference)} does not point into the schema (only local "#/..." references are resolved).`;
    }
  }
  for (const [key, value] of Object.entries(record)) {
    // `const`, `enum`, `default` and `examples` hold data, not schemas.
    if (key === 'const' || key === 'enum' || key === 'default' || key === 'examples') continue;
    const problem = unresolvedReference(root, value, seen);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function resolves(root: Record<string, unknown>, reference: string): boolean {
  if (reference === '#') return true;
  if (!reference.startsWith('#/')) return false;
  let node: unknown = root;
  for (const raw of reference.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'object' || typeof node === 'boolean';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
