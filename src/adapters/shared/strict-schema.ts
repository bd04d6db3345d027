import { ToolDefinitionError } from '../../errors/tool-definition-error.js';
import type { JsonSchema } from '../../model/model-adapter.js';

type SchemaNode = { [key: string]: unknown };

/** Throws the error of a schema that cannot be made strict, at `path`, with the fix. */
export type StrictSchemaFailure = (path: string, problem: string, fix: string) => never;

const unsupportedKeywords = [
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'dependentRequired',
  'dependentSchemas',
  'if',
  'then',
  'else',
  'not',
] as const;

/**
 * Converts a JSON Schema to the form OpenAI-style strict mode requires: an object root,
 * `additionalProperties: false` on every object, every property in `required`, and each
 * property that was optional turned into a union with `null`. The input is not changed.
 *
 * @throws {ToolDefinitionError} when the schema cannot be made strict (a non-object root,
 * a free-form map, or a keyword strict mode rejects), naming the path and the fix.
 * @example
 * toStrictSchema('search', { type: 'object', properties: { q: { type: 'string' } } });
 * // { type: 'object', properties: { q: { type: ['string', 'null'] } }, required: ['q'], additionalProperties: false }
 */
export function toStrictSchema(toolName: string, schema: JsonSchema): JsonSchema {
  return convertToStrict(schema, 'wrap the parameters in an object', (path, problem, fix) => {
    throw new ToolDefinitionError({
      toolName,
      message:
        `its parameters schema cannot be made strict: at "${path === '' ? '/' : path}", ${problem}. ` +
        `Either ${fix}, or set strict: false on this tool.`,
    });
  });
}

/**
 * The strict form of `schema` (see {@link toStrictSchema}), with `fail` throwing the caller's
 * error; `rootFix` says what to do about a root that is not an object.
 */
export function convertToStrict(schema: JsonSchema, rootFix: string, fail: StrictSchemaFailure): JsonSchema {
  if (schema['type'] !== 'object') fail('', `the root has type ${JSON.stringify(schema['type'])}`, rootFix);
  return convert(fail, schema, '');
}

function convert(fail: StrictSchemaFailure, node: unknown, path: string): SchemaNode {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) {
    // `true`/`false` schemas have no strict form.
    fail(path, `the schema is ${JSON.stringify(node)}`, 'give it a type');
  }
  const source = node as SchemaNode;
  for (const keyword of unsupportedKeywords) {
    if (keyword in source) fail(path, `\`${keyword}\` is not supported`, 'remove it');
  }
  const result: SchemaNode = { ...source };
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
    const list = source[key];
    if (Array.isArray(list))
      result[key] = list.map((item, index) => convert(fail, item, `${path}/${key}/${index}`));
  }
  if (source['items'] !== undefined) result['items'] = convert(fail, source['items'], `${path}/items`);
  for (const key of ['$defs', 'definitions'] as const) {
    const definitions = source[key];
    if (typeof definitions === 'object' && definitions !== null) {
      result[key] = Object.fromEntries(
        Object.entries(definitions).map(([name, value]) => [
          name,
          convert(fail, value, `${path}/${key}/${name}`),
        ]),
      );
    }
  }
  if (isObjectSchema(source)) Object.assign(result, convertObject(fail, source, path));
  return result;
}

function isObjectSchema(node: SchemaNode): boolean {
  const type = node['type'];
  return type === 'object' || (Array.isArray(type) && type.includes('object')) || 'properties' in node;
}

function convertObject(fail: StrictSchemaFailure, node: SchemaNode, path: string): SchemaNode {
  const additional = node['additionalProperties'];
  const properties = (node['properties'] ?? {}) as SchemaNode;
  if (additional !== undefined && additional !== false && Object.keys(properties).length === 0) {
    fail(
      path,
      'it is a free-form map (`additionalProperties` without `properties`)',
      'declare its properties',
    );
  }
  if (typeof additional === 'object' && additional !== null) {
    fail(path, '`additionalProperties` gives a schema for extra keys', 'declare those keys as properties');
  }
  const required = new Set(Array.isArray(node['required']) ? (node['required'] as unknown[]) : []);
  const converted: SchemaNode = {};
  for (const [name, property] of Object.entries(properties)) {
    const strictProperty = convert(fail, property, `${path}/properties/${name}`);
    converted[name] = required.has(name) ? strictProperty : nullable(strictProperty);
  }
  return { properties: converted, required: Object.keys(properties), additionalProperties: false };
}

/** Adds `null` to a schema's accepted values, once. */
function nullable(node: SchemaNode): SchemaNode {
  const type = node['type'];
  const hasEnumOrConst = 'enum' in node || 'const' in node;
  if (typeof type === 'string' && !hasEnumOrConst)
    return type === 'null' ? node : { ...node, type: [type, 'null'] };
  if (Array.isArray(type) && !hasEnumOrConst)
    return type.includes('null') ? node : { ...node, type: [...type, 'null'] };
  if (
    Array.isArray(node['anyOf']) &&
    Object.keys(node).every((key) => key === 'anyOf' || key === 'description')
  ) {
    const options = node['anyOf'] as SchemaNode[];
    return options.some((option) => option['type'] === 'null')
      ? node
      : { ...node, anyOf: [...options, { type: 'null' }] };
  }
  const { description, ...rest } = node;
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { type: 'null' }] };
}
