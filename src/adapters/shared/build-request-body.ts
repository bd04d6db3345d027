import type { ChatMessage } from '../../model/messages.js';
import type { ModelToolDefinition, ResponseFormat, ToolChoice } from '../../model/model-adapter.js';
import type { ChatCompletionsAdapterOptions } from './chat-completions-options.js';
import { toStrictResponseSchema } from './response-format.js';
import { toStrictSchema } from './strict-schema.js';
import { toWireContent } from './wire-content.js';
import type { AcceptedParts } from './wire-content.js';

/**
 * Which earlier assistant messages carry `reasoning_content` in a request: every one
 * (`'all'`, `""` when a message had none), only those that made tool calls (`'tool_turns'`),
 * or none (`'none'`, the field is stripped).
 */
export type ReasoningReplay = 'all' | 'tool_turns' | 'none';

/** What {@link buildRequestBody} takes. */
export interface RequestBodyInput {
  readonly options: ChatCompletionsAdapterOptions;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ModelToolDefinition[];
  readonly toolChoice: ToolChoice | undefined;
  /**
   * A call's response format, sent as `response_format` (`json_schema`) in place of the
   * adapter's `responseFormat` option. Checked by the caller.
   */
  readonly responseFormat?: ResponseFormat | undefined;
  readonly reasoningReplay: ReasoningReplay;
  /** The adapter's `providerDataKey`: only data under it is sent back. */
  readonly providerDataKey: string;
  /** Provider fields such as DeepSeek's `thinking`, sent before `extraBody`. */
  readonly providerFields?: Readonly<Record<string, unknown>>;
  readonly stream: boolean;
  /** The content parts the server takes in user and tool messages. */
  readonly acceptedParts: AcceptedParts;
  /** The adapter's provider, named in errors. */
  readonly provider: string;
}

/** Builds a Chat Completions request body; parameters the caller did not set are not sent. */
export function buildRequestBody(input: RequestBodyInput): Record<string, unknown> {
  const { options, tools } = input;
  const hasTools = tools.length > 0;
  const body: Record<string, unknown> = {
    model: options.model,
    messages: input.messages.map((message, index) => toWireMessage(message, index, input)),
  };
  if (hasTools) body['tools'] = tools.map((tool) => toWireTool(tool, options.strictTools ?? false));
  // OpenAI rejects tool_choice and parallel_tool_calls in a request without tools.
  if (hasTools && input.toolChoice !== undefined) body['tool_choice'] = input.toolChoice;
  if (hasTools && options.parallelToolCalls !== undefined)
    body['parallel_tool_calls'] = options.parallelToolCalls;
  const sampling: Record<string, unknown> = {
    response_format:
      input.responseFormat === undefined
        ? options.responseFormat
        : toWireResponseFormat(input.responseFormat),
    temperature: options.temperature,
    top_p: options.topP,
    max_tokens: options.maxTokens,
    max_completion_tokens: options.maxCompletionTokens,
    presence_penalty: options.presencePenalty,
    frequency_penalty: options.frequencyPenalty,
    stop: options.stop,
    seed: options.seed,
  };
  for (const [key, value] of Object.entries(sampling)) if (value !== undefined) body[key] = value;
  Object.assign(body, input.providerFields, options.extraBody);
  if (input.stream) {
    body['stream'] = true;
    body['stream_options'] = { include_usage: true };
  }
  return body;
}

function toWireMessage(
  message: ChatMessage,
  index: number,
  input: RequestBodyInput,
): Record<string, unknown> {
  const { reasoningReplay: replay, providerDataKey } = input;
  if (message.role === 'user' || message.role === 'tool') {
    const place = {
      role: message.role,
      index,
      accepted: input.acceptedParts,
      provider: input.provider,
      ...(message.role === 'tool' ? { toolCallId: message.tool_call_id } : {}),
    };
    return { ...message, content: toWireContent(message.content, place) };
  }
  if (message.role !== 'assistant') return { ...message };
  // `reasoning` and `providerData` are the transcript's, never wire fields: only this adapter's
  // own provider data goes back, as the fields the server sent.
  const {
    reasoning_content: reasoningContent,
    tool_calls: toolCalls,
    reasoning: _reasoning,
    providerData,
    ...rest
  } = message;
  const wire: Record<string, unknown> = { ...providerData?.[providerDataKey], ...rest };
  const hasToolCalls = toolCalls !== undefined && toolCalls.length > 0;
  // An empty tool_calls array is a 400 on OpenAI.
  if (hasToolCalls) {
    wire['tool_calls'] = toolCalls.map((toolCall) => ({
      ...toolCall.providerData?.[providerDataKey],
      id: toolCall.id,
      type: 'function',
      function: { name: toolCall.function.name, arguments: toolCall.function.arguments },
    }));
  }
  if (replay === 'all' || (replay === 'tool_turns' && hasToolCalls))
    wire['reasoning_content'] = reasoningContent ?? '';
  return wire;
}

/** Chat Completions' `json_schema` response format; a strict one has its schema made strict. */
function toWireResponseFormat(format: ResponseFormat): Record<string, unknown> {
  const strict = format.strict ?? false;
  return {
    type: 'json_schema',
    json_schema: {
      name: format.name,
      ...(format.description === undefined ? {} : { description: format.description }),
      schema: strict ? toStrictResponseSchema(format) : format.schema,
      strict,
    },
  };
}

function toWireTool(tool: ModelToolDefinition, strictByDefault: boolean): Record<string, unknown> {
  const strict = tool.function.strict ?? strictByDefault;
  const { name, description, parameters } = tool.function;
  return {
    type: 'function',
    function: strict
      ? { name, description, parameters: toStrictSchema(name, parameters), strict: true }
      : { name, description, parameters },
  };
}
