import { EmptyResponseError } from '../../errors/empty-response-error.js';
import { InvalidRequestError } from '../../errors/invalid-request-error.js';
import { UnexpectedResponseError } from '../../errors/unexpected-response-error.js';
import type { JsonObject, ReasoningPart, ToolCall } from '../../model/messages.js';
import type { FinishReason, ModelResponse } from '../../model/model-adapter.js';
import type { Usage } from '../../model/usage.js';
import { isRecord } from '../shared/normalize-usage.js';
import { geminiDataKey } from './gemini-transcript.js';

/** Finish reasons of an answer Gemini withheld or cut for its content: the run ends as a refusal. */
const blockedReasons = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
]);

/** Finish reasons of a function call Gemini failed to write: the attempt is retried. */
const malformedReasons = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL']);

/**
 * The `ModelResponse` of a `generateContent` response (as plain JSON). Thought parts
 * (`thought: true`) become reasoning parts with their text, text parts the content, `functionCall`
 * parts tool calls (`id` = Gemini's, else `call_<index>` after the response id; `arguments` = the
 * `args` as JSON); each call's signature and Gemini id are also kept on the call. The turn's
 * provider data keeps every part exactly as received, for the next request.
 *
 * `finishReason`: `STOP` is `'stop'` (`'tool_calls'` with calls), `MAX_TOKENS` `'length'`, a
 * safety, recitation or blocklist stop `'refusal'` (the loop ends the run with that stop reason
 * and a warning); other values are passed on in lower case.
 *
 * @throws {InvalidRequestError} when Gemini blocked the prompt (`promptFeedback.blockReason`).
 * @throws {UnexpectedResponseError} (retryable) for `MALFORMED_FUNCTION_CALL`.
 * @throws {EmptyResponseError} (retryable) when there is no candidate.
 */
export function toModelResponse(
  response: Readonly<Record<string, unknown>>,
  provider: string,
): ModelResponse {
  const requestId = typeof response['responseId'] === 'string' ? response['responseId'] : undefined;
  const origin = { provider, ...(requestId === undefined ? {} : { requestId }) };
  const candidates = Array.isArray(response['candidates']) ? response['candidates'].filter(isRecord) : [];
  const candidate = candidates[0];
  if (candidate === undefined) {
    const feedback = isRecord(response['promptFeedback']) ? response['promptFeedback'] : undefined;
    const blockReason = typeof feedback?.['blockReason'] === 'string' ? feedback['blockReason'] : undefined;
    if (blockReason !== undefined) {
      throw new InvalidRequestError({
        ...origin,
        providerCode: blockReason,
        rawOutput: response,
        message: `${provider} blocked the prompt (blockReason ${blockReason}${typeof feedback?.['blockReasonMessage'] === 'string' ? `: ${feedback['blockReasonMessage']}` : ''}); nothing was generated. Rephrase the request or remove the content it flags.`,
      });
    }
    throw new EmptyResponseError({
      ...origin,
      status: 200,
      rawOutput: response,
      message: `${provider} answered with no candidate.`,
    });
  }
  const finish = typeof candidate['finishReason'] === 'string' ? candidate['finishReason'] : undefined;
  if (finish !== undefined && malformedReasons.has(finish)) {
    throw new UnexpectedResponseError({
      ...origin,
      status: 200,
      providerCode: finish,
      retryable: true,
      rawOutput: response,
      message: `${provider} stopped with ${finish}: the model wrote a function call it could not complete${typeof candidate['finishMessage'] === 'string' ? ` (${candidate['finishMessage']})` : ''}. The adapter retries it within maxRetries; if it persists, simplify the tool schemas.`,
    });
  }
  const content = isRecord(candidate['content']) ? candidate['content'] : undefined;
  const parts = (Array.isArray(content?.['parts']) ? content['parts'] : []).filter(isRecord) as JsonObject[];
  const reasoning: ReasoningPart[] = [];
  const toolCalls: ToolCall[] = [];
  let text = '';
  for (const part of parts) {
    const signature = typeof part['thoughtSignature'] === 'string' ? part['thoughtSignature'] : undefined;
    const call = isRecord(part['functionCall']) ? part['functionCall'] : undefined;
    if (call !== undefined) {
      const geminiId = typeof call['id'] === 'string' && call['id'] !== '' ? call['id'] : undefined;
      const data: Record<string, string> = {};
      if (signature !== undefined) data['thoughtSignature'] = signature;
      if (geminiId !== undefined) data['id'] = geminiId;
      toolCalls.push({
        id: geminiId ?? `call_${requestId === undefined ? '' : `${requestId}_`}${toolCalls.length}`,
        type: 'function',
        function: {
          name: typeof call['name'] === 'string' ? call['name'] : '',
          arguments: JSON.stringify(call['args'] ?? {}),
        },
        ...(Object.keys(data).length === 0 ? {} : { providerData: { [geminiDataKey]: data } }),
      });
    } else if (part['thought'] === true) {
      const thought = typeof part['text'] === 'string' ? part['text'] : '';
      reasoning.push({
        type: 'reasoning',
        ...(thought === '' ? {} : { text: thought }),
        ...(signature === undefined
          ? {}
          : { providerData: { [geminiDataKey]: { thoughtSignature: signature } } }),
      });
    } else if (typeof part['text'] === 'string') {
      text += part['text'];
    }
  }
  const usage = geminiUsage(response['usageMetadata']);
  return {
    content: text === '' ? null : text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(reasoning.length > 0 ? { reasoning } : {}),
    providerData: { [geminiDataKey]: { parts } },
    finish_reason: finishReason(finish, toolCalls.length > 0),
    ...(usage === undefined ? {} : { usage }),
    ...(requestId === undefined ? {} : { requestId }),
    ...(typeof response['modelVersion'] === 'string' ? { model: response['modelVersion'] } : {}),
  };
}

function finishReason(finish: string | undefined, hasToolCalls: boolean): FinishReason {
  if (finish === undefined || finish === 'STOP' || finish === 'FINISH_REASON_UNSPECIFIED')
    return hasToolCalls ? 'tool_calls' : 'stop';
  if (finish === 'MAX_TOKENS') return 'length';
  if (blockedReasons.has(finish)) return 'refusal';
  return finish.toLowerCase();
}

/**
 * Normalises `usageMetadata`: prompt tokens are `promptTokenCount` (the cached ones, also
 * `cachedPromptTokens`, included), completion tokens `candidatesTokenCount` plus
 * `thoughtsTokenCount` (also `reasoningTokens`). `undefined` when there is no usage.
 */
export function geminiUsage(usage: unknown): Usage | undefined {
  if (!isRecord(usage)) return undefined;
  const promptTokens = count(usage['promptTokenCount']);
  const thoughts = count(usage['thoughtsTokenCount']);
  const completionTokens = count(usage['candidatesTokenCount']) + thoughts;
  return {
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
    reasoningTokens: thoughts,
    cachedPromptTokens: count(usage['cachedContentTokenCount']),
  };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** `UnexpectedResponseError` for a 200 that is not a `generateContent` response. */
export function notAResponse(value: unknown, provider: string): UnexpectedResponseError {
  return new UnexpectedResponseError({
    provider,
    status: 200,
    rawOutput: value,
    message: `${provider} answered 200 with something other than a generateContent response: ${JSON.stringify(value).slice(0, 200)}. Check baseURL points at the Gemini API.`,
  });
}
