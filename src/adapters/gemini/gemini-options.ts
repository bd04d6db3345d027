import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { ChatCompletionsAdapterOptions } from '../shared/chat-completions-options.js';
import type { GeminiClient } from './gemini-client.js';

/**
 * Gemini's `thinkingConfig`: how much the model thinks (`thinkingBudget` in tokens on Gemini 2.5,
 * `-1` for dynamic and `0` for none where the model allows it; or `thinkingLevel` on Gemini 3), and
 * whether thought summaries come back (`includeThoughts`) as reasoning parts.
 */
export interface GeminiThinkingConfig {
  /** Tokens the model may think for (Gemini 2.5); `-1` lets it decide, `0` turns thinking off where allowed. */
  readonly thinkingBudget?: number;
  /** How hard the model thinks (Gemini 3). Not sent together with `thinkingBudget`. */
  readonly thinkingLevel?: 'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH';
  /** Send thought summaries back, as reasoning parts (`reasoning_delta` when streaming). @default not sent (false) */
  readonly includeThoughts?: boolean;
}

/**
 * Options of {@link GeminiAdapter}; the connection and retry options are those of the other
 * adapters. Parameters left out are not sent.
 */
export interface GeminiAdapterOptions extends Pick<
  ChatCompletionsAdapterOptions,
  | 'model'
  | 'contextWindowTokens'
  | 'apiKey'
  | 'baseURL'
  | 'provider'
  | 'maxRetries'
  | 'maxRetryDelayMs'
  | 'timeout'
  | 'headers'
  | 'retryBaseDelayMs'
  | 'toolChoice'
  | 'temperature'
> {
  /**
   * An `@google/genai` client (`new GoogleGenAI({ apiKey })`) to use as is; `apiKey`, `baseURL`
   * and `headers` are then ignored. Without one, the adapter builds its own on the first request,
   * loading the package then, with `apiKey` (else `GEMINI_API_KEY`, else `GOOGLE_API_KEY`, which are
   * never sent to a `baseURL` on another host).
   */
  readonly client?: GeminiClient;
  /** Sent as `thinkingConfig`; one setting holds for every call of the adapter. @default not sent (the model's default) */
  readonly thinking?: GeminiThinkingConfig;
  /** Sent as `maxOutputTokens`: the most tokens the answer may take. @default not sent (the model's maximum) */
  readonly maxOutputTokens?: number;
  /**
   * Send a call's `responseFormat` as `responseMimeType: 'application/json'` with
   * `responseJsonSchema` (Gemini's structured output). Gemini documents structured output together
   * with function calling for Gemini 3 models only, and earlier models refuse the two in one
   * request, so it is on by default only for model names `gemini-<version>` of version 3 or later.
   * Off, `supportsResponseFormat` is false and the orchestrator asks for a typed output through a
   * final-answer tool instead. `true` turns it on for a model whose name does not say its version
   * (an alias, a tuned model) that supports it.
   * @default true for `gemini-3*` and later, else false
   */
  readonly nativeStructuredOutput?: boolean;
}

/** Whether the adapter sends native structured output for `model` when `nativeStructuredOutput` is not set: Gemini 3 and later. */
export function nativeStructuredOutputByDefault(model: string): boolean {
  const match = /^(?:models\/)?gemini-(\d+)/.exec(model);
  return match !== null && Number(match[1]) >= 3;
}

const levels = new Set(['MINIMAL', 'LOW', 'MEDIUM', 'HIGH']);

/**
 * Checks the options only this adapter has, before any request.
 *
 * @throws {InvalidArgumentError} naming the option, its value and what it must be.
 */
export function validateGeminiOptions(options: GeminiAdapterOptions): void {
  const maxOutputTokens: unknown = options.maxOutputTokens;
  if (
    maxOutputTokens !== undefined &&
    !(typeof maxOutputTokens === 'number' && Number.isInteger(maxOutputTokens) && maxOutputTokens > 0)
  ) {
    throw new InvalidArgumentError({
      argument: 'maxOutputTokens',
      value: maxOutputTokens,
      message: 'must be a positive integer: the most tokens the answer may take.',
    });
  }
  const thinking: unknown = options.thinking;
  if (thinking === undefined) return;
  if (typeof thinking !== 'object' || thinking === null || Array.isArray(thinking)) {
    throw new InvalidArgumentError({
      argument: 'thinking',
      value: thinking,
      message:
        "must be an object, e.g. { thinkingLevel: 'LOW', includeThoughts: true } or { thinkingBudget: 2048 }.",
    });
  }
  const { thinkingBudget, thinkingLevel, includeThoughts } = thinking as Record<string, unknown>;
  if (
    thinkingBudget !== undefined &&
    !(typeof thinkingBudget === 'number' && Number.isInteger(thinkingBudget) && thinkingBudget >= -1)
  ) {
    throw new InvalidArgumentError({
      argument: 'thinking.thinkingBudget',
      value: thinkingBudget,
      message: 'must be an integer: tokens to think for, -1 for dynamic, 0 for none.',
    });
  }
  if (thinkingLevel !== undefined && !(typeof thinkingLevel === 'string' && levels.has(thinkingLevel))) {
    throw new InvalidArgumentError({
      argument: 'thinking.thinkingLevel',
      value: thinkingLevel,
      message: "must be 'MINIMAL', 'LOW', 'MEDIUM' or 'HIGH'.",
    });
  }
  if (thinkingBudget !== undefined && thinkingLevel !== undefined) {
    throw new InvalidArgumentError({
      argument: 'thinking',
      value: thinking,
      message: 'cannot set both thinkingBudget and thinkingLevel: Gemini refuses the request. Keep one.',
    });
  }
  if (includeThoughts !== undefined && typeof includeThoughts !== 'boolean') {
    throw new InvalidArgumentError({
      argument: 'thinking.includeThoughts',
      value: includeThoughts,
      message: 'must be true or false.',
    });
  }
}
