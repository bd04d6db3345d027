import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { JsonObject } from '../../model/messages.js';
import type { ModelToolDefinition, ToolChoice } from '../../model/model-adapter.js';

/**
 * JSON Schema keywords Gemini's `parametersJsonSchema` refuses or ignores; a schema holding one is
 * refused before any request, naming the tool and where the keyword is.
 */
const unsupportedKeywords = [
  'not',
  'if',
  'then',
  'else',
  'prefixItems',
  'dependentSchemas',
  'unevaluatedProperties',
];

/**
 * The `functionDeclarations` of the tools: `name`, `description` and the tool's JSON Schema as
 * `parametersJsonSchema` (which takes JSON Schema, `$ref`, `anyOf` and `additionalProperties`
 * included), without its `$schema` keyword.
 *
 * @throws {InvalidArgumentError} naming the tool and the construct, for a schema that is not an
 * object schema or that uses a keyword Gemini cannot express.
 */
export function toFunctionDeclarations(tools: readonly ModelToolDefinition[]): JsonObject[] {
  return tools.map((tool) => {
    const { name, description, parameters } = tool.function;
    if (parameters['type'] !== 'object') {
      throw new InvalidArgumentError({
        argument: `tools.${name}.parameters`,
        value: parameters,
        message:
          "must be an object schema ({ type: 'object', properties: ... }): Gemini passes a tool's arguments as one object. Wrap the value in a property.",
      });
    }
    const problem = findUnsupported(parameters, '');
    if (problem !== undefined) {
      throw new InvalidArgumentError({
        argument: `tools.${name}.parameters${problem.path}`,
        value: problem.value,
        message: `uses the JSON Schema keyword '${problem.keyword}', which Gemini's function declarations cannot express. Rewrite the tool's schema without it (a union with anyOf, or a description).`,
      });
    }
    const { $schema: _ignored, ...schema } = parameters;
    return { name, description, parametersJsonSchema: schema as JsonObject };
  });
}

function findUnsupported(
  schema: unknown,
  path: string,
): { keyword: string; path: string; value: unknown } | undefined {
  if (Array.isArray(schema)) {
    for (const [index, item] of schema.entries()) {
      const found = findUnsupported(item, `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof schema !== 'object' || schema === null) return undefined;
  for (const [key, value] of Object.entries(schema)) {
    // Property names are the tool's own, not keywords.
    if (unsupportedKeywords.includes(key) && !path.endsWith('.properties'))
      return { keyword: key, path: `${path}.${key}`, value };
    const found = findUnsupported(value, `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * `toolConfig.functionCallingConfig` for a tool choice: `auto` → `AUTO`, `none` → `NONE`,
 * `required` → `ANY`, a named tool → `ANY` with `allowedFunctionNames`.
 */
export function toToolConfig(choice: ToolChoice | undefined): JsonObject | undefined {
  if (choice === undefined) return undefined;
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } };
}
