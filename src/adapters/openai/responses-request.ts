import type { ChatMessage } from '../../model/messages.js';
import type { ModelToolDefinition, ResponseFormat, ToolChoice } from '../../model/model-adapter.js';
import { toStrictResponseSchema } from '../shared/response-format.js';
import { toStrictSchema } from '../shared/strict-schema.js';
import { toResponsesInput } from './responses-input.js';
import type { OpenAIResponsesAdapterOptions } from './responses-options.js';

/** What {@link buildResponsesBody} takes. */
export interface ResponsesBodyInput {
  readonly options: OpenAIResponsesAdapterOptions;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ModelToolDefinition[];
  readonly toolChoice: ToolChoice | undefined;
  /** A call's response format, sent as `text.format` (`json_schema`); checked by the caller. */
  readonly responseFormat?: ResponseFormat | undefined;
  readonly stream: boolean;
}

/**
 * Builds a `responses.create` body; parameters the caller did not set are not sent. With `store:
 * false` (the default) it asks for `include: ['reasoning.encrypted_content']`, so every reasoning
 * item can be sent back whole. A response format goes in `text.format`, beside the `text` option's
 * `verbosity`.
 */
export function buildResponsesBody(request: ResponsesBodyInput): Record<string, unknown> {
  const { options, tools } = request;
  const store = options.store ?? false;
  const { input, previousResponseId } = toResponsesInput(request.messages, {
    store,
    chain: store && options.previousResponseId === true,
  });
  const body: Record<string, unknown> = { model: options.model, input, store };
  if (previousResponseId !== undefined) body['previous_response_id'] = previousResponseId;
  if (!store) body['include'] = ['reasoning.encrypted_content'];
  const hasTools = tools.length > 0;
  if (hasTools) body['tools'] = tools.map((tool) => toResponsesTool(tool, options.strictTools ?? false));
  // Like Chat Completions, a request without tools takes neither a tool choice nor parallel_tool_calls.
  if (hasTools && request.toolChoice !== undefined)
    body['tool_choice'] = toResponsesToolChoice(request.toolChoice);
  if (hasTools && options.parallelToolCalls !== undefined)
    body['parallel_tool_calls'] = options.parallelToolCalls;
  const fields: Record<string, unknown> = {
    reasoning: options.reasoning,
    text:
      request.responseFormat === undefined
        ? options.text
        : { ...options.text, format: toTextFormat(request.responseFormat) },
    max_output_tokens: options.maxOutputTokens,
    prompt_cache_key: options.promptCacheKey,
    service_tier: options.serviceTier,
  };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) body[key] = value;
  Object.assign(body, options.extraBody);
  if (request.stream) body['stream'] = true;
  return body;
}

/** A Responses function tool: flat, and `strict: false` said outright, since Responses defaults to strict. */
function toResponsesTool(tool: ModelToolDefinition, strictByDefault: boolean): Record<string, unknown> {
  const strict = tool.function.strict ?? strictByDefault;
  const { name, description, parameters } = tool.function;
  return {
    type: 'function',
    name,
    description,
    parameters: strict ? toStrictSchema(name, parameters) : parameters,
    strict,
  };
}

/** Responses' `text.format` for a JSON Schema: flat, its schema made strict when it asks for `strict: true`. */
function toTextFormat(format: ResponseFormat): Record<string, unknown> {
  const strict = format.strict ?? false;
  return {
    type: 'json_schema',
    name: format.name,
    ...(format.description === undefined ? {} : { description: format.description }),
    schema: strict ? toStrictResponseSchema(format) : format.schema,
    strict,
  };
}

/** Chat Completions' `{ type: 'function', function: { name } }` is Responses' `{ type: 'function', name }`. */
function toResponsesToolChoice(choice: ToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.function.name };
}
