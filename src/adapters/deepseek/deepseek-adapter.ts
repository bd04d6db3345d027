import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { ChatMessage } from '../../model/messages.js';
import type { ModelCallOptions, ModelToolDefinition, ToolChoice } from '../../model/model-adapter.js';
import { buildRequestBody } from '../shared/build-request-body.js';
import type { ReasoningReplay } from '../shared/build-request-body.js';
import { ChatCompletionsAdapter } from '../shared/chat-completions-adapter.js';
import type { ChatCompletionsAdapterOptions } from '../shared/chat-completions-options.js';

/** Options of {@link DeepSeekAdapter}. */
export interface DeepSeekAdapterOptions extends ChatCompletionsAdapterOptions {
  /**
   * Thinking mode, always sent explicitly as `thinking: { type }`. In thinking mode DeepSeek
   * rejects a forced tool (`toolChoice: 'required'` or a named function) and `json_schema`;
   * the adapter throws before sending.
   * @default 'enabled'
   */
  readonly thinking?: 'enabled' | 'disabled';
  /**
   * Which earlier assistant messages carry `reasoning_content`. DeepSeek answers 400 when a
   * request with `tools` omits it from any earlier assistant message; R1-era models answered 400
   * when it was present.
   * @default 'all' when thinking is on and the request carries tools, else 'none'
   */
  readonly reasoningReplay?: ReasoningReplay;
}

/**
 * A `ModelAdapter` for the DeepSeek API (`deepseek-v4-flash`, `deepseek-v4-pro`, or any newer
 * name: none is hard-coded). Sends `thinking` explicitly and replays `reasoning_content` as the
 * API requires; retries `insufficient_system_resource` and blank answers within `maxRetries`.
 * It has no native structured output (`supportsResponseFormat` is false): DeepSeek documents
 * `json_object` only, with no schema.
 *
 * @throws {MissingApiKeyError} from the constructor when there is no client, no `apiKey` and no `DEEPSEEK_API_KEY`.
 * @throws {InvalidArgumentError} when thinking mode meets a forced tool or `json_schema`.
 * @example
 * const adapter = new DeepSeekAdapter({ model: 'deepseek-v4-flash', thinking: 'enabled' });
 */
export class DeepSeekAdapter extends ChatCompletionsAdapter {
  declare protected readonly options: DeepSeekAdapterOptions;
  /**
   * False: DeepSeek documents JSON output (`json_object`) but no schema, so the orchestrator asks
   * for a typed output through a final-answer tool, and a call's `responseFormat` is not sent.
   */
  readonly supportsResponseFormat = false;

  constructor(options: DeepSeekAdapterOptions) {
    super(options, {
      provider: 'deepseek',
      environmentVariable: 'DEEPSEEK_API_KEY',
      baseURL: 'https://api.deepseek.com',
      keyHosts: ['api.deepseek.com'],
    });
    const thinking = options.thinking ?? 'enabled';
    if (thinking !== 'enabled' && thinking !== 'disabled') {
      throw new InvalidArgumentError({
        argument: 'thinking',
        value: thinking,
        message: "use 'enabled' or 'disabled'",
      });
    }
    if (thinking === 'enabled' && options.responseFormat?.type === 'json_schema') {
      throw new InvalidArgumentError({
        argument: 'responseFormat',
        value: options.responseFormat.type,
        message:
          "DeepSeek rejects json_schema in thinking mode: use { type: 'json_object' } or thinking: 'disabled'",
      });
    }
    if (options.toolChoice !== undefined) this.checkToolChoice(options.toolChoice);
  }

  protected override buildBody(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions,
    stream: boolean,
  ): Record<string, unknown> {
    const toolChoice = options.toolChoice ?? this.options.toolChoice;
    if (toolChoice !== undefined && tools.length > 0) this.checkToolChoice(toolChoice);
    const thinking = this.options.thinking ?? 'enabled';
    const reasoningReplay =
      this.options.reasoningReplay ?? (thinking === 'enabled' && tools.length > 0 ? 'all' : 'none');
    return buildRequestBody({
      options: this.options,
      messages,
      tools,
      toolChoice,
      providerDataKey: this.providerDataKey,
      reasoningReplay,
      providerFields: { thinking: { type: thinking } },
      stream,
      acceptedParts: 'text',
      provider: this.provider,
    });
  }

  private checkToolChoice(toolChoice: ToolChoice): void {
    if ((this.options.thinking ?? 'enabled') !== 'enabled') return;
    if (toolChoice === 'auto' || toolChoice === 'none') return;
    throw new InvalidArgumentError({
      argument: 'toolChoice',
      value: toolChoice,
      message:
        "DeepSeek rejects a forced tool in thinking mode: use 'auto' or 'none', or create the adapter with thinking: 'disabled'",
    });
  }
}
