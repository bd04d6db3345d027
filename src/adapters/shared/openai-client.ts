/** Per-request options the adapters give the client. */
export interface OpenAIRequestOptions {
  readonly maxRetries?: number;
  readonly signal?: AbortSignal;
}

/**
 * The part of an `openai` client (version 5 or 6) that the Chat Completions adapters use: an
 * `OpenAI` instance is one. It is declared here rather than imported, so the adapters' type
 * declarations hold without the `openai` package's types; cast `await adapter.getClient()` to `OpenAI` for
 * the rest of its API, or keep a reference to the client you inject.
 */
export interface OpenAIClient {
  /** Retries the client would make; the adapter's default for its own. */
  readonly maxRetries: number;
  /** Milliseconds an attempt may take; the adapter's default `timeout`. */
  readonly timeout: number;
  readonly chat: {
    readonly completions: {
      /** Sends one Chat Completions request; the adapter reads the raw `Response`. */
      create(body: object, options?: OpenAIRequestOptions): { asResponse(): Promise<Response> };
    };
  };
}

/**
 * The part of an `openai` client (version 5 or 6) that the Responses adapter uses: an `OpenAI`
 * instance is one. Declared here for the same reason as {@link OpenAIClient}.
 */
export interface OpenAIResponsesClient {
  /** Retries the client would make; the adapter's default for its own. */
  readonly maxRetries: number;
  /** Milliseconds an attempt may take; the adapter's default `timeout`. */
  readonly timeout: number;
  readonly responses: {
    /** Sends one Responses request; the adapter reads the raw `Response`. */
    create(body: object, options?: OpenAIRequestOptions): { asResponse(): Promise<Response> };
  };
}
