import type { ChatMessage, ProviderData, ReasoningPart, ToolCall } from './messages.js';
import type { Usage } from './usage.js';

/** A JSON Schema object, as sent to a model in a tool definition. */
export type JsonSchema = { readonly [key: string]: unknown };

/** A tool as the model sees it: an OpenAI-style function definition. */
export interface ModelToolDefinition {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: JsonSchema;
    /** Ask the provider for strict schema adherence; adapters convert the schema as strict mode needs. */
    readonly strict?: boolean;
  };
}

/** How the model may use tools on one call. */
export type ToolChoice =
  'auto' | 'none' | 'required' | { readonly type: 'function'; readonly function: { readonly name: string } };

/** Why the model stopped. Providers may add their own values. */
export type FinishReason =
  'stop' | 'tool_calls' | 'length' | 'content_filter' | 'insufficient_system_resource' | (string & {});

/** Something an adapter changed in a request so its provider would take it. */
export interface ModelWarning {
  /** What was changed, e.g. `'tool_choice_with_thinking'`. */
  readonly code: string;
  /** For people: what was sent instead, and what to do. */
  readonly message: string;
}

/** What one model call returned, in the OpenAI chat-completions shape. */
export interface ModelResponse {
  readonly content: string | null;
  readonly tool_calls?: readonly ToolCall[];
  /** The model's reasoning, kept exactly as received (DeepSeek thinking mode). */
  readonly reasoning_content?: string | null;
  /** The reasoning spans, in the provider's order, each with what the provider needs back. */
  readonly reasoning?: readonly ReasoningPart[];
  /** Fields of the provider's message the transcript must keep for the provider. */
  readonly providerData?: ProviderData;
  readonly finish_reason?: FinishReason | null;
  readonly usage?: Usage;
  /** The provider's request id, when it sent one. */
  readonly requestId?: string;
  /** The model the provider says answered. */
  readonly model?: string;
  /**
   * What the adapter changed in this request so the provider would take it; the loop emits each
   * as a `warning` event. Not part of the transcript.
   */
  readonly warnings?: readonly ModelWarning[];
}

/** Options of one model call. */
export interface ModelCallOptions {
  /** Cancels the HTTP request, or stops reading a stream at once. */
  readonly signal?: AbortSignal;
  /** Overrides the adapter's tool choice for this call (the orchestrator sends `'none'` for a final answer). */
  readonly toolChoice?: ToolChoice;
  /**
   * Asks for a final answer that is JSON matching a schema, through the provider's native
   * structured output. Sent only to an adapter whose `supportsResponseFormat` is true; the model
   * may still call tools, and answers with the JSON text as its `content` when it is done.
   */
  readonly responseFormat?: ResponseFormat;
}

/**
 * A JSON Schema the model's final answer must match, sent as the provider's native structured
 * output: Chat Completions `response_format` (`json_schema`), Responses `text.format`, Anthropic
 * `output_config.format`, Gemini `responseJsonSchema` with `responseMimeType: 'application/json'`.
 */
export interface ResponseFormat {
  readonly type: 'json_schema';
  /** The schema's name, where the provider takes one: letters, digits, `_` and `-`, at most 64 characters. */
  readonly name: string;
  /** What the answer is, for the model, where the provider takes it. */
  readonly description?: string;
  /** The answer's JSON Schema. */
  readonly schema: JsonSchema;
  /**
   * Asks for strict adherence where the provider offers a switch (OpenAI's `strict: true`, with the
   * schema made strict the way a strict tool's is). @default false
   */
  readonly strict?: boolean;
}

/** One piece of a streamed model response. The stream ends with exactly one `response` event. */
export type ModelStreamEvent =
  | { readonly type: 'content_delta'; readonly delta: string }
  | { readonly type: 'reasoning_delta'; readonly delta: string }
  | {
      readonly type: 'tool_call_delta';
      readonly index: number;
      readonly id?: string;
      readonly name?: string;
      readonly argumentsDelta: string;
    }
  /** The assembled response: exactly what `call` would have returned. */
  | { readonly type: 'response'; readonly response: ModelResponse };

/**
 * The one interface a model provider implements. The core never imports a provider SDK.
 *
 * @example
 * const adapter: ModelAdapter = {
 *   async call(messages, tools) {
 *     return { content: 'hello' };
 *   },
 * };
 */
export interface ModelAdapter {
  /** A short provider name for traces and errors, e.g. `'openai'`. */
  readonly provider?: string;
  /**
   * The model the adapter asks for, e.g. `'gpt-4o'`, when it names one: part of a saved run's
   * fingerprint, so resuming a run with another model is noticed.
   */
  readonly model?: string;
  /**
   * The context window of the adapter's model in tokens, when known: the default `maxTokens` of
   * the orchestrator's `contextWindow`.
   */
  readonly contextWindowTokens?: number | undefined;
  /**
   * The key under which this adapter keeps provider data in the transcript and reads it back
   * (`ProviderData`), naming the API it speaks, e.g. `'openai.responses'`, `'deepseek.chat_completions'`.
   * Data under any other key is never sent by this adapter.
   */
  readonly providerDataKey?: string;
  /**
   * True when the adapter sends `ModelCallOptions.responseFormat` as the provider's native
   * structured output. Otherwise the orchestrator asks for a typed `output` through a final-answer
   * tool. @default false
   */
  readonly supportsResponseFormat?: boolean;
  /** Sends the transcript and the tools, and resolves to the model's whole response. */
  call(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options?: ModelCallOptions,
  ): Promise<ModelResponse>;
  /** Streams the response; used when the orchestrator runs with `stream: true`. */
  stream?(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options?: ModelCallOptions,
  ): AsyncIterable<ModelStreamEvent>;
}
