import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { ChatMessage } from '../../model/messages.js';
import type {
  ModelAdapter,
  ModelCallOptions,
  ModelResponse,
  ModelStreamEvent,
  ModelToolDefinition,
  ModelWarning,
} from '../../model/model-adapter.js';
import type { ProviderDefaults } from '../shared/create-client.js';
import { contextWindowOption, AdapterConnection, requestOptions } from '../shared/adapter-connection.js';
import { readBody } from '../shared/read-body.js';
import { streamAttemptEvents } from '../shared/stream-attempt.js';
import { withWarnings } from '../shared/with-warnings.js';
import { callWithRetries, streamWithRetries } from '../shared/with-retries.js';
import type { AnthropicClient } from './anthropic-client.js';
import { anthropicWire } from './anthropic-connect.js';
import { maxTokensOf, validateAnthropicOptions } from './anthropic-options.js';
import type { AnthropicAdapterOptions } from './anthropic-options.js';
import { parseAnthropicBody } from './anthropic-output.js';
import { nativeStructuredOutputByDefault, toAnthropicOutputFormat } from './anthropic-output-format.js';
import { nativeStructuredOutputOption } from '../shared/response-format.js';
import { buildAnthropicBody } from './anthropic-request.js';
import { AnthropicStreamAccumulator } from './anthropic-stream-accumulator.js';
import { anthropicDataKey } from './anthropic-turn-data.js';

const defaults: ProviderDefaults = {
  provider: 'anthropic',
  environmentVariable: 'ANTHROPIC_API_KEY',
  baseURLVariable: 'ANTHROPIC_BASE_URL',
  keyHosts: ['api.anthropic.com'],
};

/**
 * A `ModelAdapter` for Anthropic's Messages API (`client.messages.create`) over the official
 * `@anthropic-ai/sdk` client. System messages go in `system`; each assistant turn is sent back as
 * the content blocks Claude returned, in its order, thinking and redacted-thinking blocks whole
 * with their signatures; tool results as `tool_result` blocks, all the results of a turn in one
 * user message. Prompt caching is on by default (see the `cache` option). A call's
 * `responseFormat` goes out as `output_config.format` (see `nativeStructuredOutput`). What Claude
 * needs back is kept in the transcript under `providerData['anthropic.messages']`.
 *
 * Retries, timeouts, abort and errors work as in the other adapters: 429, 500 and 529
 * (`overloaded_error`) are retried, honouring `retry-after` up to `maxRetryDelayMs`; "prompt is
 * too long" is a `ContextLengthError`.
 *
 * @throws {MissingApiKeyError} from the constructor when there is no client, no `apiKey` and no `ANTHROPIC_API_KEY`.
 * @throws {InvalidArgumentError} from the constructor when an option has a value it cannot take.
 * @example
 * const adapter = new AnthropicAdapter({
 *   model: 'claude-sonnet-4-6',
 *   thinking: { type: 'enabled', budgetTokens: 4000 },
 * });
 */
export class AnthropicAdapter implements ModelAdapter {
  readonly provider: string;
  /** The model every request asks for (the `model` option). */
  readonly model: string;
  /** The model's context window in tokens, when known (the `contextWindowTokens` option, else the published one). */
  readonly contextWindowTokens: number | undefined;
  /** Provider data of this adapter is kept, and read back, under `'anthropic.messages'`. */
  readonly providerDataKey = anthropicDataKey;
  /** The `max_tokens` every request sends (the `maxTokens` option, else the model's default). */
  readonly maxTokens: number;
  /**
   * Whether a call's `responseFormat` is sent as `output_config.format` (Claude's structured
   * outputs): the `nativeStructuredOutput` option, else true except for models Anthropic documents
   * without them (Claude 3.x, Sonnet 4, Opus 4 and 4.1).
   */
  readonly supportsResponseFormat: boolean;
  private readonly options: AnthropicAdapterOptions;
  private readonly connection: AdapterConnection<AnthropicClient>;

  constructor(options: AnthropicAdapterOptions) {
    this.connection = new AdapterConnection(options, defaults, anthropicWire);
    this.maxTokens = maxTokensOf(options);
    validateAnthropicOptions(options, this.maxTokens);
    this.supportsResponseFormat =
      nativeStructuredOutputOption(options) ?? nativeStructuredOutputByDefault(options.model);
    this.options = options;
    this.provider = this.connection.provider;
    this.model = options.model;
    this.contextWindowTokens = contextWindowOption(options);
  }

  /**
   * The `@anthropic-ai/sdk` client every request goes through: the injected `client`, or the one
   * the adapter builds from its options for its first request (loading the package then).
   *
   * @throws {MissingDependencyError} when the adapter builds its client and `@anthropic-ai/sdk` is not installed.
   */
  getClient(): Promise<AnthropicClient> {
    return this.connection.getClient();
  }

  /** Sends the transcript and resolves to the whole response. */
  async call(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions = {},
  ): Promise<ModelResponse> {
    const { body, warnings } = await this.request(messages, tools, options, false);
    const { client } = await this.connection.connect();
    const result = await callWithRetries(
      this.connection.attempts(client, options.signal),
      async (deadline) => {
        const response = await this.send(() =>
          client.messages.create(body, requestOptions(deadline)).asResponse(),
        );
        const origin = this.connection.origin(response);
        return parseAnthropicBody(await readBody(response, origin), origin);
      },
    );
    return withWarnings(result, warnings);
  }

  /**
   * Streams the response (`stream: true`): deltas in the order they arrive, then one `response`
   * identical to what `call` returns for the same message. Aborting stops reading at once and
   * throws the signal's reason. Once a delta is out, a failure is thrown rather than retried.
   */
  async *stream(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions = {},
  ): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const { body, warnings } = await this.request(messages, tools, options, true);
    const { client, decodeEvents } = await this.connection.connect();
    const events = streamWithRetries(this.connection.attempts(client, options.signal), (deadline) =>
      streamAttemptEvents({
        send: () => client.messages.create(body, requestOptions(deadline)).asResponse(),
        origin: (response) => this.connection.origin(response),
        deadline,
        signal: options.signal,
        decodeEvents,
        parseJson: parseAnthropicBody,
        assembler: (origin) => new AnthropicStreamAccumulator(origin),
      }),
    );
    if (warnings.length === 0) {
      yield* events;
      return;
    }
    for await (const event of events) {
      yield event.type === 'response'
        ? { type: 'response', response: withWarnings(event.response, warnings) }
        : event;
    }
  }

  /**
   * Sends a non-streaming request. The client refuses one whose `max_tokens` could take over ten
   * minutes ("Streaming is required"): that becomes an `InvalidArgumentError` saying what to do.
   */
  private async send(request: () => Promise<Response>): Promise<Response> {
    try {
      return await request();
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('Streaming is required')) throw error;
      throw new InvalidArgumentError({
        argument: 'maxTokens',
        value: this.maxTokens,
        message:
          'is more than the @anthropic-ai/sdk client sends without streaming (21,333 tokens, or fewer for some models): run the orchestrator with stream: true, give the adapter (or its client) a timeout, or lower maxTokens.',
      });
    }
  }

  /**
   * The request body, and what it changed so the API would take it; throws before any request
   * when a message cannot be sent.
   */
  private async request(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions,
    stream: boolean,
  ): Promise<{ body: Record<string, unknown>; warnings: ModelWarning[] }> {
    const warnings: ModelWarning[] = [];
    const responseFormat = this.supportsResponseFormat ? options.responseFormat : undefined;
    const outputFormat =
      responseFormat === undefined ? undefined : await toAnthropicOutputFormat(responseFormat);
    const body = buildAnthropicBody({
      options: this.options,
      maxTokens: this.maxTokens,
      messages,
      tools,
      toolChoice: options.toolChoice ?? this.options.toolChoice,
      outputFormat,
      stream,
      warn: (warning) => warnings.push(warning),
    });
    return { body, warnings };
  }
}
