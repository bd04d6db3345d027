import type { ChatMessage, ToolCall, ToolMessage } from '../../model/messages.js';
import type { ModelToolDefinition } from '../../model/model-adapter.js';
import type { ContextSummary, ContextWindowState } from './context-window-state.js';
import { messageTokens, toolsTokens } from './estimate-tokens.js';
import { placeholderMessage } from './mask-observations.js';
import { summaryMessage } from './summary-message.js';

/**
 * The token accounting of one run, derived from the transcript and the state and never saved:
 * each message is counted once, as it enters the transcript, and the totals are kept as sums, so
 * no call re-counts the history. A new transcript array (`replaceTranscript`) or a resumed run is
 * counted once again from the start.
 */
export class ContextLedger {
  #transcript: readonly ChatMessage[] | undefined;
  /** Estimated tokens of each transcript message, by index. */
  readonly tokens: number[] = [];
  /** The sum of `tokens`. */
  total = 0;
  /** Every tool call of the transcript by id, to describe a masked result. */
  readonly calls = new Map<string, ToolCall>();
  /** The transcript index of each tool message, by its tool call id. */
  readonly toolIndex = new Map<string, number>();
  /** Tool call ids of the tool messages, in transcript order. */
  readonly toolOrder: string[] = [];
  readonly placeholders = new Map<string, { readonly message: ToolMessage; readonly tokens: number }>();
  /** The tool call ids of the state's `maskedToolCallIds`, as a set. */
  readonly masked = new Set<string>();
  /** Tokens saved by the masks applied so far. */
  maskedSaving = 0;
  #masksApplied = 0;
  /**
   * The transcript as last sent with reductions in force, kept between calls and only appended to
   * until the next reduction (which builds a new array), so a call does not rebuild it whole.
   */
  #view: ChatMessage[] | undefined;
  /** The transcript messages `#view` stands for, and the masks and summary it was built with. */
  #viewLength = 0;
  #viewMasks = 0;
  #viewSummary: ContextSummary | undefined;
  #tools: readonly ModelToolDefinition[] | undefined;
  #toolsTokens = 0;
  /** Counts of messages that are not the transcript's (a hook's or a strategy's), by object. */
  readonly #others = new WeakMap<ChatMessage, number>();

  constructor(readonly countTokens: (text: string) => number) {}

  /** Counts the messages appended since the last call, and applies masks added to the state. */
  sync(transcript: readonly ChatMessage[], state: ContextWindowState): void {
    if (transcript !== this.#transcript) this.#reset(transcript);
    for (let index = this.tokens.length; index < transcript.length; index++) {
      const message = transcript[index]!;
      const tokens = messageTokens(message, this.countTokens);
      this.tokens.push(tokens);
      this.total += tokens;
      if (message.role === 'assistant') {
        for (const toolCall of message.tool_calls ?? []) this.calls.set(toolCall.id, toolCall);
      } else if (message.role === 'tool') {
        this.toolIndex.set(message.tool_call_id, index);
        this.toolOrder.push(message.tool_call_id);
      }
    }
    const masked = state.maskedToolCallIds;
    for (; this.#masksApplied < masked.length; this.#masksApplied++) {
      const id = masked[this.#masksApplied]!;
      if (this.masked.has(id)) continue;
      this.masked.add(id);
      this.maskedSaving += this.maskSaving(id);
    }
  }

  /**
   * The transcript as sent: the summary in place of what it stands for, placeholders for masked
   * results; the transcript itself while nothing is reduced. The array is the previous call's, with
   * the new messages appended, until a reduction changes what is sent: then it is a new array, so
   * the earlier one (an event's snapshot, an adapter's reference) keeps what it had.
   */
  view(summary: ContextSummary | undefined): readonly ChatMessage[] {
    const transcript = this.#transcript!;
    if (this.masked.size === 0 && summary === undefined) return transcript;
    let view = this.#view;
    if (view === undefined || this.#viewMasks !== this.#masksApplied || this.#viewSummary !== summary) {
      view = [];
      this.#view = view;
      this.#viewLength = 0;
      this.#viewMasks = this.#masksApplied;
      this.#viewSummary = summary;
    }
    let index = this.#viewLength;
    for (; index < transcript.length; index++) {
      if (summary !== undefined && index === summary.start) {
        view.push(summaryMessage(summary.content));
        index = summary.end - 1;
        continue;
      }
      const message = transcript[index]!;
      view.push(
        message.role === 'tool' && this.masked.has(message.tool_call_id)
          ? this.placeholder(message.tool_call_id, index).message
          : message,
      );
    }
    this.#viewLength = index;
    return view;
  }

  /** The tokens masking the result of `id` saves (0 when it would save nothing or has no result). */
  maskSaving(id: string): number {
    const index = this.toolIndex.get(id);
    if (index === undefined) return 0;
    return Math.max(0, this.tokens[index]! - this.placeholder(id, index).tokens);
  }

  /** The placeholder sent for the result of `id`, made once. */
  placeholder(id: string, index: number): { readonly message: ToolMessage; readonly tokens: number } {
    let placeholder = this.placeholders.get(id);
    if (placeholder === undefined) {
      const original = this.#transcript![index] as ToolMessage;
      const message = placeholderMessage(original, this.calls.get(id));
      placeholder = { message, tokens: messageTokens(message, this.countTokens) };
      this.placeholders.set(id, placeholder);
    }
    return placeholder;
  }

  /** The estimated tokens of the tool definitions, counted once per tool list. */
  toolsTokens(tools: readonly ModelToolDefinition[]): number {
    if (tools !== this.#tools) {
      this.#tools = tools;
      this.#toolsTokens = toolsTokens(tools, this.countTokens);
    }
    return this.#toolsTokens;
  }

  /** The estimated tokens of messages that are not (all) the transcript's, each object counted once. */
  countMessages(messages: readonly ChatMessage[]): number {
    let total = 0;
    for (const message of messages) {
      let tokens = this.#others.get(message);
      if (tokens === undefined) {
        tokens = messageTokens(message, this.countTokens);
        this.#others.set(message, tokens);
      }
      total += tokens;
    }
    return total;
  }

  /** The sum of the tokens of transcript messages `start` to `end` (exclusive). */
  rangeTokens(start: number, end: number): number {
    let total = 0;
    for (let index = start; index < end; index++) total += this.tokens[index] ?? 0;
    return total;
  }

  #reset(transcript: readonly ChatMessage[]): void {
    this.#transcript = transcript;
    this.tokens.length = 0;
    this.total = 0;
    this.calls.clear();
    this.toolIndex.clear();
    this.toolOrder.length = 0;
    this.placeholders.clear();
    this.masked.clear();
    this.maskedSaving = 0;
    this.#masksApplied = 0;
    this.#view = undefined;
  }
}
