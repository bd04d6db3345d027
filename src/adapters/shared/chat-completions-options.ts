import type { JsonSchema, ToolChoice } from '../../model/model-adapter.js';
import type { OpenAIClient } from './openai-client.js';

/** The response format a chat completion may be asked for. */
export type ResponseFormat =
  | { readonly type: 'text' }
  | { readonly type: 'json_object' }
  | {
      readonly type: 'json_schema';
      readonly json_schema: {
        readonly name: string;
        readonly schema: JsonSchema;
        readonly description?: string;
        readonly strict?: boolean;
      };
    };

/** Options every Chat Completions adapter takes. Sampling parameters left out are not sent. */
export interface ChatCompletionsAdapterOptions {
  /** The model name, sent as is; no list is hard-coded, so new names work the day they ship. */
  readonly model: string;
  /**
   * The model's context window in tokens, the default `maxTokens` of the orchestrator's
   * `contextWindow`. @default the published window of well-known OpenAI and DeepSeek models, else unknown
   */
  readonly contextWindowTokens?: number;
  /**
   * An `openai` client to use as is; `apiKey`, `baseURL`, `timeout`, `headers` are then ignored.
   * Without one, the adapter builds its own on the first request, loading the `openai` package then.
   */
  readonly client?: OpenAIClient;
  /**
   * The API key; `undefined` (e.g. an unset `process.env` entry) falls back to the provider's
   * variable, but only for the provider's own host: with a `baseURL` on another host (OpenRouter,
   * a local server), the variable is never sent there and `apiKey` must be given
   * (`MissingApiKeyError` otherwise; any string, e.g. `'none'`, for a server that needs none).
   * @default the provider's environment variable (`OPENAI_API_KEY`, `DEEPSEEK_API_KEY`)
   */
  readonly apiKey?: string | undefined;
  /** The server's base URL, ending in `/v1` for most OpenAI-compatible servers. @default the provider's */
  readonly baseURL?: string | undefined;
  /**
   * The provider's name in traces (`llm_call.provider`, OpenTelemetry's `gen_ai.provider.name`)
   * and errors, for an OpenAI-compatible server at `baseURL`, e.g. `'ollama'`, `'vllm'` or
   * `'openrouter'`. Prefer the GenAI conventions' well-known values where one fits (`'groq'`,
   * `'x_ai'`, `'mistral_ai'`, `'azure.ai.openai'`, ...).
   * @default the well-known name of the base URL's host (`api.groq.com` is `'groq'`), else the adapter's (`'openai'`, `'deepseek'`)
   */
  readonly provider?: string;
  /**
   * Retries per call, made by the adapter (the `openai` client is asked for none, because its
   * waits cannot be aborted): connection failures and resets, whole-response timeouts, 408, 409,
   * 429 and 5xx (honouring `retry-after-ms`, `retry-after` and `x-should-retry`), a blank 200, a
   * truncated stream, an `error` object mid-stream and DeepSeek's `insufficient_system_resource`.
   * A stream is retried only while it has emitted nothing.
   * @default the injected client's `maxRetries`, else 2
   */
  readonly maxRetries?: number;
  /**
   * The longest wait, in milliseconds, a retry may take. A server asking for longer (`retry-after:
   * 3600`) makes the call fail at once with its typed error (`RateLimitError` for a 429) carrying
   * `retryAfterMs`, instead of waiting. Every wait ends at once when the call is aborted.
   * @default 60000
   */
  readonly maxRetryDelayMs?: number;
  /**
   * Milliseconds one HTTP attempt of `call` may take, from the request until the whole body has
   * arrived; in `stream`, the longest wait for the headers and then for each next chunk (comments
   * such as `: keep-alive` do not count), so a long answer that keeps coming is never cut. Past it
   * the attempt fails with a retryable `ConnectionError`. The `openai` client's own timeout
   * stops at the response headers.
   * @default 600000 (the client's `timeout`; with an injected client, its `timeout`)
   */
  readonly timeout?: number;
  /** Extra HTTP headers on every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Let the adapter build its client in a browser, where the `openai` client otherwise refuses to
   * hold an API key (anyone who opens the page can read it). Only for a key that may be public: a
   * short-lived one, or a proxy of yours that holds the real key. Ignored with an injected `client`.
   * @default false
   */
  readonly dangerouslyAllowBrowser?: boolean;
  /**
   * Milliseconds before the first retry when the server did not say how long to wait; doubles on
   * each retry up to 8 s (and `maxRetryDelayMs`), less up to 25 % jitter.
   * @default 500
   */
  readonly retryBaseDelayMs?: number;
  /** The default tool choice; a call's `options.toolChoice` wins. @default not sent (the provider's `auto`) */
  readonly toolChoice?: ToolChoice;
  /** Allow several tool calls in one turn. @default not sent (the provider's default, `true` on OpenAI) */
  readonly parallelToolCalls?: boolean;
  /**
   * Send every tool with `strict: true`, its schema converted to the strict form. A tool's own
   * `strict` flag wins.
   * @default false
   */
  readonly strictTools?: boolean;
  /**
   * Ask for JSON output (`json_object`) or output matching a schema (`json_schema`) on every call.
   * A call's own `responseFormat` (the orchestrator's typed `output`) is sent instead when the
   * adapter supports it.
   */
  readonly responseFormat?: ResponseFormat;
  readonly temperature?: number;
  readonly topP?: number;
  /** Sent as `max_tokens`. */
  readonly maxTokens?: number;
  /** Sent as `max_completion_tokens` (OpenAI reasoning models require it instead of `max_tokens`). */
  readonly maxCompletionTokens?: number;
  readonly presencePenalty?: number;
  readonly frequencyPenalty?: number;
  readonly stop?: string | readonly string[];
  readonly seed?: number;
  /** Fields merged into every request body last, for parameters this adapter does not know. */
  readonly extraBody?: Readonly<Record<string, unknown>>;
}
