import type { ChatMessage, JsonObject } from '../../model/messages.js';
import type { JsonSchema, ModelToolDefinition, ModelWarning, ToolChoice } from '../../model/model-adapter.js';
import { addCacheBreakpoints } from './anthropic-cache.js';
import { toAnthropicTranscript } from './anthropic-messages.js';
import type { AnthropicAdapterOptions } from './anthropic-options.js';

/** What {@link buildAnthropicBody} takes. */
export interface AnthropicBodyInput {
  readonly options: AnthropicAdapterOptions;
  readonly maxTokens: number;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ModelToolDefinition[];
  readonly toolChoice: ToolChoice | undefined;
  /** A call's response format as `output_config.format` (see `toAnthropicOutputFormat`). */
  readonly outputFormat?: JsonSchema | undefined;
  readonly stream: boolean;
  /** Told what the body changed so the API would take it (`tool_choice_with_thinking`). */
  readonly warn: (warning: ModelWarning) => void;
}

/**
 * Builds a `messages.create` body: `model`, `max_tokens`, `system`, `messages`, `tools`,
 * `tool_choice`, `thinking` and `output_config.format` (merged into an `output_config` of
 * `extraBody`), with prompt-caching breakpoints unless `cache: false`. With
 * thinking on, a forced tool choice (`required`, a named tool) is sent as `auto`, which the API
 * requires, and `warn` is told.
 *
 * @throws {InvalidArgumentError} for an image or file Claude cannot read.
 */
export function buildAnthropicBody(request: AnthropicBodyInput): Record<string, unknown> {
  const { options } = request;
  const { system, messages } = toAnthropicTranscript(request.messages);
  const eager = options.eagerInputStreaming;
  const tools = request.tools.map((tool): JsonObject => {
    const { name, description, parameters } = tool.function;
    const eagerTool = eager === true || (Array.isArray(eager) && eager.includes(name));
    return {
      name,
      description,
      input_schema: parameters as JsonObject,
      ...(eagerTool ? { eager_input_streaming: true } : {}),
    };
  });
  if (options.cache !== false) {
    const ttl = options.cache?.ttl;
    addCacheBreakpoints(
      { tools, system, messages },
      ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl },
    );
  }
  const body: Record<string, unknown> = { model: options.model, max_tokens: request.maxTokens };
  if (system.length > 0) body['system'] = system;
  body['messages'] = messages;
  if (tools.length > 0) {
    body['tools'] = tools;
    const choice = toolChoice(request);
    if (choice !== undefined) body['tool_choice'] = choice;
  }
  const thinking = options.thinking;
  if (thinking === 'disabled') body['thinking'] = { type: 'disabled' };
  else if (thinking?.type === 'enabled')
    body['thinking'] = { type: 'enabled', budget_tokens: thinking.budgetTokens };
  else if (thinking?.type === 'adaptive') body['thinking'] = { type: 'adaptive' };
  if (options.temperature !== undefined) body['temperature'] = options.temperature;
  Object.assign(body, options.extraBody);
  if (request.outputFormat !== undefined) {
    const extra = body['output_config'];
    const config = typeof extra === 'object' && extra !== null && !Array.isArray(extra) ? extra : {};
    body['output_config'] = { ...config, format: request.outputFormat };
  }
  if (request.stream) body['stream'] = true;
  return body;
}

/**
 * `tool_choice`: `auto`, `none`, `any` (for `required`) or `tool` (a named tool), with
 * `disable_parallel_tool_use` when `parallelToolCalls` is false. Thinking allows only `auto` and `none`.
 */
function toolChoice(request: AnthropicBodyInput): JsonObject | undefined {
  const { options } = request;
  let choice = request.toolChoice;
  const thinkingOn = options.thinking !== undefined && options.thinking !== 'disabled';
  if (thinkingOn && choice !== undefined && choice !== 'auto' && choice !== 'none') {
    request.warn({
      code: 'tool_choice_with_thinking',
      message: `tool_choice ${JSON.stringify(choice)} was sent as 'auto': with thinking on, Claude takes only 'auto' or 'none', and may answer without calling the tool. Turn thinking off to force a tool.`,
    });
    choice = 'auto';
  }
  const parallel = options.parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined)
    return options.parallelToolCalls === false ? { type: 'auto', ...parallel } : undefined;
  if (choice === 'none') return { type: 'none' };
  if (choice === 'auto') return { type: 'auto', ...parallel };
  if (choice === 'required') return { type: 'any', ...parallel };
  return { type: 'tool', name: choice.function.name, ...parallel };
}
