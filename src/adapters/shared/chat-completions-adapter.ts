import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { EmptyResponseError } from '../../errors/empty-response-error.js';
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
import { abortReason } from './abort-reason.js';
import { startAttemptDeadline } from './attempt-deadline.js';
import type { AttemptDeadline } from './attempt-deadline.js';
import type { ChatCompletionsAdapterOptions } from './chat-completions-options.js';
import { clientSource, connectClient } from './create-client.js';
import type { ClientConnection, ClientSource, ProviderDefaults } from './create-client.js';
import { knownContextWindow } from './model-context-windows.js';
import { providerName } from './provider-name.js';
import type { OpenAIClient, OpenAIRequestOptions } from './openai-client.js';
import { originFields, parseCompletion } from './parse-completion.js';
import type { ResponseOrigin } from './parse-completion.js';
import { readBody } from './read-body.js';
import { attemptFailure, waitToRetry } from './retry-policy.js';
import type { RetrySettings } from './retry-policy.js';
import { SseChunkReader, streamEnd } from './sse-chunk-reader.js';
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
  private readonly defaults: ProviderDefaults;
  private readonly clientSource: ClientSource;
  private connection: Promise<ClientConnection> | undefined;
  /** Where requests go, when known: named in connection errors (its origin only). */
  private readonly baseURL: string | undefined;

  protected constructor(options: ChatCompletionsAdapterOptions, defaults: ProviderDefaults) {
    this.clientSource = clientSource(options, defaults);
    this.options = options;
    this.defaults = defaults;
    this.baseURL =
      'client' in this.clientSource
        ? clientBaseURL(this.clientSource.client)
        : (this.clientSource.settings.baseURL ?? defaultBaseURL);
    this.provider = providerName(options.provider, this.baseURL, defaults.provider);
    this.providerDataKey = `${this.provider}.chat_completions`;
    this.model = options.model;
    const window = options.contextWindowTokens;
    if (window !== undefined && !(typeof window === 'number' && Number.isInteger(window) && window > 0)) {
      throw new InvalidArgumentError({
        argument: 'contextWindowTokens',
        value: window,
        message: "must be a positive integer: the model's context window in tokens.",
      });
    }
    this.contextWindowTokens = window ?? knownContextWindow(options.model);
  }

  /**
   * The `openai` client every request goes through: the injected `client`, or the one the adapter
   * builds from its options for its first request (loading the `openai` package then).
   *
   * @throws {MissingDependencyError} when the adapter builds its client and `openai` is not installed.
   * @throws {InvalidArgumentError} in a browser, without `dangerouslyAllowBrowser: true`.
   */
  async getClient(): Promise<OpenAIClient> {
    if ('client' in this.clientSource) return this.clientSource.client;
    return (await this.connect()).client;
  }

  /** The client and the `openai` package's SSE parser, loaded on the first request. */
  private connect(): Promise<ClientConnection> {
    if (this.connection === undefined) {
      const connecting = connectClient(this.clientSource);
      this.connection = connecting;
      // A failed load is tried again on the next request (the user may install openai meanwhile).
      connecting.catch(() => {
        if (this.connection === connecting) this.connection = undefined;
      });
    }
    return this.connection;
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
    const signal = options.signal;
    const { client } = await this.connect();
    const settings = this.retrySettings(client);
    for (let retry = 0; ; retry += 1) {
      const attempt = this.startAttempt(signal, client);
      let failure: unknown;
      try {
        const response = await client.chat.completions
          .create(body, this.requestOptions(attempt))
          .asResponse();
        const origin = this.origin(response);
        const result = parseCompletion(await readBody(response, origin), origin, this.providerDataKey);
        this.checkFinishReason(result);
        return result;
      } catch (error) {
        failure = attemptFailure(error, signal, attempt, 'call', settings);
      } finally {
        attempt.dispose();
      }
      await waitToRetry(failure, retry, signal, settings);
    }
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
    const signal = options.signal;
    const { client, decodeEvents } = await this.connect();
    const settings = this.retrySettings(client);
    for (let retry = 0; ; retry += 1) {
      const attempt = this.startAttempt(signal, client);
      let emitted = false;
      let failure: unknown;
      try {
        const response = await client.chat.completions
          .create(body, this.requestOptions(attempt))
          .asResponse();
        const origin = this.origin(response);
        if (isJsonResponse(response)) {
          for (const event of await this.jsonEvents(response, origin)) {
            if (isAborted(signal)) break;
            emitted ||= event.type !== 'response';
            yield event;
          }
        } else {
          // One await per chunk and no generator in between: this is the hot path of every delta.
          const reader = new SseChunkReader(response, origin, () => attempt.restart(), decodeEvents);
          const accumulator = new StreamAccumulator(this.providerDataKey);
          try {
            for (let chunk = await reader.next(); chunk !== streamEnd; chunk = await reader.next()) {
              for (const event of accumulator.push(chunk)) {
                if (isAborted(signal)) break;
                emitted = true;
                yield event;
              }
              if (isAborted(signal)) break;
            }
          } finally {
            // Cancels the body when the loop was left early.
            await reader.close();
          }
          if (!isAborted(signal)) {
            yield { type: 'response', response: this.finishStream(response, origin, reader, accumulator) };
          }
        }
        if (isAborted(signal)) throw abortReason(signal);
        return;
      } catch (error) {
        failure = attemptFailure(error, signal, attempt, 'stream', settings);
      } finally {
        attempt.dispose();
      }
      if (emitted) throw failure;
      await waitToRetry(failure, retry, signal, settings);
    }
  }

  /**
   * The response a finished stream assembles to.
   *
   * @throws {EmptyResponseError} when the stream held no chunk.
   * @throws {StreamError} when it ended with neither a `finish_reason` nor `[DONE]`.
   */
  private finishStream(
    response: Response,
    origin: ResponseOrigin,
    reader: SseChunkReader,
    accumulator: StreamAccumulator,
  ): ModelResponse {
    if (reader.chunks === 0) throw this.emptyStream(response, origin);
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

  /** A JSON answer to a streaming request (some compatible servers ignore `stream`), as the events of a stream. */
  private async jsonEvents(response: Response, origin: ResponseOrigin): Promise<ModelStreamEvent[]> {
    const result = parseCompletion(await readBody(response, origin), origin, this.providerDataKey);
    this.checkFinishReason(result);
    const events: ModelStreamEvent[] = [];
    if (typeof result.reasoning_content === 'string' && result.reasoning_content !== '')
      events.push({ type: 'reasoning_delta', delta: result.reasoning_content });
    if (result.content !== null) events.push({ type: 'content_delta', delta: result.content });
    for (const [index, toolCall] of (result.tool_calls ?? []).entries()) {
      events.push({
        type: 'tool_call_delta',
        index,
        id: toolCall.id,
        name: toolCall.function.name,
        argumentsDelta: toolCall.function.arguments,
      });
    }
    events.push({ type: 'response', response: result });
    return events;
  }

  private emptyStream(response: Response, origin: ResponseOrigin): EmptyResponseError {
    const contentType = response.headers.get('content-type');
    const notAStream =
      contentType !== null && !contentType.toLowerCase().includes('text/event-stream')
        ? ` (it answered with content-type ${JSON.stringify(contentType)}, not an event stream: check baseURL)`
        : '';
    return new EmptyResponseError({
      ...originFields(origin),
      status: 200,
      message: `${this.provider} ended the stream without a single chunk${notAStream}.`,
    });
  }

  private retrySettings(client: OpenAIClient): RetrySettings {
    return {
      provider: this.provider,
      environmentVariable: this.defaults.environmentVariable,
      baseURL: this.baseURL,
      maxRetries: this.options.maxRetries ?? client.maxRetries,
      maxRetryDelayMs: this.options.maxRetryDelayMs ?? 60_000,
      retryBaseDelayMs: this.options.retryBaseDelayMs ?? 500,
    };
  }

  private startAttempt(signal: AbortSignal | undefined, client: OpenAIClient): AttemptDeadline {
    return startAttemptDeadline(signal, client.timeout);
  }

  private requestOptions(attempt: AttemptDeadline): OpenAIRequestOptions {
    // The client's retries sleep without watching the signal: the adapter retries instead.
    return { maxRetries: 0, signal: attempt.signal };
  }

  private origin(response: Response): ResponseOrigin {
    return { provider: this.provider, requestId: response.headers.get('x-request-id') ?? undefined };
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

function isJsonResponse(response: Response): boolean {
  const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType.includes('application/json') || mediaType.endsWith('+json');
}

function isAborted(signal: AbortSignal | undefined): signal is AbortSignal {
  return signal?.aborted === true;
}

/** The `openai` client's own default, when neither `baseURL` nor `OPENAI_BASE_URL` names another. */
const defaultBaseURL = 'https://api.openai.com/v1';

/** The base URL requests go to: an injected client of another major, or a stand-in, may lack one. */
function clientBaseURL(client: OpenAIClient): string | undefined {
  const baseURL: unknown = (client as { baseURL?: unknown }).baseURL;
  return typeof baseURL === 'string' ? baseURL : undefined;
}
