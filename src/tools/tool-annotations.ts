import { describeValue, kindOf } from '../errors/describe-value.js';
import { ToolDefinitionError } from '../errors/tool-definition-error.js';

/**
 * Hints about what a tool does, in the shape of MCP's `ToolAnnotations`: every MCP server built
 * from the tool publishes them, and hosts use them to decide what to confirm with a person. They
 * are hints, not guarantees: a client must not trust them from a server it does not trust.
 */
export interface ToolAnnotations {
  /** A human-readable name for the tool, e.g. `'Read file'`. */
  readonly title?: string;
  /** The tool does not change its environment. @default false */
  readonly readOnlyHint?: boolean;
  /** The tool may destroy or overwrite data (meaningful when it is not read-only). @default true */
  readonly destructiveHint?: boolean;
  /** Calling it again with the same arguments has no further effect (when it is not read-only). @default false */
  readonly idempotentHint?: boolean;
  /** The tool reaches an open world (the web, other people) rather than a closed domain. @default true */
  readonly openWorldHint?: boolean;
}

const hintKeys = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
const annotationKeys: readonly string[] = ['title', ...hintKeys];

/**
 * Checks `defineTool`'s `annotations` and returns a frozen copy.
 *
 * @throws {ToolDefinitionError} when they are not a plain object, name a key MCP does not define,
 * or hold a hint that is not a boolean or a title that is not a string.
 */
export function checkToolAnnotations(toolName: string, value: unknown): ToolAnnotations {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ToolDefinitionError({
      toolName,
      message: `annotations must be an object such as { readOnlyHint: true }; got ${kindOf(value)}.`,
    });
  }
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !annotationKeys.includes(key));
  if (unknown.length > 0) {
    throw new ToolDefinitionError({
      toolName,
      message: `annotations.${unknown[0]} is not a tool annotation; use ${annotationKeys.join(', ')} (MCP's ToolAnnotations).`,
    });
  }
  const checked: { -readonly [Key in keyof ToolAnnotations]: ToolAnnotations[Key] } = {};
  const title = record['title'];
  if (title !== undefined) {
    if (typeof title !== 'string') {
      throw new ToolDefinitionError({
        toolName,
        message: `annotations.title must be a string; got ${describeValue(title)}.`,
      });
    }
    checked.title = title;
  }
  for (const key of hintKeys) {
    const hint = record[key];
    if (hint === undefined) continue;
    if (typeof hint !== 'boolean') {
      throw new ToolDefinitionError({
        toolName,
        message: `annotations.${key} must be true or false; got ${describeValue(hint)}.`,
      });
    }
    checked[key] = hint;
  }
  return Object.freeze(checked);
}
