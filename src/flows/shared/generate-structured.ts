import type { ZodType } from 'zod';
import type { ChatMessage } from '../../model/messages.js';
import type { ModelAdapter, ModelResponse, ModelToolDefinition } from '../../model/model-adapter.js';
import { compileSchema, formatIssues } from '../../tools/schema.js';
import type { SchemaIssue } from '../../tools/schema.js';
import type { TraceEmitter } from '../../tracing/trace-events.js';
import { StructuredOutputError } from '../../errors/structured-output-error.js';
import { parseJsonOutput } from '../../orchestrator/output/parse-json-output.js';
import type { ParseJsonOutputOptions } from '../../orchestrator/output/parse-json-output.js';
import { tracedModelCall } from './traced-model-call.js';
import type { TracedModelCallOptions } from './traced-model-call.js';

/**
 * How the adapter was set up for structured output. The flows add nothing to `ModelAdapter`:
 * the JSON Schema always goes into the prompt and the output is always validated with zod.
 * - `'json_schema'`: the caller passes an adapter built with `responseFormat: { type: 'json_schema', ... }`.
 * - `'json_object'`: the adapter was built with `responseFormat: { type: 'json_object' }` (JSON mode).
 * - `'none'`: plain text; prose around the JSON object is tolerated and cut away.
 */
export type StructuredOutputMode = 'json_schema' | 'json_object' | 'none';

/** Options of {@link generateStructured}. */
export interface GenerateStructuredOptions<Value> {
  readonly adapter: ModelAdapter;
  /** The conversation; the last message should ask for the JSON answer. */
  readonly messages: readonly ChatMessage[];
  readonly schema: ZodType<Value>;
  /** Names the schema in prompts and errors, e.g. `'ExplorationResponse'`. */
  readonly schemaName: string;
  /** Make one repair call showing the model its validation errors. @default true */
  readonly repair?: boolean;
  /** @default 'json_object' */
  readonly structuredOutput?: StructuredOutputMode;
  /** How fences are treated. @default { allowFence: true } */
  readonly parse?: ParseJsonOutputOptions;
  /**
   * Receives the trace of every model call made here (the first call and the repair call): each
   * runs through a `ToolOrchestrator` with no tools, as a run of its own with `run_start`,
   * `llm_call` and `run_end`.
   */
  readonly traceEmitter?: TraceEmitter;
  /** Stamped on those events: the run these calls belong to. */
  readonly parentRunId?: string;
  readonly signal?: AbortSignal;
}

/** What {@link generateStructured} resolves to. */
export interface StructuredResult<Value> {
  readonly value: Value;
  /** The raw responses: one, or two when a repair call was made. */
  readonly responses: readonly ModelResponse[];
  readonly repaired: boolean;
}

/** The JSON Schema of a zod schema, as shown to the model. */
export function jsonSchemaOf(schema: ZodType): unknown {
  return compileSchema(schema).jsonSchema;
}

/** Validates a value against a zod schema. */
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

/** Options of {@link readStructured}: a response already in hand, checked and repaired if needed. */
export interface ReadStructuredOptions<Value> extends GenerateStructuredOptions<Value> {
  /** The model's answer to `messages`. */
  readonly response: ModelResponse;
  /** Tools to send (with `toolChoice: 'none'`) on the repair call, when `messages` hold tool calls. */
  readonly tools?: readonly ModelToolDefinition[];
}

/**
 * Asks the model for JSON matching `schema` without tools, validates it with zod and, when it
 * fails and `repair` is on, makes one repair call that shows the model its errors. Both calls
 * are traced into `traceEmitter`.
 *
 * @throws {StructuredOutputError} when the output is still invalid.
 */
export async function generateStructured<Value>(
  options: GenerateStructuredOptions<Value>,
): Promise<StructuredResult<Value>> {
  const response = await tracedModelCall(tracedCallOptions(options, options.messages, []));
  return readStructured({ ...options, response });
}

/**
 * Validates a response that answers `messages`; when it fails and `repair` is on, makes one
 * repair call showing the model the validation errors, traced into `traceEmitter`.
 *
 * @throws {StructuredOutputError} when the output is still invalid.
 */
export async function readStructured<Value>(
  options: ReadStructuredOptions<Value>,
): Promise<StructuredResult<Value>> {
  const parse = options.parse ?? { allowProse: options.structuredOutput === 'none' };
  const check = (response: ModelResponse) => {
    const parsed = parseJsonOutput(response.content, parse);
    if (!parsed.ok) return { ok: false as const, issues: [{ path: [], message: parsed.error }] };
    return validateWith(options.schema, parsed.value);
  };
  const first = options.response;
  const firstCheck = check(first);
  if (firstCheck.ok) return { value: firstCheck.value, responses: [first], repaired: false };
  if (options.repair === false) {
    throw new StructuredOutputError({
      schemaName: options.schemaName,
      rawOutput: first.content ?? '',
      issues: firstCheck.issues,
      attempts: 1,
    });
  }
  const repairMessages: ChatMessage[] = [
    ...options.messages,
    { role: 'assistant', content: first.content ?? '' },
    {
      role: 'user',
      content:
        `Your answer is not a valid ${options.schemaName}. Problems:\n${formatIssues(firstCheck.issues)}\n` +
        'Answer again with only the corrected JSON object: no Markdown fence, no text before or after it.',
    },
  ];
  const second = await tracedModelCall(tracedCallOptions(options, repairMessages, options.tools ?? []));
  const secondCheck = check(second);
  if (secondCheck.ok) return { value: secondCheck.value, responses: [first, second], repaired: true };
  throw new StructuredOutputError({
    schemaName: options.schemaName,
    rawOutput: second.content ?? '',
    issues: secondCheck.issues,
    attempts: 2,
  });
}

function tracedCallOptions(
  options: GenerateStructuredOptions<unknown>,
  messages: readonly ChatMessage[],
  tools: readonly ModelToolDefinition[],
): TracedModelCallOptions {
  return {
    adapter: options.adapter,
    messages,
    tools,
    ...(options.traceEmitter === undefined ? {} : { traceEmitter: options.traceEmitter }),
    ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
}
