import type { ChatMessage } from '../../model/messages.js';
import type { ModelCallOptions, ModelToolDefinition } from '../../model/model-adapter.js';
import { buildRequestBody } from '../shared/build-request-body.js';
import { checkResponseFormat, nativeStructuredOutputOption } from '../shared/response-format.js';
import { ChatCompletionsAdapter } from '../shared/chat-completions-adapter.js';
import type { ChatCompletionsAdapterOptions } from '../shared/chat-completions-options.js';

/** Options of {@link OpenAIAdapter}. */
export interface OpenAIAdapterOptions extends ChatCompletionsAdapterOptions {
  /** Sent as `reasoning_effort` (OpenAI reasoning models). @default not sent */
  readonly reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high' | (string & {});
  /**
   * Send a call's `responseFormat` as `response_format: { type: 'json_schema', json_schema }`
   * (OpenAI's Structured Outputs). `false` for a model or an OpenAI-compatible server that refuses
   * `json_schema`: the adapter then sends no `response_format` for a call's `responseFormat`, and
   * `supportsResponseFormat` is false, so the orchestrator asks for a typed output through a
   * final-answer tool instead.
   * @default true
   */
  readonly nativeStructuredOutput?: boolean;
}

/**
 * A `ModelAdapter` for the OpenAI Chat Completions API and any server that speaks it (vLLM,
 * Ollama, llama.cpp, OpenRouter) through `baseURL`. It strips `reasoning_content` from the
 * messages it sends, and keeps any `reasoning_content` a compatible server returns. A call's
 * `responseFormat` goes out as Structured Outputs (`response_format`, `json_schema`), unless
 * `nativeStructuredOutput` is false.
 *
 * @throws {MissingApiKeyError} from the constructor when there is no client, no `apiKey` and no `OPENAI_API_KEY`.
 * @example
 * const adapter = new OpenAIAdapter({ model: 'gpt-5-mini' });
 * const local = new OpenAIAdapter({ model: 'qwen3:8b', baseURL: 'http://localhost:11434/v1', apiKey: 'ollama' });
 */
export class OpenAIAdapter extends ChatCompletionsAdapter {
  declare protected readonly options: OpenAIAdapterOptions;
  /**
   * True unless `nativeStructuredOutput` is false: a call's `responseFormat` is sent as
   * `response_format` (`json_schema`), its schema made strict when it asks for `strict: true`.
   */
  readonly supportsResponseFormat: boolean;

  constructor(options: OpenAIAdapterOptions) {
    // No default baseURL: the client then reads OPENAI_BASE_URL, else api.openai.com.
    super(options, {
      provider: 'openai',
      environmentVariable: 'OPENAI_API_KEY',
      keyHosts: ['api.openai.com'],
    });
    this.supportsResponseFormat = nativeStructuredOutputOption(options) ?? true;
  }

  protected override buildBody(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions,
    stream: boolean,
  ): Record<string, unknown> {
    const reasoningEffort = this.options.reasoningEffort;
    const responseFormat = this.supportsResponseFormat ? options.responseFormat : undefined;
    if (responseFormat !== undefined) checkResponseFormat(responseFormat);
    return buildRequestBody({
      options: this.options,
      messages,
      tools,
      toolChoice: options.toolChoice ?? this.options.toolChoice,
      responseFormat,
      providerDataKey: this.providerDataKey,
      reasoningReplay: 'none',
      acceptedParts: 'text_and_media',
      provider: this.provider,
      ...(reasoningEffort === undefined ? {} : { providerFields: { reasoning_effort: reasoningEffort } }),
      stream,
    });
  }
}
