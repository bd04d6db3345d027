import type { ChatMessage } from '../../model/messages.js';
import type { ModelCallOptions, ModelToolDefinition } from '../../model/model-adapter.js';
import { buildRequestBody } from '../shared/build-request-body.js';
import { ChatCompletionsAdapter } from '../shared/chat-completions-adapter.js';
import type { ChatCompletionsAdapterOptions } from '../shared/chat-completions-options.js';

/** Options of {@link OpenAIAdapter}. */
export interface OpenAIAdapterOptions extends ChatCompletionsAdapterOptions {
  /** Sent as `reasoning_effort` (OpenAI reasoning models). @default not sent */
  readonly reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high' | (string & {});
}

/**
 * A `ModelAdapter` for the OpenAI Chat Completions API and any server that speaks it (vLLM,
 * Ollama, llama.cpp, OpenRouter) through `baseURL`. It strips `reasoning_content` from the
 * messages it sends, and keeps any `reasoning_content` a compatible server returns.
 *
 * @throws {MissingApiKeyError} from the constructor when there is no client, no `apiKey` and no `OPENAI_API_KEY`.
 * @example
 * const adapter = new OpenAIAdapter({ model: 'gpt-5-mini' });
 * const local = new OpenAIAdapter({ model: 'qwen3:8b', baseURL: 'http://localhost:11434/v1', apiKey: 'ollama' });
 */
export class OpenAIAdapter extends ChatCompletionsAdapter {
  declare protected readonly options: OpenAIAdapterOptions;

  constructor(options: OpenAIAdapterOptions) {
    // No default baseURL: the client then reads OPENAI_BASE_URL, else api.openai.com.
    super(options, {
      provider: 'openai',
      environmentVariable: 'OPENAI_API_KEY',
      keyHosts: ['api.openai.com'],
    });
  }

  protected override buildBody(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions,
    stream: boolean,
  ): Record<string, unknown> {
    const reasoningEffort = this.options.reasoningEffort;
    return buildRequestBody({
      options: this.options,
      messages,
      tools,
      toolChoice: options.toolChoice ?? this.options.toolChoice,
      providerDataKey: this.providerDataKey,
      reasoningReplay: 'none',
      acceptedParts: 'text_and_media',
      provider: this.provider,
      ...(reasoningEffort === undefined ? {} : { providerFields: { reasoning_effort: reasoningEffort } }),
      stream,
    });
  }
}
