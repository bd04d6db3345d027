/** Per-request options the Anthropic adapter gives the client. */
export interface AnthropicRequestOptions {
  readonly maxRetries?: number;
  readonly signal?: AbortSignal;
}

/**
 * The part of an `@anthropic-ai/sdk` client (version 1) that the Anthropic adapter uses: an
 * `Anthropic` instance is one. It is declared here rather than imported, so the adapter's type
 * declarations hold without the package's types; cast `await adapter.getClient()` to `Anthropic`
 * for the rest of its API, or keep a reference to the client you inject.
 */
export interface AnthropicClient {
  /** Retries the client would make; the adapter's default for its own. */
  readonly maxRetries: number;
  /** Milliseconds an attempt may take; the adapter's default `timeout`. */
  readonly timeout: number;
  readonly messages: {
    /** Sends one Messages request; the adapter reads the raw `Response`. */
    create(body: object, options?: AnthropicRequestOptions): { asResponse(): Promise<Response> };
  };
}
