import type { ChatMessage } from '../model/messages.js';
import type { ModelResponse } from '../model/model-adapter.js';
import type { TraceEventData } from '../tracing/trace-events.js';

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
 * The data of an `llm_call` event. `messages` is an enumerable getter, so spreading or
 * serializing the data copies the messages as with a plain value; for an array later calls append
 * to, it copies the sent prefix on first read (copying it on every call would make a long run's
 * cost grow with the square of its length). The optional fields are added after the literal:
 * spreading them in made each call's data several times slower to build (docs/benchmarks.md).
 */
export function llmCallData(fields: LlmCallFields): TraceEventData['llm_call'] {
  const { sent, sentGrows, messageCount, response } = fields;
  let copy: readonly ChatMessage[] | undefined;
  const data: { -readonly [Key in keyof TraceEventData['llm_call']]: TraceEventData['llm_call'][Key] } = {
    get messages(): readonly ChatMessage[] {
      if (!sentGrows) return sent;
      return (copy ??= sent.slice(0, messageCount));
    },
    messageCount,
    response,
    usage: response.usage,
    durationMs: fields.durationMs,
    finalAnswer: fields.finalAnswer,
  };
  if (fields.contextTokens !== undefined) data.contextTokens = fields.contextTokens;
  if (fields.provider !== undefined) data.provider = fields.provider;
  if (fields.model !== undefined) data.model = fields.model;
  return data;
}
