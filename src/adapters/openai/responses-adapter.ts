import type { ChatMessage } from '../../model/messages.js';
import type {
  ModelAdapter,
  ModelCallOptions,
  ModelResponse,
  ModelStreamEvent,
  ModelToolDefinition,
} from '../../model/model-adapter.js';
import type { ProviderDefaults } from '../shared/create-client.js';
import type { OpenAIResponsesClient } from '../shared/openai-client.js';
import { openaiWire } from '../shared/openai-connect.js';
import { contextWindowOption, AdapterConnection, requestOptions } from '../shared/adapter-connection.js';
import { readBody } from '../shared/read-body.js';
import { checkResponseFormat, nativeStructuredOutputOption } from '../shared/response-format.js';
import { streamAttemptEvents } from '../shared/stream-attempt.js';
import { callWithRetries, streamWithRetries } from '../shared/with-retries.js';
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

/**
 * A `ModelAdapter` for the OpenAI Responses API (`client.responses.create`), the API OpenAI's
 * reasoning models keep their reasoning through between tool turns. Each assistant turn is sent
 * back as the output items OpenAI returned, in its order: reasoning items whole (with their
 * encrypted content under the default `store: false`), message items, `function_call` items; tool
 * results as `function_call_output` items. What OpenAI needs back is kept in the transcript under
 * `providerData['openai.responses']`. A call's `responseFormat` goes out as `text.format`
 * (`json_schema`), unless `nativeStructuredOutput` is false.
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
  /**
   * True unless `nativeStructuredOutput` is false: a call's `responseFormat` is sent as
   * `text.format` (`json_schema`), its schema made strict when it asks for `strict: true`.
   */
  readonly supportsResponseFormat: boolean;
  private readonly options: OpenAIResponsesAdapterOptions;
  private readonly connection: AdapterConnection<OpenAIResponsesClient>;

  constructor(options: OpenAIResponsesAdapterOptions) {
    this.connection = new AdapterConnection(options, defaults, openaiWire());
    validateResponsesOptions(options);
    this.supportsResponseFormat = nativeStructuredOutputOption(options) ?? true;
    this.options = options;
    this.provider = this.connection.provider;
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
  getClient(): Promise<OpenAIResponsesClient> {
    return this.connection.getClient();
  }

  /** Sends the transcript and resolves to the whole response. */
  async call(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions = {},
  ): Promise<ModelResponse> {
    const body = this.body(messages, tools, options, false);
    const { client } = await this.connection.connect();
    return callWithRetries(this.connection.attempts(client, options.signal), async (deadline) => {
      const response = await client.responses.create(body, requestOptions(deadline)).asResponse();
      const origin = this.connection.origin(response);
      return parseResponsesBody(await readBody(response, origin), origin);
    });
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
    const { client, decodeEvents } = await this.connection.connect();
    yield* streamWithRetries(this.connection.attempts(client, options.signal), (deadline) =>
      streamAttemptEvents({
        send: () => client.responses.create(body, requestOptions(deadline)).asResponse(),
        origin: (response) => this.connection.origin(response),
        deadline,
        signal: options.signal,
        decodeEvents,
        parseJson: parseResponsesBody,
        assembler: (origin) => new ResponsesStreamAccumulator(origin),
      }),
    );
  }

  /** The request body; throws before any request when a tool or the response format cannot be sent. */
  private body(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions,
    stream: boolean,
  ): Record<string, unknown> {
    const responseFormat = this.supportsResponseFormat ? options.responseFormat : undefined;
    if (responseFormat !== undefined) checkResponseFormat(responseFormat);
    return buildResponsesBody({
      options: this.options,
      messages,
      tools,
      toolChoice: options.toolChoice ?? this.options.toolChoice,
      responseFormat,
      stream,
    });
  }
}
