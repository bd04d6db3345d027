import { InsufficientSystemResourceError } from '../../errors/insufficient-system-resource-error.js';
import { StreamError } from '../../errors/stream-error.js';
import type { ChatMessage } from '../../model/messages.js';
import type {
  ModelAdapter,
  ModelCallOptions,
  ModelResponse,
  ModelStreamEvent,
  ModelToolDefinition,
} from '../../model/model-adapter.js';
import type { ChatCompletionsAdapterOptions } from './chat-completions-options.js';
import type { ProviderDefaults } from './create-client.js';
import type { OpenAIClient } from './openai-client.js';
import { openaiWire } from './openai-connect.js';
import { contextWindowOption, AdapterConnection, requestOptions } from './adapter-connection.js';
import { originFields, parseCompletion } from './parse-completion.js';
import type { ResponseOrigin } from './parse-completion.js';
import { readBody } from './read-body.js';
import type { SseChunkReader } from './sse-chunk-reader.js';
import { streamAttemptEvents } from './stream-attempt.js';
import type { StreamAssembler } from './stream-attempt.js';
import { callWithRetries, streamWithRetries } from './with-retries.js';
import { StreamAccumulator } from './stream-accumulator.js';

/**
 * A `ModelAdapter` over `client.chat.completions.create`, shared by the OpenAI and DeepSeek
 * adapters. It never uses the client's `runTools` or `ChatCompletionStream` helpers: they drop or
 * truncate `reasoning_content`. Subclasses build the request body.
 *
 * The client builds, authenticates and sends each request and maps HTTP statuses to its errors;
 * the adapter reads the body itself (so a broken connection, a truncated stream or a bad chunk
 * become typed errors), bounds each attempt by `timeout` until the body ends, and retries, since
 * the client's retry waits can be neither aborted nor capped.
 */
export abstract class ChatCompletionsAdapter implements ModelAdapter {
  readonly provider: string;
  /** The model every request asks for (the `model` option). */
  readonly model: string;
  /** The model's context window in tokens, when known (see `ChatCompletionsAdapterOptions.contextWindowTokens`). */
  readonly contextWindowTokens: number | undefined;
  /**
   * `'<provider>.chat_completions'` (`'openai.chat_completions'`, `'deepseek.chat_completions'`,
   * `'groq.chat_completions'`): the key under which the fields a server adds to its message and
   * tool calls (a gateway's `extra_content`, OpenRouter's `reasoning_details`) are kept in the
   * transcript, and sent back from on later turns. Data under another key is never sent.
   */
  readonly providerDataKey: string;
  protected readonly options: ChatCompletionsAdapterOptions;
  private readonly connection: AdapterConnection<OpenAIClient>;

  protected constructor(options: ChatCompletionsAdapterOptions, defaults: ProviderDefaults) {
    this.connection = new AdapterConnection(options, defaults, openaiWire());
    this.options = options;
    this.provider = this.connection.provider;
    this.providerDataKey = `${this.provider}.chat_completions`;
    this.model = options.model;
    this.contextWindowTokens = contextWindowOption(options);
  }

  /**
   * The `openai` client every request goes through: the injected `client`, or the one the adapter
   * builds from its options for its first request (loading the `openai` package then).
   *
   * @throws {MissingDependencyError} when the adapter builds its client and `openai` is not installed.
   * @throws {InvalidArgumentError} in a browser, without `dangerouslyAllowBrowser: true`.
   */
  getClient(): Promise<OpenAIClient> {
    return this.connection.getClient();
  }

  /** Builds the request body; throws before any request when the options cannot work together. */
  protected abstract buildBody(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions,
    stream: boolean,
  ): Record<string, unknown>;

  /** Sends the transcript and resolves to the whole response. */
  async call(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions = {},
  ): Promise<ModelResponse> {
    const body = this.buildBody(messages, tools, options, false);
    const { client } = await this.connection.connect();
    return callWithRetries(this.connection.attempts(client, options.signal), async (deadline) => {
      const response = await client.chat.completions.create(body, requestOptions(deadline)).asResponse();
      const origin = this.connection.origin(response);
      return this.parseJson(await readBody(response, origin), origin);
    });
  }

  /**
   * Streams the response (`stream: true`, `stream_options.include_usage`): deltas in the order
   * they arrive, then one `response` identical to what `call` returns. A server that answers
   * JSON instead is read as the same deltas at once. Aborting stops reading at once and throws
   * the signal's reason. Deltas already yielded cannot be taken back: once one is out, a failure
   * is thrown rather than retried.
   */
  async *stream(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions = {},
  ): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const body = this.buildBody(messages, tools, options, true);
    const { client, decodeEvents } = await this.connection.connect();
    yield* streamWithRetries(this.connection.attempts(client, options.signal), (deadline) =>
      streamAttemptEvents({
        send: () => client.chat.completions.create(body, requestOptions(deadline)).asResponse(),
        origin: (response) => this.connection.origin(response),
        deadline,
        signal: options.signal,
        decodeEvents,
        parseJson: (json, origin) => this.parseJson(json, origin),
        assembler: (origin) => this.assembler(origin),
      }),
    );
  }

  /** The response of a JSON body. */
  private parseJson(text: string, origin: ResponseOrigin): ModelResponse {
    const result = parseCompletion(text, origin, this.providerDataKey);
    this.checkFinishReason(result);
    return result;
  }

  /** Assembles streamed chunks; the stream ends at `[DONE]` or when the body does. */
  private assembler(origin: ResponseOrigin): StreamAssembler {
    const accumulator = new StreamAccumulator(this.providerDataKey);
    return {
      push: (chunk) => accumulator.push(chunk),
      finished: false,
      finish: (reader) => this.finishStream(origin, reader, accumulator),
    };
  }

  /**
   * The response a finished stream assembles to.
   *
   * @throws {StreamError} when it ended with neither a `finish_reason` nor `[DONE]`.
   */
  private finishStream(
    origin: ResponseOrigin,
    reader: SseChunkReader,
    accumulator: StreamAccumulator,
  ): ModelResponse {
    const result = accumulator.finish(origin.requestId);
    // Neither a finish_reason nor [DONE]: the connection was closed mid-answer.
    if (!reader.done && accumulator.finishReason === null) {
      throw new StreamError({
        ...originFields(origin),
        rawOutput: result,
        message: `${this.provider} ended the stream after ${reader.chunks} chunk${reader.chunks === 1 ? '' : 's'} without a finish_reason or [DONE]: the answer is truncated (the partial response is on rawOutput).`,
      });
    }
    this.checkFinishReason(result);
    return result;
  }

  private checkFinishReason(result: ModelResponse): void {
    if (result.finish_reason !== 'insufficient_system_resource') return;
    throw new InsufficientSystemResourceError({
      provider: this.provider,
      status: 200,
      ...(result.requestId === undefined ? {} : { requestId: result.requestId }),
      rawOutput: result,
      message: `${this.provider} stopped with finish_reason "insufficient_system_resource" (servers overloaded). Retry later.`,
    });
  }
}
