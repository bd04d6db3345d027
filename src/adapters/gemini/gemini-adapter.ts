import type { ChatMessage } from '../../model/messages.js';
import type {
  ModelAdapter,
  ModelCallOptions,
  ModelResponse,
  ModelStreamEvent,
  ModelToolDefinition,
  ModelWarning,
} from '../../model/model-adapter.js';
import { AdapterConnection, contextWindowOption } from '../shared/adapter-connection.js';
import type { AttemptDeadline } from '../shared/attempt-deadline.js';
import type { ProviderDefaults } from '../shared/create-client.js';
import { isRecord } from '../shared/normalize-usage.js';
import { withWarnings } from '../shared/with-warnings.js';
import { callWithRetries, streamWithRetries } from '../shared/with-retries.js';
import type { GeminiClient, GeminiRequest } from './gemini-client.js';
import { defaultMaxRetries, defaultTimeoutMs, geminiWire } from './gemini-connect.js';
import type { GeminiHandle } from './gemini-connect.js';
import { fromGeminiError } from './gemini-error.js';
import { nativeStructuredOutputByDefault, validateGeminiOptions } from './gemini-options.js';
import { checkResponseFormat, nativeStructuredOutputOption } from '../shared/response-format.js';
import type { GeminiAdapterOptions } from './gemini-options.js';
import { notAResponse, toModelResponse } from './gemini-output.js';
import { buildGeminiRequest } from './gemini-request.js';
import { GeminiStreamAccumulator } from './gemini-stream-accumulator.js';
import { geminiDataKey } from './gemini-transcript.js';

/**
 * A `ModelAdapter` for the Gemini API (`models.generateContent` and
 * `models.generateContentStream`) over the official `@google/genai` client, version 2 (the line
 * that runs on Node 20). System messages go in `systemInstruction`; each model turn is sent back
 * as the parts Gemini returned, in its order, every `thoughtSignature` on the part it came on;
 * tool results as `functionResponse` parts, all the results of a turn in one user content. A call's
 * `responseFormat` goes out as `responseJsonSchema` on Gemini 3 and later (see
 * `nativeStructuredOutput`). What Gemini needs back is kept in the transcript under
 * `providerData['gemini.generate_content']`.
 *
 * Retries, timeouts, abort and errors work as in the other adapters: 429 (`RESOURCE_EXHAUSTED`),
 * 500 and 503 are retried, honouring the `RetryInfo` delay up to `maxRetryDelayMs`; "The input
 * token count exceeds the maximum" is a `ContextLengthError`.
 *
 * @throws {MissingApiKeyError} from the constructor when there is no client, no `apiKey`, no `GEMINI_API_KEY` and no `GOOGLE_API_KEY`.
 * @throws {InvalidArgumentError} from the constructor when an option has a value it cannot take.
 * @example
 * const adapter = new GeminiAdapter({
 *   model: 'gemini-3-flash-preview',
 *   thinking: { thinkingLevel: 'LOW', includeThoughts: true },
 * });
 */
export class GeminiAdapter implements ModelAdapter {
  readonly provider: string;
  /** The model every request asks for (the `model` option). */
  readonly model: string;
  /** The model's context window in tokens, when known (the `contextWindowTokens` option, else the published one). */
  readonly contextWindowTokens: number | undefined;
  /** Provider data of this adapter is kept, and read back, under `'gemini.generate_content'`. */
  readonly providerDataKey = geminiDataKey;
  /**
   * Whether a call's `responseFormat` is sent as `responseJsonSchema` (Gemini's structured
   * output): the `nativeStructuredOutput` option, else true for Gemini 3 and later models only.
   */
  readonly supportsResponseFormat: boolean;
  private readonly options: GeminiAdapterOptions;
  private readonly connection: AdapterConnection<GeminiHandle>;

  constructor(options: GeminiAdapterOptions) {
    const { client, ...rest } = options;
    this.connection = new AdapterConnection<GeminiHandle>(
      {
        ...rest,
        ...(client === undefined
          ? {}
          : {
              client: {
                genai: client,
                maxRetries: options.maxRetries ?? defaultMaxRetries,
                timeout: options.timeout ?? defaultTimeoutMs,
              },
            }),
      },
      providerDefaults(options),
      geminiWire,
    );
    validateGeminiOptions(options);
    this.supportsResponseFormat =
      nativeStructuredOutputOption(options) ?? nativeStructuredOutputByDefault(options.model);
    this.options = options;
    this.provider = this.connection.provider;
    this.model = options.model;
    this.contextWindowTokens = contextWindowOption(options);
  }

  /**
   * The `@google/genai` client every request goes through: the injected `client`, or the
   * `GoogleGenAI` the adapter builds from its options for its first request (loading the package then).
   *
   * @throws {MissingDependencyError} when the adapter builds its client and `@google/genai` is not installed.
   */
  async getClient(): Promise<GeminiClient> {
    return (await this.connection.getClient()).genai;
  }

  /** Sends the transcript and resolves to the whole response. */
  async call(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions = {},
  ): Promise<ModelResponse> {
    const { request, warnings } = this.request(messages, tools, options);
    const { client } = await this.connection.connect();
    const result = await callWithRetries(
      this.connection.attempts(client, options.signal),
      async (deadline) => {
        let response: object;
        try {
          response = await client.genai.models.generateContent(forAttempt(request, deadline));
        } catch (error) {
          throw fromGeminiError(error);
        }
        return toModelResponse(plain(response, this.provider), this.provider);
      },
    );
    return withWarnings(result, warnings);
  }

  /**
   * Streams the response (`streamGenerateContent`): deltas in the order they arrive, then one
   * `response` identical to what `call` returns for the same answer. Aborting stops reading at
   * once and throws the signal's reason. Once a delta is out, a failure is thrown rather than retried.
   */
  async *stream(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions = {},
  ): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const { request, warnings } = this.request(messages, tools, options);
    const { client } = await this.connection.connect();
    const events = streamWithRetries(this.connection.attempts(client, options.signal), (deadline) =>
      this.streamAttempt(client.genai, request, deadline),
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

  /** One streamed attempt: the chunks as deltas, then the assembled response. */
  private async *streamAttempt(
    genai: GeminiClient,
    request: GeminiRequest,
    deadline: AttemptDeadline,
  ): AsyncGenerator<ModelStreamEvent, void, undefined> {
    const accumulator = new GeminiStreamAccumulator(this.provider);
    try {
      const chunks = await genai.models.generateContentStream(forAttempt(request, deadline));
      for await (const chunk of chunks) {
        deadline.restart();
        for (const event of accumulator.add(plain(chunk, this.provider))) yield event;
      }
    } catch (error) {
      throw fromGeminiError(error);
    }
    yield { type: 'response', response: accumulator.finish() };
  }

  /** The request, and what it changed so the API would take it; throws before any request when a message cannot be sent. */
  private request(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions,
  ): { request: GeminiRequest; warnings: ModelWarning[] } {
    const warnings: ModelWarning[] = [];
    const responseFormat = this.supportsResponseFormat ? options.responseFormat : undefined;
    if (responseFormat !== undefined) checkResponseFormat(responseFormat);
    const request = buildGeminiRequest({
      options: this.options,
      messages,
      tools,
      toolChoice: options.toolChoice ?? this.options.toolChoice,
      responseFormat,
      warn: (warning) => warnings.push(warning),
    });
    return { request, warnings };
  }
}

/**
 * The key variable: `GEMINI_API_KEY`, else `GOOGLE_API_KEY` when only that one is set (the
 * `@google/genai` client reads both).
 */
function providerDefaults(options: GeminiAdapterOptions): ProviderDefaults {
  const environment = typeof process === 'undefined' ? {} : process.env;
  const googleOnly =
    options.apiKey === undefined &&
    (environment['GEMINI_API_KEY'] ?? '') === '' &&
    (environment['GOOGLE_API_KEY'] ?? '') !== '';
  return {
    provider: 'gemini',
    environmentVariable: googleOnly ? 'GOOGLE_API_KEY' : 'GEMINI_API_KEY',
    baseURLVariable: 'GOOGLE_GEMINI_BASE_URL',
    keyHosts: ['generativelanguage.googleapis.com'],
  };
}

/** The request of one attempt: its signal, and the client's own retries off (the adapter retries). */
function forAttempt(request: GeminiRequest, deadline: AttemptDeadline): GeminiRequest {
  return {
    ...request,
    config: {
      ...request.config,
      abortSignal: deadline.signal,
      httpOptions: { retryOptions: { attempts: 1 } },
    },
  };
}

/** The fields of a client response the adapter reads, as JSON. */
const responseFields = [
  'candidates',
  'usageMetadata',
  'promptFeedback',
  'modelVersion',
  'responseId',
] as const;

/**
 * A client response as a plain object of the fields the adapter reads. The client returns class
 * instances whose fields hold the parsed JSON; copying the whole instance through JSON for every
 * streamed chunk cost more than the rest of the adapter.
 */
function plain(response: object, provider: string): Readonly<Record<string, unknown>> {
  if (!isRecord(response)) throw notAResponse(response, provider);
  const value: Record<string, unknown> = {};
  for (const field of responseFields) if (response[field] !== undefined) value[field] = response[field];
  return value;
}
