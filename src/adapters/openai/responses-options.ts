import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { ChatCompletionsAdapterOptions } from '../shared/chat-completions-options.js';
import type { OpenAIResponsesClient } from '../shared/openai-client.js';

/**
 * Options of {@link OpenAIResponsesAdapter}; the connection, retry and tool options are those of
 * the Chat Completions adapters. Parameters left out are not sent.
 */
export interface OpenAIResponsesAdapterOptions extends Pick<
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
  | 'dangerouslyAllowBrowser'
  | 'retryBaseDelayMs'
  | 'toolChoice'
  | 'parallelToolCalls'
  | 'strictTools'
  | 'extraBody'
> {
  /**
   * An `openai` client to use as is; `apiKey`, `baseURL`, `timeout`, `headers` are then ignored.
   * Without one, the adapter builds its own on the first request, loading the `openai` package then.
   */
  readonly client?: OpenAIResponsesClient;
  /**
   * Sent as `reasoning`: how hard a reasoning model thinks, and whether it returns a summary of its
   * reasoning (`'auto'`, `'concise'`, `'detailed'`), which arrives as `reasoning_delta` events and
   * as the `text` of the turn's reasoning parts. @default not sent (the model's defaults, no summary)
   */
  readonly reasoning?: {
    readonly effort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | (string & {});
    readonly summary?: 'auto' | 'concise' | 'detailed' | (string & {});
  };
  /** Sent as `text`: how long the answer should be. @default not sent (`'medium'`) */
  readonly text?: { readonly verbosity?: 'low' | 'medium' | 'high' | (string & {}) };
  /** Sent as `max_output_tokens`: the most tokens the answer may take, reasoning included. @default not sent */
  readonly maxOutputTokens?: number;
  /** Sent as `prompt_cache_key`: requests with the same key share the provider's prompt cache. @default not sent */
  readonly promptCacheKey?: string;
  /** Sent as `service_tier`, e.g. `'flex'` or `'priority'`. @default not sent (`'auto'`) */
  readonly serviceTier?: 'auto' | 'default' | 'flex' | 'scale' | 'priority' | (string & {});
  /**
   * Sent as `store`: whether OpenAI keeps the response. With `false` (zero-data-retention
   * accounts need it) the adapter asks for `include: ['reasoning.encrypted_content']` and sends each
   * reasoning item back whole with its encrypted content; an item that has none is left out. With
   * `true`, reasoning items are sent back by the id OpenAI keeps.
   * @default false
   */
  readonly store?: boolean;
  /**
   * With `store: true`, send `previous_response_id` (the last response in the transcript, kept in
   * its provider data) and only the messages after it, instead of the whole transcript; OpenAI
   * adds what it stored. Without such a response, the whole transcript is sent.
   * @default false
   */
  readonly previousResponseId?: boolean;
  /**
   * Send a call's `responseFormat` as `text.format: { type: 'json_schema', ... }` (OpenAI's
   * Structured Outputs), beside `text.verbosity`. `false` for a model or a compatible server that
   * refuses it: the adapter then sends no `text.format`, and `supportsResponseFormat` is false, so
   * the orchestrator asks for a typed output through a final-answer tool instead.
   * @default true
   */
  readonly nativeStructuredOutput?: boolean;
}

/**
 * Checks the options only this adapter has, before any request.
 *
 * @throws {InvalidArgumentError} naming the option, its value and what it must be.
 */
export function validateResponsesOptions(options: OpenAIResponsesAdapterOptions): void {
  for (const name of ['store', 'previousResponseId', 'parallelToolCalls', 'strictTools'] as const) {
    const value: unknown = options[name];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new InvalidArgumentError({ argument: name, value, message: 'must be true or false.' });
    }
  }
  if (options.previousResponseId === true && options.store !== true) {
    throw new InvalidArgumentError({
      argument: 'previousResponseId',
      value: options.previousResponseId,
      message:
        'needs store: true: OpenAI keeps no response to chain from when store is false. Pass { store: true, previousResponseId: true }, or leave previousResponseId out to send the whole transcript.',
    });
  }
  const maxOutputTokens: unknown = options.maxOutputTokens;
  if (
    maxOutputTokens !== undefined &&
    !(typeof maxOutputTokens === 'number' && Number.isInteger(maxOutputTokens) && maxOutputTokens > 0)
  ) {
    throw new InvalidArgumentError({
      argument: 'maxOutputTokens',
      value: maxOutputTokens,
      message: 'must be a positive integer: the most tokens the answer may take, reasoning included.',
    });
  }
  for (const name of ['promptCacheKey', 'serviceTier'] as const) {
    const value: unknown = options[name];
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      throw new InvalidArgumentError({ argument: name, value, message: 'must be a non-empty string.' });
    }
  }
  for (const name of ['reasoning', 'text'] as const) {
    const value: unknown = options[name];
    if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      throw new InvalidArgumentError({
        argument: name,
        value,
        message:
          name === 'reasoning'
            ? "must be an object, e.g. { effort: 'low', summary: 'auto' }."
            : "must be an object, e.g. { verbosity: 'low' }.",
      });
    }
  }
}
