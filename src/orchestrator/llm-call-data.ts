import type { ChatMessage } from '../model/messages.js';
import type { ModelResponse } from '../model/model-adapter.js';
import type { Usage } from '../model/usage.js';
import type { TraceEventData } from '../tracing/trace-events.js';

type LlmCallEventData = TraceEventData['llm_call'];

/** What one model call sent and got back, for its `llm_call` event. */
export interface LlmCallFields {
  /** The adapter's `provider`, when it names one. */
  readonly provider: string | undefined;
  /** The adapter's `model`, when it names one. */
  readonly model: string | undefined;
  /** The array the call sent. */
  readonly sent: readonly ChatMessage[];
  /** True when `sent` is an array later calls append to (the transcript, the context window's view). */
  readonly sentGrows: boolean;
  readonly messageCount: number;
  readonly response: ModelResponse;
  readonly durationMs: number;
  readonly finalAnswer: boolean;
  /** Set only with `contextWindow` on. */
  readonly contextTokens: number | undefined;
}

/**
 * The data of an `llm_call` event. `messages` is an own, enumerable getter, so spreading or
 * serializing the data copies the messages as with a plain object; for an array later calls
 * append to, it copies the sent prefix on first read (copying it on every call made long runs
 * quadratic). A class, because an object literal with a getter closure is built property by
 * property in dictionary mode: about 1 µs a call, a tenth of a turn of the loop.
 */
export class LlmCallData implements LlmCallEventData {
  static readonly #messagesProperty: PropertyDescriptor = {
    get(this: LlmCallData): readonly ChatMessage[] {
      return this.#messages();
    },
    enumerable: true,
    configurable: true,
  };

  readonly #sent: readonly ChatMessage[];
  readonly #sentGrows: boolean;
  #copy: readonly ChatMessage[] | undefined;
  declare readonly provider?: string;
  declare readonly model?: string;
  declare readonly messages: readonly ChatMessage[];
  declare readonly messageCount: number;
  declare readonly response: ModelResponse;
  declare readonly usage: Usage | undefined;
  declare readonly durationMs: number;
  declare readonly finalAnswer: boolean;
  declare readonly contextTokens?: number;

  constructor(fields: LlmCallFields) {
    this.#sent = fields.sent;
    this.#sentGrows = fields.sentGrows;
    this.#copy = undefined;
    const data = this as { -readonly [Key in keyof LlmCallData]: LlmCallData[Key] };
    // In the order of the event's type: provider, model, messages, then the rest.
    if (fields.provider !== undefined) data.provider = fields.provider;
    if (fields.model !== undefined) data.model = fields.model;
    Object.defineProperty(this, 'messages', LlmCallData.#messagesProperty);
    data.messageCount = fields.messageCount;
    data.response = fields.response;
    data.usage = fields.response.usage;
    data.durationMs = fields.durationMs;
    data.finalAnswer = fields.finalAnswer;
    if (fields.contextTokens !== undefined) data.contextTokens = fields.contextTokens;
  }

  #messages(): readonly ChatMessage[] {
    if (!this.#sentGrows) return this.#sent;
    return (this.#copy ??= this.#sent.slice(0, this.messageCount));
  }
}
