import type { ModelProviderError } from '../../errors/model-provider-error.js';
import { RateLimitError } from '../../errors/rate-limit-error.js';
import { ServerError } from '../../errors/server-error.js';
import { UnexpectedResponseError } from '../../errors/unexpected-response-error.js';
import type { JsonObject, ReasoningPart, ToolCall } from '../../model/messages.js';
import type { FinishReason, ModelResponse } from '../../model/model-adapter.js';
import type { Usage } from '../../model/usage.js';
import { isRecord } from '../shared/normalize-usage.js';
import { parseJsonBody } from '../shared/parse-json-body.js';
import { originFields } from '../shared/parse-completion.js';
import type { ResponseOrigin } from '../shared/parse-completion.js';
import { outputText, responsesDataKey } from './responses-input.js';
import type { OutputItemKind } from './responses-input.js';

/**
 * Parses the text of a 200 `responses.create` answer into a `ModelResponse`.
 *
 * @throws {EmptyResponseError} when the body is blank; retryable.
 * @throws {UnexpectedResponseError} when the body is not a response.
 * @throws {ServerError} / {RateLimitError} when the response failed on OpenAI's side; retryable.
 */
export function parseResponsesBody(text: string, origin: ResponseOrigin): ModelResponse {
  const response = parseJsonBody(text, origin, 'a Responses API');
  if (!isRecord(response) || !Array.isArray(response['output'])) {
    throw new UnexpectedResponseError({
      ...originFields(origin),
      status: 200,
      rawOutput: response,
      message: `${origin.provider} answered 200 with something other than a response (no output array): ${JSON.stringify(response).slice(0, 200)}. Check baseURL points at a Responses API.`,
    });
  }
  return toModelResponse(response, response['output'], origin);
}

/**
 * The `ModelResponse` of a Responses `response` object whose output items are `output` (from the
 * object, or taken whole from a stream's `response.output_item.done` events). Reasoning items
 * become reasoning parts (their summary as `text`, the whole item in provider data), message items
 * the content, `function_call` items tool calls (OpenAI's item id kept with each); the message's
 * provider data keeps the response id, the order of the items and the message items whole.
 *
 * @throws {ServerError} / {RateLimitError} / {UnexpectedResponseError} when the response failed.
 */
export function toModelResponse(
  response: Readonly<Record<string, unknown>>,
  output: readonly unknown[],
  origin: ResponseOrigin,
): ModelResponse {
  if (response['status'] === 'failed' || isRecord(response['error'])) {
    throw failedResponseError(response['error'], origin, response);
  }
  const reasoning: ReasoningPart[] = [];
  const toolCalls: ToolCall[] = [];
  const messages: JsonObject[] = [];
  const order: OutputItemKind[] = [];
  for (const item of output) {
    if (!isRecord(item)) continue;
    const whole = item as JsonObject;
    if (item['type'] === 'reasoning') {
      const text = reasoningText(item);
      reasoning.push({
        type: 'reasoning',
        ...(text === '' ? {} : { text }),
        providerData: { [responsesDataKey]: whole },
      });
      order.push('reasoning');
    } else if (item['type'] === 'message') {
      messages.push(whole);
      order.push('message');
    } else if (item['type'] === 'function_call') {
      const { type: _type, call_id: callId, name, arguments: callArguments, ...rest } = whole;
      toolCalls.push({
        id: typeof callId === 'string' ? callId : '',
        type: 'function',
        function: {
          name: typeof name === 'string' ? name : '',
          arguments: typeof callArguments === 'string' ? callArguments : JSON.stringify(callArguments ?? {}),
        },
        ...(Object.keys(rest).length === 0 ? {} : { providerData: { [responsesDataKey]: rest } }),
      });
      order.push('function_call');
    }
  }
  const content = messages.map(outputText).join('');
  const usage = responsesUsage(response['usage']);
  const requestId = origin.requestId;
  const turn: Record<string, JsonObject[keyof JsonObject]> = { order };
  if (typeof response['id'] === 'string') turn['responseId'] = response['id'];
  if (messages.length > 0) turn['messages'] = messages;
  return {
    content: content === '' ? null : content,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(reasoning.length > 0 ? { reasoning } : {}),
    providerData: { [responsesDataKey]: turn },
    finish_reason: finishReason(response, toolCalls.length > 0),
    ...(usage === undefined ? {} : { usage }),
    ...(requestId === undefined || requestId === '' ? {} : { requestId }),
    ...(typeof response['model'] === 'string' ? { model: response['model'] } : {}),
  };
}

/** The typed error of a response that failed on OpenAI's side (`status: 'failed'`, or `response.failed` mid-stream). */
export function failedResponseError(
  error: unknown,
  origin: ResponseOrigin,
  rawOutput: unknown,
): ModelProviderError {
  const body = isRecord(error) ? error : {};
  const code = typeof body['code'] === 'string' ? body['code'] : undefined;
  const said = typeof body['message'] === 'string' ? body['message'] : JSON.stringify(error ?? null);
  const details = {
    ...originFields(origin),
    status: 200,
    rawOutput,
    ...(code === undefined ? {} : { providerCode: code }),
  };
  if (code === 'rate_limit_exceeded') {
    return new RateLimitError({
      ...details,
      message: `${origin.provider} failed the response: ${said}. Wait, or raise maxRetries.`,
    });
  }
  if (code === undefined || code === 'server_error') {
    return new ServerError({
      ...details,
      message: `${origin.provider} failed the response: ${said}. Retry later.`,
    });
  }
  return new UnexpectedResponseError({
    ...details,
    message: `${origin.provider} failed the response (${code}): ${said}`,
  });
}

/** Why the model stopped: `incomplete_details.reason` (`max_output_tokens` is `'length'`), else tool calls, else `'stop'`. */
function finishReason(response: Readonly<Record<string, unknown>>, hasToolCalls: boolean): FinishReason {
  const details = response['incomplete_details'];
  const reason = isRecord(details) && typeof details['reason'] === 'string' ? details['reason'] : undefined;
  if (reason === 'max_output_tokens') return 'length';
  if (reason !== undefined) return reason;
  return hasToolCalls ? 'tool_calls' : 'stop';
}

/** The summary texts of a reasoning item, else its reasoning text (open-weight models), joined by blank lines. */
function reasoningText(item: Readonly<Record<string, unknown>>): string {
  const texts = (parts: unknown, type: string): string[] =>
    Array.isArray(parts)
      ? parts
          .filter(isRecord)
          .flatMap((part) =>
            part['type'] === type && typeof part['text'] === 'string' ? [part['text']] : [],
          )
      : [];
  const summary = texts(item['summary'], 'summary_text');
  return (summary.length > 0 ? summary : texts(item['content'], 'reasoning_text')).join('\n\n');
}

/**
 * Normalises a Responses `usage` object: `input_tokens_details.cached_tokens` becomes
 * `cachedPromptTokens`, `output_tokens_details.reasoning_tokens` `reasoningTokens`. Missing counts
 * are 0; `undefined` when the response has no usage.
 */
export function responsesUsage(usage: unknown): Usage | undefined {
  if (!isRecord(usage)) return undefined;
  const inputDetails = isRecord(usage['input_tokens_details']) ? usage['input_tokens_details'] : {};
  const outputDetails = isRecord(usage['output_tokens_details']) ? usage['output_tokens_details'] : {};
  const promptTokens = count(usage['input_tokens']);
  const completionTokens = count(usage['output_tokens']);
  return {
    promptTokens,
    completionTokens,
    totalTokens:
      typeof usage['total_tokens'] === 'number' ? usage['total_tokens'] : promptTokens + completionTokens,
    reasoningTokens: count(outputDetails['reasoning_tokens']),
    cachedPromptTokens: count(inputDetails['cached_tokens']),
  };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
