/**
 * OpenAI's documented rules for Structured Outputs, as the fake Chat Completions and Responses
 * servers enforce them: what a `response_format` (Chat Completions) or a `text.format` (Responses)
 * may hold, and what a strict schema must be. Each check returns OpenAI's 400 message and the
 * parameter it names, or `undefined` when the request is fine.
 */

/** A refused request: OpenAI's message and the `param` of its error body. */
export interface FormatRefusal {
  readonly message: string;
  readonly param: string;
}

type Node = Record<string, unknown>;

const namePattern = /^[a-zA-Z0-9_-]{1,64}$/;

function isObject(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Chat Completions: `response_format` is `text`, `json_object`, or `json_schema` with a nested `json_schema`. */
export function checkChatResponseFormat(body: Node): FormatRefusal | undefined {
  const format = body['response_format'];
  if (format === undefined) return undefined;
  if (!isObject(format)) return { message: "Invalid type for 'response_format'.", param: 'response_format' };
  const type = format['type'];
  if (type === 'text' || type === 'json_object') return unknownKeys(format, ['type'], 'response_format');
  if (type !== 'json_schema')
    return {
      message: `Invalid value: '${String(type)}'. Supported values are: 'text', 'json_object', and 'json_schema'.`,
      param: 'response_format.type',
    };
  const extra = unknownKeys(format, ['type', 'json_schema'], 'response_format');
  if (extra !== undefined) return extra;
  const inner = format['json_schema'];
  if (!isObject(inner))
    return {
      message: "Missing required parameter: 'response_format.json_schema'.",
      param: 'response_format.json_schema',
    };
  return checkJsonSchemaFormat(inner, 'response_format.json_schema', [
    'name',
    'description',
    'schema',
    'strict',
  ]);
}

/** Responses: `text.format` is `text`, `json_object`, or a flat `json_schema` with `name` and `schema`. */
export function checkResponsesTextFormat(body: Node): FormatRefusal | undefined {
  const text = body['text'];
  if (text === undefined) return undefined;
  if (!isObject(text)) return { message: "Invalid type for 'text'.", param: 'text' };
  const extraText = unknownKeys(text, ['format', 'verbosity'], 'text');
  if (extraText !== undefined) return extraText;
  const format = text['format'];
  if (format === undefined) return undefined;
  if (!isObject(format)) return { message: "Invalid type for 'text.format'.", param: 'text.format' };
  const type = format['type'];
  if (type === 'text' || type === 'json_object') return unknownKeys(format, ['type'], 'text.format');
  if (type !== 'json_schema')
    return {
      message: `Invalid value: '${String(type)}'. Supported values are: 'text', 'json_object', and 'json_schema'.`,
      param: 'text.format.type',
    };
  if (format['schema'] === undefined)
    return { message: "Missing required parameter: 'text.format.schema'.", param: 'text.format.schema' };
  return checkJsonSchemaFormat(format, 'text.format', ['type', 'name', 'description', 'schema', 'strict']);
}

function checkJsonSchemaFormat(
  format: Node,
  param: string,
  allowed: readonly string[],
): FormatRefusal | undefined {
  const extra = unknownKeys(format, allowed, param);
  if (extra !== undefined) return extra;
  const name = format['name'];
  if (name === undefined)
    return { message: `Missing required parameter: '${param}.name'.`, param: `${param}.name` };
  if (typeof name !== 'string' || !namePattern.test(name))
    return {
      message: `Invalid '${param}.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
      param: `${param}.name`,
    };
  const description = format['description'];
  if (description !== undefined && typeof description !== 'string')
    return {
      message: `Invalid type for '${param}.description': expected a string.`,
      param: `${param}.description`,
    };
  const strict = format['strict'];
  if (strict !== undefined && strict !== null && typeof strict !== 'boolean')
    return { message: `Invalid type for '${param}.strict': expected a boolean.`, param: `${param}.strict` };
  const schema = format['schema'];
  if (schema !== undefined && !isObject(schema))
    return { message: `Invalid type for '${param}.schema': expected an object.`, param: `${param}.schema` };
  if (strict === true && isObject(schema)) {
    if (schema['type'] !== 'object')
      return {
        message: `Invalid schema for response_format '${name}': schema must be a JSON Schema of 'type: "object"', got 'type: "${String(schema['type'])}"'.`,
        param: param,
      };
    const problem = strictProblem(schema, []);
    if (problem !== undefined)
      return { message: `Invalid schema for response_format '${name}': ${problem}`, param: param };
  }
  return undefined;
}

/** The first place a strict schema breaks OpenAI's rules: objects closed, every property required. */
function strictProblem(node: unknown, context: readonly string[]): string | undefined {
  if (!isObject(node)) return undefined;
  const where = `In context=(${context.map((part) => `'${part}'`).join(', ')})`;
  const isObjectSchema = node['type'] === 'object' || 'properties' in node;
  if (isObjectSchema) {
    if (node['additionalProperties'] !== false)
      return `${where}, 'additionalProperties' is required to be supplied and to be false.`;
    const properties = isObject(node['properties']) ? node['properties'] : {};
    const required = Array.isArray(node['required']) ? node['required'] : [];
    const missing = Object.keys(properties).find((key) => !required.includes(key));
    if (missing !== undefined)
      return `${where}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`;
    for (const [key, value] of Object.entries(properties)) {
      const found = strictProblem(value, [...context, 'properties', key]);
      if (found !== undefined) return found;
    }
  }
  if (node['items'] !== undefined) {
    const found = strictProblem(node['items'], [...context, 'items']);
    if (found !== undefined) return found;
  }
  for (const key of ['anyOf', 'allOf'] as const) {
    const list = node[key];
    if (Array.isArray(list))
      for (const [index, item] of list.entries()) {
        const found = strictProblem(item, [...context, key, String(index)]);
        if (found !== undefined) return found;
      }
  }
  const definitions = node['$defs'];
  if (isObject(definitions))
    for (const [key, value] of Object.entries(definitions)) {
      const found = strictProblem(value, [...context, '$defs', key]);
      if (found !== undefined) return found;
    }
  return undefined;
}

function unknownKeys(node: Node, allowed: readonly string[], param: string): FormatRefusal | undefined {
  const unknown = Object.keys(node).find((key) => !allowed.includes(key));
  return unknown === undefined
    ? undefined
    : { message: `Unknown parameter: '${param}.${unknown}'.`, param: `${param}.${unknown}` };
}
