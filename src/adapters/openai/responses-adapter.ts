import { EmptyResponseError } from '../../errors/empty-response-error.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { ChatMessage } from '../../model/messages.js';
import type {
  ModelAdapter,
  ModelCallOptions,
  ModelResponse,
  ModelStreamEvent,
  ModelToolDefinition,
} from '../../model/model-adapter.js';
import { abortReason } from '../shared/abort-reason.js';
import { startAttemptDeadline } from '../shared/attempt-deadline.js';
import type { AttemptDeadline } from '../shared/attempt-deadline.js';
import { clientSource, connectClient } from '../shared/create-client.js';
import type { ClientConnection, ClientSource, ProviderDefaults } from '../shared/create-client.js';
import { knownContextWindow } from '../shared/model-context-windows.js';
import type { OpenAIRequestOptions, OpenAIResponsesClient } from '../shared/openai-client.js';
import { originFields } from '../shared/parse-completion.js';
import type { ResponseOrigin } from '../shared/parse-completion.js';
import { providerName } from '../shared/provider-name.js';
import { readBody } from '../shared/read-body.js';
import { attemptFailure, waitToRetry } from '../shared/retry-policy.js';
import type { RetrySettings } from '../shared/retry-policy.js';
import { SseChunkReader, streamEnd } from '../shared/sse-chunk-reader.js';
import { responsesDataKey } from './responses-input.js';
import { validateResponsesOptions } from './responses-options.js';
import type { OpenAIResponsesAdapterOptions } from './responses-options.js';
import { buildResponsesBody } from './responses-request.js';
import { parseResponsesBody } from './responses-output.js';
import { ResponsesStreamAccumulator } from './responses-stream-accumulator.js';

const defaults: ProviderDefaults = {
  provider: 'openai',
  environmentVariable: 'OPENAI_API_KEY',
  keyHosts: ['api.openai.com'],
};

/** The `openai` client's own default, when neither `baseURL` nor `OPENAI_BASE_URL` names another. */
const defaultBaseURL = 'https://api.openai.com/v1';

/**
 * A `ModelAdapter` for the OpenAI Responses API (`client.responses.create`), the API OpenAI's
 * reasoning models keep their reasoning through between tool turns. Each assistant turn is sent
 * back as the output items OpenAI returned, in its order: reasoning items whole (with their
 * encrypted content under the default `store: false`), message items, `function_call` items; tool
 * results as `function_call_output` items. What OpenAI needs back is kept in the transcript under
 * `providerData['openai.responses']`.
 *
 * Retries, timeouts, abort and errors work as in the Chat Completions adapters: the client sends
 * each request, the adapter reads the body, bounds each attempt by `timeout` and retries.
 *
 * @throws {MissingApiKeyError} from the constructor when there is no client, no `apiKey` and no `OPENAI_API_KEY`.
 * @throws {InvalidArgumentError} from the constructor when an option has a value it cannot take.
 * @example
 * const adapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', reasoning: { effort: 'low', summary: 'auto' } });
 */
export class OpenAIResponsesAdapter implements ModelAdapter {
  readonly provider: string;
  /** The model every request asks for (the `model` option). */
  readonly model: string;
  /** The model's context window in tokens, when known (the `contextWindowTokens` option, else the published one). */
  readonly contextWindowTokens: number | undefined;
  /** Provider data of this adapter is kept, and read back, under `'openai.responses'`. */
  readonly providerDataKey = responsesDataKey;
  private readonly options: OpenAIResponsesAdapterOptions;
  private readonly clientSource: ClientSource<OpenAIResponsesClient>;
  private connection: Promise<ClientConnection<OpenAIResponsesClient>> | undefined;
  /** Where requests go, when known: named in connection errors (its origin only). */
  private readonly baseURL: string | undefined;

  constructor(options: OpenAIResponsesAdapterOptions) {
    this.clientSource = clientSource(options, defaults);
    validateResponsesOptions(options);
    this.options = options;
    this.baseURL =
      'client' in this.clientSource
        ? clientBaseURL(this.clientSource.client)
        : (this.clientSource.settings.baseURL ?? defaultBaseURL);
    this.provider = providerName(options.provider, this.baseURL, defaults.provider);
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
  async getClient(): Promise<OpenAIResponsesClient> {
    if ('client' in this.clientSource) return this.clientSource.client;
    return (await this.connect()).client;
  }

  /** Sends the transcript and resolves to the whole response. */
  async call(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions = {},
  ): Promise<ModelResponse> {
    const body = this.body(messages, tools, options, false);
    const signal = options.signal;
    const { client } = await this.connect();
    const settings = this.retrySettings(client);
    for (let retry = 0; ; retry += 1) {
      const attempt = startAttemptDeadline(signal, client.timeout);
      let failure: unknown;
      try {
        const response = await client.responses.create(body, requestOptions(attempt)).asResponse();
        const origin = this.origin(response);
        return parseResponsesBody(await readBody(response, origin), origin);
      } catch (error) {
        failure = attemptFailure(error, signal, attempt, 'call', settings);
      } finally {
        attempt.dispose();
      }
      await waitToRetry(failure, retry, signal, settings);
    }
  }

  /**
   * Streams the response (`stream: true`): deltas in the order they arrive, then one `response`
   * identical to what `call` returns. A server that answers JSON instead is read as the same
   * deltas at once. Aborting stops reading at once and throws the signal's reason. Once a delta is
   * out, a failure is thrown rather than retried.
   */
  async *stream(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions = {},
  ): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const body = this.body(messages, tools, options, true);
    const signal = options.signal;
    const { client, decodeEvents } = await this.connect();
    const settings = this.retrySettings(client);
    for (let retry = 0; ; retry += 1) {
      const attempt = startAttemptDeadline(signal, client.timeout);
      let emitted = false;
      let failure: unknown;
      try {
        const response = await client.responses.create(body, requestOptions(attempt)).asResponse();
        const origin = this.origin(response);
        if (isJsonResponse(response)) {
          for (const event of jsonEvents(parseResponsesBody(await readBody(response, origin), origin))) {
            if (isAborted(signal)) break;
            emitted ||= event.type !== 'response';
            yield event;
          }
        } else {
          const reader = new SseChunkReader(response, origin, () => attempt.restart(), decodeEvents);
          const accumulator = new ResponsesStreamAccumulator(origin);
          try {
            for (let event = await reader.next(); event !== streamEnd; event = await reader.next()) {
              // An event yields at most one stream event: the abort is checked after each.
              for (const streamEvent of accumulator.push(event)) {
                emitted = true;
                yield streamEvent;
              }
              if (isAborted(signal) || accumulator.finished) break;
            }
          } finally {
            await reader.close();
          }
          if (!isAborted(signal)) {
            if (reader.chunks === 0) throw emptyStream(origin);
            yield { type: 'response', response: accumulator.finish(reader.chunks) };
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

  /** The request body; throws before any request when a tool cannot be sent. */
  private body(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions,
    stream: boolean,
  ): Record<string, unknown> {
    return buildResponsesBody({
      options: this.options,
      messages,
      tools,
      toolChoice: options.toolChoice ?? this.options.toolChoice,
      stream,
    });
  }

  /** The client and the `openai` package's SSE parser, loaded on the first request. */
  private connect(): Promise<ClientConnection<OpenAIResponsesClient>> {
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

  private retrySettings(client: OpenAIResponsesClient): RetrySettings {
    return {
      provider: this.provider,
      environmentVariable: defaults.environmentVariable,
      baseURL: this.baseURL,
      maxRetries: this.options.maxRetries ?? client.maxRetries,
      maxRetryDelayMs: this.options.maxRetryDelayMs ?? 60_000,
      retryBaseDelayMs: this.options.retryBaseDelayMs ?? 500,
    };
  }

  private origin(response: Response): ResponseOrigin {
    return { provider: this.provider, requestId: response.headers.get('x-request-id') ?? undefined };
  }
}

function requestOptions(attempt: AttemptDeadline): OpenAIRequestOptions {
  // The client's retries sleep without watching the signal: the adapter retries instead.
  return { maxRetries: 0, signal: attempt.signal };
}

/** A JSON answer to a streaming request, as the events of a stream. */
function jsonEvents(result: ModelResponse): ModelStreamEvent[] {
  const events: ModelStreamEvent[] = [];
  for (const part of result.reasoning ?? []) {
    if (part.text !== undefined) events.push({ type: 'reasoning_delta', delta: part.text });
  }
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

function emptyStream(origin: ResponseOrigin): EmptyResponseError {
  return new EmptyResponseError({
    ...originFields(origin),
    status: 200,
    message: `${origin.provider} ended the stream without a single event.`,
  });
}

function isJsonResponse(response: Response): boolean {
  const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType.includes('application/json') || mediaType.endsWith('+json');
}

function isAborted(signal: AbortSignal | undefined): signal is AbortSignal {
  return signal?.aborted === true;
}

/** The base URL requests go to: an injected client of another major, or a stand-in, may lack one. */
function clientBaseURL(client: OpenAIResponsesClient): string | undefined {
  const baseURL: unknown = (client as { baseURL?: unknown }).baseURL;
  return typeof baseURL === 'string' ? baseURL : undefined;
}
