import { UnexpectedResponseError } from '../../errors/unexpected-response-error.js';
import type { JsonObject, JsonValue, ReasoningPart, ToolCall } from '../../model/messages.js';
import type { FinishReason, ModelResponse } from '../../model/model-adapter.js';
import type { Usage } from '../../model/usage.js';
import { isRecord } from '../shared/normalize-usage.js';
import { parseJsonBody } from '../shared/parse-json-body.js';
import { originFields } from '../shared/parse-completion.js';
import type { ResponseOrigin } from '../shared/parse-completion.js';
import { anthropicDataKey } from './anthropic-turn-data.js';
import type { BlockKind } from './anthropic-turn-data.js';

/**
 * Parses the text of a 200 Messages answer into a `ModelResponse` (see {@link toModelResponse}).
 *
 * @throws {EmptyResponseError} when the body is blank; retryable.
 * @throws {UnexpectedResponseError} when the body is not a message.
 */
export function parseAnthropicBody(text: string, origin: ResponseOrigin): ModelResponse {
  const message = parseJsonBody(text, origin, 'the Messages API');
  if (!isRecord(message) || !Array.isArray(message['content'])) {
    throw new UnexpectedResponseError({
      ...originFields(origin),
      status: 200,
      rawOutput: message,
      message: `${origin.provider} answered 200 with something other than a message (no content array): ${JSON.stringify(message).slice(0, 200)}. Check baseURL points at the Messages API.`,
    });
  }
  return toModelResponse(message, origin);
}

/**
 * The `ModelResponse` of a Messages `message`. Thinking and redacted-thinking blocks become
 * reasoning parts (the thinking as `text`, the whole block in provider data), text blocks the
 * content, `tool_use` blocks tool calls (`arguments` = the input as JSON); the message's provider
 * data keeps its id, the order of its blocks, its text blocks whole and any other block whole.
 * A `tool_use` cut off by `max_tokens` keeps the partial JSON it got (`truncatedInputs`, by block
 * index, from a stream) or its input without the closing brace, so it fails to parse and the loop
 * answers it with a tool error instead of running it on partial input.
 */
export function toModelResponse(
  message: Readonly<Record<string, unknown>>,
  origin: ResponseOrigin,
  truncatedInputs: ReadonlyMap<number, string> = new Map(),
): ModelResponse {
  const content = (message['content'] as readonly unknown[]).filter(isRecord);
  const stopReason = typeof message['stop_reason'] === 'string' ? message['stop_reason'] : undefined;
  const reasoning: ReasoningPart[] = [];
  const toolCalls: ToolCall[] = [];
  const texts: JsonObject[] = [];
  const others: JsonObject[] = [];
  const order: BlockKind[] = [];
  let text = '';
  content.forEach((block, index) => {
    const whole = block as JsonObject;
    switch (block['type']) {
      case 'thinking': {
        const thinking = typeof block['thinking'] === 'string' ? block['thinking'] : '';
        reasoning.push({
          type: 'reasoning',
          ...(thinking === '' ? {} : { text: thinking }),
          providerData: { [anthropicDataKey]: whole },
        });
        order.push('thinking');
        break;
      }
      case 'redacted_thinking':
        reasoning.push({ type: 'reasoning', redacted: true, providerData: { [anthropicDataKey]: whole } });
        order.push('thinking');
        break;
      case 'text':
        texts.push(whole);
        text += typeof block['text'] === 'string' ? block['text'] : '';
        order.push('text');
        break;
      case 'tool_use': {
        const cutOff = stopReason === 'max_tokens' && index === content.length - 1;
        const input = JSON.stringify(block['input'] ?? {});
        toolCalls.push({
          id: typeof block['id'] === 'string' ? block['id'] : '',
          type: 'function',
          function: {
            name: typeof block['name'] === 'string' ? block['name'] : '',
            arguments: truncatedInputs.get(index) ?? (cutOff ? input.slice(0, -1) : input),
          },
        });
        order.push('tool_use');
        break;
      }
      default:
        others.push(whole);
        order.push('other');
    }
  });
  const turn: Record<string, JsonValue> = { order };
  if (typeof message['id'] === 'string') turn['id'] = message['id'];
  if (texts.length > 0) turn['texts'] = texts;
  if (others.length > 0) turn['others'] = others;
  const usage = anthropicUsage(message['usage']);
  const requestId = origin.requestId;
  return {
    content: text === '' ? null : text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(reasoning.length > 0 ? { reasoning } : {}),
    providerData: { [anthropicDataKey]: turn },
    finish_reason: finishReason(stopReason, toolCalls.length > 0),
    ...(usage === undefined ? {} : { usage }),
    ...(requestId === undefined || requestId === '' ? {} : { requestId }),
    ...(typeof message['model'] === 'string' ? { model: message['model'] } : {}),
  };
}

/**
 * Why Claude stopped, in the orchestrator's terms: `end_turn` and `stop_sequence` are `'stop'`,
 * `tool_use` `'tool_calls'`, `max_tokens` (and `model_context_window_exceeded`) `'length'`;
 * `refusal` and `pause_turn` keep their names (the loop ends a run on a refusal, and sends a paused
 * turn back so the server goes on).
 */
function finishReason(stopReason: string | undefined, hasToolCalls: boolean): FinishReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case undefined:
      return hasToolCalls ? 'tool_calls' : 'stop';
    default:
      return stopReason;
  }
}

/**
 * Normalises a Messages `usage` object: prompt tokens are `input_tokens` plus the cache reads
 * (`cache_read_input_tokens`, also `cachedPromptTokens`) and the cache writes
 * (`cache_creation_input_tokens`, also `cacheWriteTokens`). `undefined` when there is no usage.
 */
export function anthropicUsage(usage: unknown): Usage | undefined {
  if (!isRecord(usage)) return undefined;
  const read = count(usage['cache_read_input_tokens']);
  const written = count(usage['cache_creation_input_tokens']);
  const promptTokens = count(usage['input_tokens']) + read + written;
  const completionTokens = count(usage['output_tokens']);
  return {
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
    reasoningTokens: 0,
    cachedPromptTokens: read,
    cacheWriteTokens: written,
  };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
