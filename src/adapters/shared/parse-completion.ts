import { parseJsonBody } from './parse-json-body.js';
import { EmptyResponseError } from '../../errors/empty-response-error.js';
import { UnexpectedResponseError } from '../../errors/unexpected-response-error.js';
import type { ToolCall } from '../../model/messages.js';
import type { ModelResponse } from '../../model/model-adapter.js';
import { assembleResponse } from './assemble-response.js';
import { isRecord, normalizeUsage } from './normalize-usage.js';
import { providerDataField, unknownMessageFields, unknownToolCallFields } from './provider-fields.js';

/** Where a body came from, for error messages. */
export interface ResponseOrigin {
  readonly provider: string;
  readonly requestId: string | undefined;
}

/** The `provider` and `requestId` fields of an error about a response from `origin`. */
export function originFields(origin: ResponseOrigin): { provider: string; requestId?: string } {
  return {
    provider: origin.provider,
    ...(origin.requestId === undefined ? {} : { requestId: origin.requestId }),
  };
}

/**
 * Parses the text of a 200 Chat Completions answer into a `ModelResponse`. Fields of the message
 * and of its tool calls that have no place in it are kept under `providerDataKey`.
 *
 * @throws {EmptyResponseError} when the body is blank (DeepSeek may send only keep-alive
 * newlines) or has no choice; retryable.
 * @throws {UnexpectedResponseError} when the body is not a chat completion.
 */
export function parseCompletion(
  text: string,
  origin: ResponseOrigin,
  providerDataKey: string,
): ModelResponse {
  const details = originFields(origin);
  const completion = parseJsonBody(text, origin, 'a Chat Completions API');
  // Some compatible servers answer 200 with an error body; retrying would not help.
  if (isRecord(completion) && isRecord(completion['error'])) {
    const said = completion['error']['message'];
    throw new UnexpectedResponseError({
      ...details,
      status: 200,
      rawOutput: completion,
      message: `${origin.provider} answered 200 with an error: ${typeof said === 'string' ? said : JSON.stringify(completion['error'])}`,
    });
  }
  const choice =
    isRecord(completion) && Array.isArray(completion['choices']) ? completion['choices'][0] : undefined;
  if (!isRecord(completion) || !isRecord(choice) || !isRecord(choice['message'])) {
    throw new EmptyResponseError({
      ...details,
      status: 200,
      rawOutput: completion,
      message: `${origin.provider} answered 200 without a choice: ${JSON.stringify(completion).slice(0, 200)}.`,
    });
  }
  const message = choice['message'];
  return assembleResponse({
    content: typeof message['content'] === 'string' ? message['content'] : null,
    reasoning: typeof message['reasoning_content'] === 'string' ? message['reasoning_content'] : undefined,
    toolCalls: parseToolCalls(message['tool_calls'], providerDataKey),
    providerFields: unknownMessageFields(message),
    providerDataKey,
    finishReason: typeof choice['finish_reason'] === 'string' ? choice['finish_reason'] : null,
    usage: normalizeUsage(completion['usage']),
    requestId: origin.requestId,
    model: typeof completion['model'] === 'string' ? completion['model'] : undefined,
  });
}

function parseToolCalls(value: unknown, providerDataKey: string): ToolCall[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((toolCall) => {
    const call = isRecord(toolCall['function']) ? toolCall['function'] : {};
    return {
      id: String(toolCall['id'] ?? ''),
      type: 'function',
      function: {
        name: String(call['name'] ?? ''),
        arguments:
          typeof call['arguments'] === 'string' ? call['arguments'] : JSON.stringify(call['arguments'] ?? {}),
      },
      ...providerDataField(providerDataKey, unknownToolCallFields(toolCall)),
    };
  });
}
