import { toJSONSchema } from 'zod/v4/core';
import type { $ZodType } from 'zod/v4/core';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { Validator } from '@cfworker/json-schema';
import type { JsonSchema } from '../model/model-adapter.js';
import type { SchemaIssue } from './schema-issue.js';

export type { SchemaIssue } from './schema-issue.js';
export { formatIssues, issueText } from './schema-issue.js';

/** The outcome of validating tool arguments. */
export type ValidationOutcome<T> =
  | { readonly success: true; readonly value: T }
  | { readonly success: false; readonly issues: readonly SchemaIssue[] };

/** A schema the library can validate with and show to a model. */
export interface CompiledSchema<T> {
  readonly jsonSchema: JsonSchema;
  /** True when the schema has no required root property, so empty arguments mean `{}`. */
  readonly acceptsEmptyObject: boolean;
  validate(value: unknown): ValidationOutcome<T>;
}

/** Zod 3 and zod 4 schemas, told apart at run time. */
interface ZodLike {
  safeParse(
    value: unknown,
  ): { success: true; data: unknown } | { success: false; error: { issues: ZodIssueLike[] } };
}
interface ZodIssueLike {
  path: PropertyKey[];
  message: string;
}

/** True for a zod 3 or zod 4 schema. */
export function isZodSchema(value: unknown): value is ZodLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { safeParse?: unknown }).safeParse === 'function' &&
    ('_zod' in value || '_def' in value)
  );
}

/** Converts a zod 3 or zod 4 schema to JSON Schema (input side, no `$schema` key). */
export function zodToJson(schema: ZodLike): JsonSchema {
  let json: Record<string, unknown>;
  if ('_zod' in schema) {
    json = toJSONSchema(schema as unknown as $ZodType, { io: 'input', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
  } else {
    json = zodToJsonSchema(schema as never, { $refStrategy: 'none', target: 'jsonSchema7' }) as Record<
      string,
      unknown
    >;
  }
  const { $schema: _ignored, ...rest } = json;
  return rest;
}

/** Compiles a zod schema or a plain JSON Schema object into a validator plus its JSON form. */
export function compileSchema<T>(parameters: unknown): CompiledSchema<T> {
  if (isZodSchema(parameters)) {
    const jsonSchema = zodToJson(parameters);
    return {
      jsonSchema,
      acceptsEmptyObject: acceptsEmpty(jsonSchema),
      validate(value) {
        const parsed = parameters.safeParse(value);
        if (parsed.success) return { success: true, value: parsed.data as T };
        return {
          success: false,
          issues: parsed.error.issues.map((issue) => ({
            path: issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key)),
            message: issue.message,
          })),
        };
      },
    };
  }
  const jsonSchema = parameters as JsonSchema;
  const validator = new Validator(jsonSchema as never, '2020-12', false);
  return {
    jsonSchema,
    acceptsEmptyObject: acceptsEmpty(jsonSchema),
    validate(value) {
      const result = validator.validate(value);
      if (result.valid) return { success: true, value: value as T };
      // cfworker reports a summary unit per failing parent too; keep the leaf-most messages.
      const issues = result.errors
        .filter((unit) => !/^(properties|items|allOf|anyOf|oneOf|\$ref|prefixItems)$/.test(unit.keyword))
        .map((unit) => ({ path: pointerToPath(unit.instanceLocation), message: unit.error }));
      return {
        success: false,
        issues:
          issues.length > 0
            ? issues
            : result.errors.map((unit) => ({
                path: pointerToPath(unit.instanceLocation),
                message: unit.error,
              })),
      };
    },
  };
}

function acceptsEmpty(schema: JsonSchema): boolean {
  const required = schema['required'];
  return !Array.isArray(required) || required.length === 0;
}

function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === '#' || pointer === '' || pointer === '#/') return [];
  return pointer
    .replace(/^#?\//, '')
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}
