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
 * The data of an `llm_call` event. `messages` is an enumerable own getter, so spreading or
 * serializing the data copies the messages as with a plain value; for an array later calls append
 * to, it copies the sent prefix on first read (copying it on every call would make a long run's
 * cost grow with the square of its length).
 *
 * Written as a class whose instances share one getter rather than as an object literal with a
 * getter of its own: V8 keeps such a literal as a hash table, and the run's messages it closes
 * over then outlive the young generation, so a long run's collections cost several times more
 * (docs/benchmarks.md). The test holds it to that plain literal.
 */
export function llmCallData(fields: LlmCallFields): LlmCallEventData {
  return new LlmCallData(fields);
}

class LlmCallData implements LlmCallEventData {
  /** One descriptor for every instance: its getter reads the instance's own fields. */
  static readonly #messagesProperty: PropertyDescriptor = {
    get(this: LlmCallData): readonly ChatMessage[] {
      return this.#messages();
    },
    enumerable: true,
    configurable: true,
  };

  readonly #fields: LlmCallFields;
  #copy: readonly ChatMessage[] | undefined;
  // Set in the constructor, in the literal's key order (`declare` adds no field of its own).
  declare readonly messages: readonly ChatMessage[];
  declare readonly messageCount: number;
  declare readonly response: ModelResponse;
  declare readonly usage: Usage | undefined;
  declare readonly durationMs: number;
  declare readonly finalAnswer: boolean;
  declare readonly contextTokens?: number;
  declare readonly provider?: string;
  declare readonly model?: string;

  constructor(fields: LlmCallFields) {
    this.#fields = fields;
    this.#copy = undefined;
    const { response } = fields;
    // The keys in the order of the plain literal: messages, the call's figures, then the optional ones.
    Object.defineProperty(this, 'messages', LlmCallData.#messagesProperty);
    const data = this as { -readonly [Key in keyof LlmCallEventData]: LlmCallEventData[Key] };
    data.messageCount = fields.messageCount;
    data.response = response;
    data.usage = response.usage;
    data.durationMs = fields.durationMs;
    data.finalAnswer = fields.finalAnswer;
    if (fields.contextTokens !== undefined) data.contextTokens = fields.contextTokens;
    if (fields.provider !== undefined) data.provider = fields.provider;
    if (fields.model !== undefined) data.model = fields.model;
  }

  #messages(): readonly ChatMessage[] {
    const { sent, sentGrows, messageCount } = this.#fields;
    if (!sentGrows) return sent;
    return (this.#copy ??= sent.slice(0, messageCount));
  }
}
