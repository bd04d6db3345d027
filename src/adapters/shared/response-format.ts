import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { JsonSchema, ResponseFormat } from '../../model/model-adapter.js';
import { convertToStrict } from './strict-schema.js';

const namePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Checks a call's `responseFormat` before any request: a `name` of letters, digits, `_` and `-`
 * (at most 64), and a `schema` that is a JSON Schema object.
 *
 * @throws {InvalidArgumentError} naming the bad value and what it must be.
 */
export function checkResponseFormat(format: ResponseFormat): void {
  const value: unknown = format;
  if (typeof value !== 'object' || value === null || format.type !== 'json_schema') {
    throw new InvalidArgumentError({
      argument: 'responseFormat',
      value,
      message: "must be { type: 'json_schema', name, schema }.",
    });
  }
  const name: unknown = format.name;
  if (typeof name !== 'string' || !namePattern.test(name)) {
    throw new InvalidArgumentError({
      argument: 'responseFormat.name',
      value: name,
      message:
        'must be 1 to 64 letters, digits, underscores or dashes (providers refuse other names), e.g. "weather_report".',
    });
  }
  const schema: unknown = format.schema;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new InvalidArgumentError({
      argument: 'responseFormat.schema',
      value: schema,
      message:
        "must be a JSON Schema object, e.g. { type: 'object', properties: { answer: { type: 'string' } } }.",
    });
  }
  for (const field of ['description', 'strict'] as const) {
    const fieldValue: unknown = format[field];
    const expected = field === 'description' ? 'string' : 'boolean';
    if (fieldValue !== undefined && typeof fieldValue !== expected) {
      throw new InvalidArgumentError({
        argument: `responseFormat.${field}`,
        value: fieldValue,
        message: field === 'description' ? 'must be a string.' : 'must be true or false.',
      });
    }
  }
}

/**
 * The response format's schema in OpenAI's strict form (`additionalProperties: false` and every
 * property required, optional ones made nullable), as strict tools are converted.
 *
 * @throws {InvalidArgumentError} when the schema cannot be made strict, naming where and the fix.
 */
export function toStrictResponseSchema(format: ResponseFormat): JsonSchema {
  return convertToStrict(format.schema, 'make the answer an object', (path, problem, fix) => {
    throw new InvalidArgumentError({
      argument: 'responseFormat.schema',
      value: format.schema,
      message: `cannot be made strict: at "${path === '' ? '/' : path}", ${problem}. Either ${fix}, or send the response format with strict: false.`,
    });
  });
}

/**
 * Reads the `nativeStructuredOutput` option every adapter with native structured output takes.
 *
 * @throws {InvalidArgumentError} when it is neither `true`, `false` nor `undefined`.
 */
export function nativeStructuredOutputOption(options: {
  readonly nativeStructuredOutput?: boolean;
}): boolean | undefined {
  const value: unknown = options.nativeStructuredOutput;
  if (value !== undefined && typeof value !== 'boolean') {
    throw new InvalidArgumentError({
      argument: 'nativeStructuredOutput',
      value,
      message:
        'must be true or false: false turns native structured output off (the orchestrator then asks for a typed output through a final-answer tool).',
    });
  }
  return value;
}
