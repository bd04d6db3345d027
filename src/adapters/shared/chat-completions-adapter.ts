import type OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import { EmptyResponseError } from '../../errors/empty-response-error.js';
import { InsufficientSystemResourceError } from '../../errors/insufficient-system-resource-error.js';
import type { ChatMessage } from '../../model/messages.js';
import type {
  ModelAdapter,
  ModelCallOptions,
  ModelResponse,
  ModelStreamEvent,
  ModelToolDefinition,
} from '../../model/model-adapter.js';
import { abortReason, sleep } from './abort-reason.js';
import { countingFetchOptions, withAttemptCounting } from './attempt-counting-client.js';
import type { AttemptCounter } from './attempt-counting-client.js';
import type { ChatCompletionsAdapterOptions } from './chat-completions-options.js';
import { createClient } from './create-client.js';
import type { ProviderDefaults } from './create-client.js';
import { parseCompletion } from './parse-completion.js';
import { StreamAccumulator } from './stream-accumulator.js';
import { isModelProviderError, toProviderError } from './to-provider-error.js';

/**
 * A `ModelAdapter` over `client.chat.completions.create`, shared by the OpenAI and DeepSeek
 * adapters. It never uses the client's `runTools` or `ChatCompletionStream` helpers: they drop or
 * truncate `reasoning_content`. Subclasses build the request body.
 */
export abstract class ChatCompletionsAdapter implements ModelAdapter {
  readonly provider: string;
  /** The `openai` client every request goes through. */
  readonly client: OpenAI;
  protected readonly options: ChatCompletionsAdapterOptions;
  private readonly defaults: ProviderDefaults;
  /** `client` with a `fetch` that counts attempts, so our retries and the client's share one budget. */
  private readonly countingClient: OpenAI;

  protected constructor(options: ChatCompletionsAdapterOptions, defaults: ProviderDefaults) {
    this.client = createClient(options, defaults);
    this.countingClient = withAttemptCounting(this.client);
    this.options = options;
    this.defaults = defaults;
    this.provider = defaults.provider;
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
    let retriesLeft = this.maxRetries;
    for (let retry = 0; ; retry += 1) {
      const counter: AttemptCounter = { attempts: 0 };
      try {
        const response = await this.countingClient.chat.completions
          .create(
            body as unknown as ChatCompletionCreateParamsNonStreaming,
            this.requestOptions(signal, retriesLeft, counter),
          )
          .asResponse();
        const requestId = response.headers.get('x-request-id') ?? undefined;
        const result = parseCompletion(await response.text(), { provider: this.provider, requestId });
        this.checkFinishReason(result);
        return result;
      } catch (error) {
        const failure = this.toFailure(error, signal);
        retriesLeft -= clientRetries(counter);
        if (!this.isOurRetry(failure) || retriesLeft <= 0) throw failure;
        retriesLeft -= 1;
        await sleep(this.retryDelay(retry), signal);
      }
    }
  }

  /**
   * Streams the response (`stream: true`, `stream_options.include_usage`): deltas in the order
   * they arrive, then one `response` identical to what `call` returns. Aborting stops reading at
   * once and throws the signal's reason.
   */
  async *stream(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions = {},
  ): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const body = this.buildBody(messages, tools, options, true);
    const signal = options.signal;
    let retriesLeft = this.maxRetries;
    for (let retry = 0; ; retry += 1) {
      const accumulator = new StreamAccumulator();
      const counter: AttemptCounter = { attempts: 0 };
      let emitted = false;
      try {
        const { data, response } = await this.countingClient.chat.completions
          .create(
            body as unknown as ChatCompletionCreateParamsStreaming,
            this.requestOptions(signal, retriesLeft, counter),
          )
          .withResponse();
        const requestId = response.headers.get('x-request-id') ?? undefined;
        for await (const chunk of data) {
          // Leaving the loop aborts the HTTP request; the client ends the iteration silently on abort.
          if (isAborted(signal)) break;
          for (const event of accumulator.push(chunk)) {
            // One chunk can hold several deltas: stop between them too.
            if (isAborted(signal)) break;
            emitted = true;
            yield event;
          }
          if (isAborted(signal)) break;
        }
        if (isAborted(signal)) throw abortReason(signal);
        if (accumulator.chunkCount === 0) {
          throw new EmptyResponseError({
            provider: this.provider,
            status: 200,
            ...(requestId === undefined ? {} : { requestId }),
            message: `${this.provider} ended the stream without a single chunk.`,
          });
        }
        const result = accumulator.finish(requestId);
        this.checkFinishReason(result);
        yield { type: 'response', response: result };
        return;
      } catch (error) {
        const failure = this.toFailure(error, signal);
        retriesLeft -= clientRetries(counter);
        // Once deltas are out, a retry would emit them twice: the caller decides.
        if (emitted || !this.isOurRetry(failure) || retriesLeft <= 0) throw failure;
        retriesLeft -= 1;
        await sleep(this.retryDelay(retry), signal);
      }
    }
  }

  private get maxRetries(): number {
    return this.options.maxRetries ?? this.client.maxRetries;
  }

  private requestOptions(
    signal: AbortSignal | undefined,
    maxRetries: number,
    counter: AttemptCounter,
  ): OpenAI.RequestOptions {
    return {
      maxRetries,
      fetchOptions: countingFetchOptions(counter),
      ...(signal === undefined ? {} : { signal }),
    };
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

  private toFailure(error: unknown, signal: AbortSignal | undefined): unknown {
    if (signal?.aborted === true) return abortReason(signal);
    return toProviderError(error, {
      provider: this.provider,
      environmentVariable: this.defaults.environmentVariable,
    });
  }

  /** The cases the `openai` client does not retry itself. */
  private isOurRetry(error: unknown): boolean {
    return (
      isModelProviderError(error) &&
      (error.code === 'empty_response' || error.code === 'insufficient_system_resource')
    );
  }

  private retryDelay(retry: number): number {
    return Math.min((this.options.retryBaseDelayMs ?? 500) * 2 ** retry, 8000);
  }
}

/** Retries the client made itself within one call: attempts beyond the first. */
function clientRetries(counter: AttemptCounter): number {
  return Math.max(0, counter.attempts - 1);
}

function isAborted(signal: AbortSignal | undefined): signal is AbortSignal {
  return signal?.aborted === true;
}
