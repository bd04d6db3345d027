import { AbortedError } from '../errors/aborted-error.js';
import { abortableWait } from '../shared/abortable-wait.js';
import { ScriptExhaustedError } from '../errors/script-exhausted-error.js';
import type { ChatMessage, ToolCall } from '../model/messages.js';
import type {
  ModelAdapter,
  ModelCallOptions,
  ModelResponse,
  ModelStreamEvent,
  ModelToolDefinition,
} from '../model/model-adapter.js';

/** One scripted step: a response, or a function of what the adapter received. */
export type ScriptedResponse =
  | ModelResponse
  | ((
      messages: readonly ChatMessage[],
      tools: readonly ModelToolDefinition[],
      options: ModelCallOptions & { readonly callIndex: number },
    ) => ModelResponse | Promise<ModelResponse>);

/** A call the adapter received: snapshots, so later turns never change them. */
export interface RecordedCall {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ModelToolDefinition[];
  readonly options: ModelCallOptions;
}

/** Options of {@link ScriptedAdapter}. */
export interface ScriptedAdapterOptions {
  /** Waits this long before answering, honouring the abort signal. @default 0 */
  readonly delayMs?: number;
  /** Characters per `content_delta` when streaming. @default 8 */
  readonly streamChunkSize?: number;
  /** @default 'scripted' */
  readonly provider?: string;
  /** The adapter's `providerDataKey`: the key of the provider data it would read back. */
  readonly providerDataKey?: string;
  /**
   * Claims native structured output, so a run with a typed `output` sends `responseFormat` (see
   * the recorded calls' `options`) instead of offering a final-answer tool. @default false
   */
  readonly supportsResponseFormat?: boolean;
}

/**
 * A model adapter that answers from a script, for unit tests of tools and agents. It records
 * every call and fails with a clear error when the script runs out.
 *
 * Its n-th call gets the n-th step, whatever the transcript: a new adapter that resumes a run
 * (in another process) starts at the first step again, so give it only the steps still to come,
 * or script functions of the messages (see docs/durable-runs.md, "Testing resume").
 *
 * @example
 * const adapter = new ScriptedAdapter([
 *   ScriptedAdapter.toolCalls([['add', { a: 2, b: 3 }]]),
 *   ScriptedAdapter.text('5'),
 * ]);
 */
export class ScriptedAdapter implements ModelAdapter {
  readonly provider: string;
  readonly providerDataKey?: string;
  readonly supportsResponseFormat: boolean;
  /** Every call received, in order. */
  readonly calls: RecordedCall[] = [];
  readonly #script: readonly ScriptedResponse[];
  readonly #delayMs: number;
  readonly #chunkSize: number;

  constructor(responses: readonly ScriptedResponse[], options: ScriptedAdapterOptions = {}) {
    this.#script = [...responses];
    this.#delayMs = options.delayMs ?? 0;
    this.#chunkSize = options.streamChunkSize ?? 8;
    this.provider = options.provider ?? 'scripted';
    if (options.providerDataKey !== undefined) this.providerDataKey = options.providerDataKey;
    this.supportsResponseFormat = options.supportsResponseFormat ?? false;
  }

  /** A final text answer. */
  static text(content: string, extra: Partial<ModelResponse> = {}): ModelResponse {
    return { content, finish_reason: 'stop', ...extra };
  }

  /**
   * A response asking for tool calls. Each entry is `[name, args, id?]`; `args` may be an object
   * or a raw string (to script invalid JSON). Ids default to `call_<turn>_<index>`-style names.
   */
  static toolCalls(
    calls: readonly (readonly [name: string, args: unknown, id?: string])[],
    extra: Partial<ModelResponse> = {},
  ): ModelResponse {
    return {
      content: null,
      tool_calls: calls.map(([name, args, id], index) =>
        ScriptedAdapter.toolCall(name, args, id ?? `call_${index}`),
      ),
      finish_reason: 'tool_calls',
      ...extra,
    };
  }

  /** One tool call in the OpenAI shape. */
  static toolCall(name: string, args: unknown, id: string): ToolCall {
    return {
      id,
      type: 'function',
      function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
    };
  }

  /** How many scripted responses are left. */
  get remaining(): number {
    return this.#script.length - this.calls.length;
  }

  async call(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions = {},
  ): Promise<ModelResponse> {
    const callIndex = this.calls.length;
    this.calls.push({ messages: structuredClone(messages), tools, options });
    const step = this.#script[callIndex];
    if (step === undefined)
      throw new ScriptExhaustedError({ scriptLength: this.#script.length, lastMessage: messages.at(-1) });
    await abortableWait(this.#delayMs, options.signal);
    const response =
      typeof step === 'function' ? await step(messages, tools, { ...options, callIndex }) : step;
    if (options.signal?.aborted) throw new AbortedError({ cause: options.signal.reason });
    return response;
  }

  /** Streams the scripted response as deltas, then the response itself. */
  async *stream(
    messages: readonly ChatMessage[],
    tools: readonly ModelToolDefinition[],
    options: ModelCallOptions = {},
  ): AsyncIterable<ModelStreamEvent> {
    const response = await this.call(messages, tools, options);
    // A script may hold responses outside the contract on purpose (to test the orchestrator's
    // checks): deltas are streamed only for the parts that have the right shape.
    const {
      content,
      reasoning_content: reasoning,
      tool_calls: toolCalls,
    } = (response ?? {}) as Partial<ModelResponse>;
    const size = this.#chunkSize;
    if (typeof reasoning === 'string') {
      for (let index = 0; index < reasoning.length; index += size) {
        yield { type: 'reasoning_delta', delta: reasoning.slice(index, index + size) };
      }
    }
    if (typeof content === 'string') {
      for (let index = 0; index < content.length; index += size) {
        if (options.signal?.aborted) throw new AbortedError({ cause: options.signal.reason });
        yield { type: 'content_delta', delta: content.slice(index, index + size) };
      }
    }
    for (const [index, toolCall] of (Array.isArray(toolCalls) ? toolCalls : []).entries()) {
      const name: unknown = toolCall?.function?.name;
      const argumentsDelta: unknown = toolCall?.function?.arguments;
      yield {
        type: 'tool_call_delta',
        index,
        ...(typeof toolCall?.id === 'string' ? { id: toolCall.id } : {}),
        ...(typeof name === 'string' ? { name } : {}),
        argumentsDelta: typeof argumentsDelta === 'string' ? argumentsDelta : '',
      };
    }
    yield { type: 'response', response };
  }
}
