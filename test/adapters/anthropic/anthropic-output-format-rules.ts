/**
 * Anthropic's documented rules for structured outputs (`output_config.format`), as the fake
 * Messages API enforces them: the format is `{ type: 'json_schema', schema }` and nothing else;
 * every object in the schema has `additionalProperties: false`; numeric, string-length and array
 * constraints (beyond `minItems` 0 or 1) and `oneOf` are refused; and models Anthropic documents
 * without structured outputs refuse the format. Each check returns the 400 message, or `undefined`.
 */

type Node = Record<string, unknown>;

/** Constraints Claude's structured outputs do not take. */
const unsupportedKeywords = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'maxItems',
  'oneOf',
];

/** Models without structured outputs, by name prefix: Claude 3.x, Sonnet 4, Opus 4 and 4.1. */
const modelsWithout = [
  'claude-3',
  'claude-sonnet-4-0',
  'claude-sonnet-4-2025',
  'claude-opus-4-0',
  'claude-opus-4-1',
  'claude-opus-4-2025',
];

function isObject(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The 400 message for the request's `output_config`, or `undefined` when Anthropic takes it. */
export function checkOutputConfig(body: Node): string | undefined {
  if (body['output_format'] !== undefined) return 'output_format: Extra inputs are not permitted';
  const config = body['output_config'];
  if (config === undefined) return undefined;
  if (!isObject(config)) return 'output_config: Input should be a valid dictionary';
  const extra = Object.keys(config).find((key) => key !== 'effort' && key !== 'format');
  if (extra !== undefined) return `output_config.${extra}: Extra inputs are not permitted`;
  const format = config['format'];
  if (format === undefined || format === null) return undefined;
  if (!isObject(format)) return 'output_config.format: Input should be a valid dictionary';
  const extraFormat = Object.keys(format).find((key) => key !== 'type' && key !== 'schema');
  if (extraFormat !== undefined) return `output_config.format.${extraFormat}: Extra inputs are not permitted`;
  if (format['type'] !== 'json_schema') return "output_config.format.type: Input should be 'json_schema'";
  if (!isObject(format['schema'])) return 'output_config.format.schema: Field required';
  const model = String(body['model']);
  if (modelsWithout.some((prefix) => model.startsWith(prefix)))
    return `'${model}' does not support output format.`;
  const problem = schemaProblem(format['schema'], 'output_config.format.schema');
  return problem;
}

function schemaProblem(node: unknown, path: string): string | undefined {
  if (!isObject(node)) return undefined;
  for (const keyword of unsupportedKeywords)
    if (keyword in node) return `${path}: '${keyword}' is not supported in structured outputs`;
  const minItems = node['minItems'];
  if (minItems !== undefined && minItems !== 0 && minItems !== 1)
    return `${path}: 'minItems' values other than 0 or 1 are not supported in structured outputs`;
  if (node['type'] === 'object' && node['additionalProperties'] !== false)
    return `${path}: For 'object' type, 'additionalProperties' must be explicitly set to false`;
  const children: [string, unknown][] = [];
  for (const key of ['properties', '$defs', 'definitions'] as const) {
    const map = node[key];
    if (isObject(map))
      for (const [name, child] of Object.entries(map)) children.push([`${path}.${key}.${name}`, child]);
  }
  if (node['items'] !== undefined) children.push([`${path}.items`, node['items']]);
  for (const key of ['anyOf', 'allOf'] as const) {
    const list = node[key];
    if (Array.isArray(list))
      list.forEach((child, index) => children.push([`${path}.${key}.${index}`, child]));
  }
  for (const [childPath, child] of children) {
    const found = schemaProblem(child, childPath);
    if (found !== undefined) return found;
  }
  return undefined;
}
