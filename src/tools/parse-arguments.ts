import { describeThrown, describeValue, kindOf } from '../errors/describe-value.js';
import type { Tool } from './define-tool.js';
import { formatIssues } from './schema.js';
import type { ToolErrorCode } from './tool-call-outcome.js';

/** Parsed, validated arguments, or an error the model can act on. */
export type ParsedArguments =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly code: ToolErrorCode; readonly error: string };

const quoteLimit = 200;

function quote(text: string): string {
  return text.length > quoteLimit
    ? `${JSON.stringify(text.slice(0, quoteLimit))}... (${text.length} characters)`
    : JSON.stringify(text);
}

/**
 * The model-facing message for arguments that are not a string (an object, a number): the model
 * adapter broke its contract, so the call is answered with this instead of being run.
 */
export function argumentsTypeMessage(toolName: string, rawArguments: unknown): string {
  return `The arguments for tool "${toolName}" arrived as ${kindOf(rawArguments)} (${describeValue(rawArguments)}), not as a JSON string, so the call was not run (the model adapter broke its contract: function.arguments must be a string). Send the arguments again as one JSON object.`;
}

/**
 * Parses a tool call's JSON arguments and validates them against the tool's schema. `null` and
 * `undefined` count as empty; any other non-string is refused with `invalid_tool_call`.
 */
export function parseArguments(tool: Tool, rawArguments: unknown): ParsedArguments {
  const raw = rawArguments ?? '';
  if (typeof raw !== 'string') {
    return { ok: false, code: 'invalid_tool_call', error: argumentsTypeMessage(tool.name, raw) };
  }
  let value: unknown;
  if (raw.trim() === '') {
    if (!tool.schema.acceptsEmptyObject) {
      const required = tool.inputSchema['required'];
      return {
        ok: false,
        code: 'invalid_json',
        error: `The arguments for tool "${tool.name}" were empty, but it requires ${Array.isArray(required) ? required.map((name) => `"${String(name)}"`).join(', ') : 'arguments'}. Send a JSON object that matches its parameters.`,
      };
    }
    value = {};
  } else {
    try {
      value = JSON.parse(raw);
    } catch (error) {
      const reason = describeThrown(error);
      return {
        ok: false,
        code: 'invalid_json',
        error: `The arguments for tool "${tool.name}" are not valid JSON (${reason}): ${quote(raw)}. Send one complete JSON object that matches its parameters.`,
      };
    }
  }
  const validated = tool.schema.validate(value);
  if (validated.success) return { ok: true, value: validated.value };
  return {
    ok: false,
    code: 'invalid_arguments',
    error: `The arguments for tool "${tool.name}" do not match its parameters:\n${formatIssues(validated.issues)}\nFix these and call it again.`,
  };
}
