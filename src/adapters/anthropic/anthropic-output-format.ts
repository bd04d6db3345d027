import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { JsonSchema, ResponseFormat } from '../../model/model-adapter.js';
import { checkResponseFormat } from '../shared/response-format.js';
import { loadOutputFormatHelper } from './anthropic-connect.js';

/** Model name prefixes Anthropic documents without structured outputs: Claude 3.x, Sonnet 4 and Opus 4 / 4.1. */
const withoutStructuredOutputs = [
  'claude-3',
  'claude-opus-4-0',
  'claude-opus-4-1',
  'claude-opus-4-2025',
  'claude-sonnet-4-0',
  'claude-sonnet-4-2025',
] as const;

/** Whether the adapter sends native structured output for `model` when `nativeStructuredOutput` is not set. */
export function nativeStructuredOutputByDefault(model: string): boolean {
  return !withoutStructuredOutputs.some((prefix) => model.startsWith(prefix));
}

/**
 * The `output_config.format` of a call's response format: `{ type: 'json_schema', schema }`, the
 * schema in the subset Claude's structured outputs take (converted by the SDK's
 * `jsonSchemaOutputFormat`: objects closed, `oneOf` as `anyOf`, constraints Claude cannot enforce
 * moved into descriptions). Anthropic takes neither a name nor a description of the format.
 *
 * @throws {InvalidArgumentError} for a bad name or schema, a root that is not an object, or an
 * object open to undeclared keys (a map), which Claude's structured outputs cannot express.
 */
export async function toAnthropicOutputFormat(format: ResponseFormat): Promise<JsonSchema> {
  checkResponseFormat(format);
  if (format.schema['type'] !== 'object') {
    throw new InvalidArgumentError({
      argument: 'responseFormat.schema',
      value: format.schema,
      message:
        "must be an object schema ({ type: 'object', properties: ... }): Claude's structured outputs answer with an object. Wrap the value in a property.",
    });
  }
  const open = findOpenObject(format.schema, '');
  if (open !== undefined) {
    throw new InvalidArgumentError({
      argument: `responseFormat.schema${open.path}.additionalProperties`,
      value: open.value,
      message:
        "must be false or absent: Claude's structured outputs take only objects whose keys are all declared. Declare the keys as properties, or create the adapter with nativeStructuredOutput: false to have the answer checked through a final-answer tool.",
    });
  }
  const outputFormatOf = await loadOutputFormatHelper();
  try {
    return outputFormatOf(format.schema);
  } catch (error) {
    throw new InvalidArgumentError({
      argument: 'responseFormat.schema',
      value: format.schema,
      message: `cannot be sent as Claude's structured output (${error instanceof Error ? error.message : String(error)}). Give every schema a type, or create the adapter with nativeStructuredOutput: false.`,
    });
  }
}

/** The first object schema open to undeclared keys (`additionalProperties` true or a schema). */
function findOpenObject(node: unknown, path: string): { path: string; value: unknown } | undefined {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
  const schema = node as Record<string, unknown>;
  const additional = schema['additionalProperties'];
  if (additional !== undefined && additional !== false) return { path, value: additional };
  const children: [string, unknown][] = [];
  for (const key of ['properties', '$defs', 'definitions'] as const) {
    const map = schema[key];
    if (typeof map === 'object' && map !== null)
      for (const [name, child] of Object.entries(map)) children.push([`.${key}.${name}`, child]);
  }
  if (schema['items'] !== undefined) children.push(['.items', schema['items']]);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((child, index) => children.push([`.${key}[${index}]`, child]));
  }
  for (const [childPath, child] of children) {
    const found = findOpenObject(child, `${path}${childPath}`);
    if (found !== undefined) return found;
  }
  return undefined;
}
