import type { ZodType } from 'zod';
import { compileSchema } from '../../tools/schema.js';
import type { SchemaIssue } from '../../tools/schema.js';

/** The JSON Schema of a zod schema, as shown to the model. */
export function jsonSchemaOf(schema: ZodType): unknown {
  return compileSchema(schema).jsonSchema;
}

/** Validates a value against a zod schema, turning zod's issues into {@link SchemaIssue}s. */
export function validateWith<Value>(
  schema: ZodType<Value>,
  value: unknown,
): { ok: true; value: Value } | { ok: false; issues: SchemaIssue[] } {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    issues: result.error.issues.map((issue) => ({
      path: issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key)),
      message: issue.message,
    })),
  };
}
