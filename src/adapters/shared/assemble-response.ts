import type { JsonObject, ToolCall } from '../../model/messages.js';
import type { FinishReason, ModelResponse } from '../../model/model-adapter.js';
import type { Usage } from '../../model/usage.js';
import { providerDataField } from './provider-fields.js';

/** The parts of a response, from a JSON completion or an assembled stream. */
export interface ResponseParts {
  readonly content: string | null | undefined;
  /** `undefined` when the provider sent no `reasoning_content` field at all. */
  readonly reasoning: string | null | undefined;
  readonly toolCalls: readonly ToolCall[];
  /** Fields of the provider's message that have no other place, kept under `providerDataKey`. */
  readonly providerFields: JsonObject | undefined;
  readonly providerDataKey: string;
  readonly finishReason: FinishReason | null | undefined;
  readonly usage: Usage | undefined;
  readonly requestId: string | null | undefined;
  readonly model: string | undefined;
}

/**
 * Builds the `ModelResponse` both `call` and `stream` return, so the two are identical: empty
 * content becomes `null` (OpenAI streams `""` where its JSON answer has `null`), `tool_calls`
 * is present only when non-empty, and `reasoning_content` and `providerData` only when the
 * provider sent them.
 */
export function assembleResponse(parts: ResponseParts): ModelResponse {
  return {
    content: typeof parts.content === 'string' && parts.content.length > 0 ? parts.content : null,
    ...(parts.toolCalls.length > 0 ? { tool_calls: parts.toolCalls } : {}),
    ...(typeof parts.reasoning === 'string' ? { reasoning_content: parts.reasoning } : {}),
    ...providerDataField(parts.providerDataKey, parts.providerFields),
    finish_reason: parts.finishReason ?? null,
    ...(parts.usage === undefined ? {} : { usage: parts.usage }),
    ...(typeof parts.requestId === 'string' && parts.requestId !== '' ? { requestId: parts.requestId } : {}),
    ...(parts.model === undefined ? {} : { model: parts.model }),
  };
}
