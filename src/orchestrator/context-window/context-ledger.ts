import type { ChatMessage, ToolCall, ToolMessage } from '../../model/messages.js';
import type { ModelToolDefinition } from '../../model/model-adapter.js';
import type { ContextSummary, ContextWindowState } from './context-window-state.js';
import { messageTokens, toolsTokens } from './estimate-tokens.js';
import { placeholderOf } from './mask-observations.js';
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
  /** Tool call ids of the tool messages, in transcript order (a tool message's position). */
  readonly toolOrder: string[] = [];
  /** The transcript index of the tool message at each position. */
  readonly toolIndices: number[] = [];
  /** Positions by tool call id, brought up to date only when asked (at a reduction), not per turn. */
  #positions: Map<string, number> | undefined;
  #indexedPositions = 0;
  /**
   * The placeholder of the tool message at each position, made once, when it is first masked, and
   * its tokens (kept apart, so a run that masks hundreds keeps no object more than the messages).
   */
  readonly #placeholders: (ToolMessage | undefined)[] = [];
  readonly #placeholderTokens: number[] = [];
  /** 1 where the result at that position is masked, else 0. */
  readonly #maskedAt: number[] = [];
  /** Masked ids (of `maskedToolCallIds`) that no tool message of the transcript answers yet. */
  #orphans: Set<string> | undefined;
  /** The positions of the masked results, in the order they were masked, each once. */
  readonly #maskedOrder: number[] = [];
  /** Tokens saved by the masks applied so far. */
  maskedSaving = 0;
  #masksApplied = 0;
  /** A position before which every result is masked. */
  #unmaskedFrom = 0;
  /**
   * The transcript as last sent with reductions in force, kept between calls and only appended to
   * until the next reduction (which makes a new array), so a call does not build it whole again.
   */
  #view: ChatMessage[] | undefined;
  /** The transcript messages `#view` stands for, and the masks and summary it was made with. */
  #viewLength = 0;
  /** The position of the last tool message `#view` has (where its next one is looked for from). */
  #viewTools = 0;
  #viewMasks = 0;
  #viewSummary: ContextSummary | undefined;
  #tools: readonly ModelToolDefinition[] | undefined;
  #toolsTokens = 0;
  /** Counts of messages that are not the transcript's (a hook's or a strategy's), by object. */
  #others: WeakMap<ChatMessage, number> | undefined;

  constructor(readonly countTokens: (text: string) => number) {}

  /** Counts the messages appended since the last call, and applies masks added to the state. */
  sync(transcript: readonly ChatMessage[], state: ContextWindowState): void {
    if (transcript !== this.#transcript) this.#reset(transcript);
    for (let index = this.tokens.length; index < transcript.length; index++) {
      const message = transcript[index]!;
      const tokens = messageTokens(message, this.countTokens);
      this.tokens.push(tokens);
      this.total += tokens;
      if (message.role === 'tool') {
        const id = message.tool_call_id;
        this.toolOrder.push(id);
        this.toolIndices.push(index);
        this.#maskedAt.push(0);
        if (this.#orphans?.delete(id) === true) this.#applyMask(this.toolOrder.length - 1);
      }
    }
    // Masks added by others than `mask` (a resumed run's state): found by id.
    const masked = state.maskedToolCallIds;
    for (; this.#masksApplied < masked.length; this.#masksApplied++) {
      const id = masked[this.#masksApplied]!;
      const position = this.positionOf(id);
      if (position === undefined) (this.#orphans ??= new Set()).add(id);
      else if (this.#maskedAt[position] === 0) this.#applyMask(position);
    }
  }

  /**
   * Masks the results at `positions` (from `chooseMasks`): adds their ids to the state's
   * `maskedToolCallIds` and applies them, without looking them up by id again.
   */
  mask(positions: readonly number[], state: ContextWindowState): void {
    const masked = state.maskedToolCallIds;
    if (this.#masksApplied !== masked.length) this.sync(this.#transcript!, state);
    for (const position of positions) {
      masked.push(this.toolOrder[position]!);
      this.#applyMask(position);
    }
    this.#masksApplied = masked.length;
  }

  #applyMask(position: number): void {
    this.#maskedAt[position] = 1;
    this.#maskedOrder.push(position);
    this.maskedSaving += this.maskSavingAt(position);
  }

  /**
   * The transcript as sent: the summary in place of what it stands for, placeholders for masked
   * results; the transcript itself while nothing is reduced. The array is the previous call's, with
   * the new messages appended, until a reduction changes what is sent: then it is a new array, so
   * the earlier one (an event's snapshot, an adapter's reference) keeps what it had.
   */
  view(summary: ContextSummary | undefined): readonly ChatMessage[] {
    const transcript = this.#transcript!;
    const maskCount = this.#maskedOrder.length;
    if (maskCount === 0 && summary === undefined) return transcript;
    let view = this.#view;
    if (view === undefined || this.#viewSummary !== summary) {
      view = [];
      this.#viewLength = 0;
      this.#viewTools = 0;
      this.#viewSummary = summary;
    } else if (this.#viewMasks !== maskCount) {
      // New masks: a copy of the view with their placeholders put in (masks come in steps, and
      // copying is cheaper than going through the transcript again).
      view = view.slice();
      const shift = summary === undefined ? 0 : summary.end - summary.start - 1;
      for (let mask = this.#viewMasks; mask < maskCount; mask++) {
        const position = this.#maskedOrder[mask]!;
        const index = this.toolIndices[position]!;
        if (index >= this.#viewLength) continue;
        if (summary !== undefined && index >= summary.start && index < summary.end) continue;
        view[summary !== undefined && index >= summary.end ? index - shift : index] =
          this.placeholderAt(position);
      }
    }
    this.#view = view;
    this.#viewMasks = maskCount;
    const indices = this.toolIndices;
    const maskedAt = this.#maskedAt;
    let position = this.#viewTools;
    let index = this.#viewLength;
    for (; index < transcript.length; index++) {
      if (summary !== undefined && index === summary.start) {
        view.push(summaryMessage(summary.content));
        index = summary.end - 1;
        continue;
      }
      const message = transcript[index]!;
      if (message.role !== 'tool') {
        view.push(message);
        continue;
      }
      // Tool messages come in transcript order: the next position (past a summary's) is this one's.
      while (indices[position]! < index) position++;
      view.push(maskedAt[position] === 1 ? this.placeholderAt(position) : message);
    }
    this.#viewLength = index;
    this.#viewTools = position;
    return view;
  }

  /** The position of the tool message answering `id` (the last one, if several do). */
  positionOf(id: string): number | undefined {
    const order = this.toolOrder;
    const positions = (this.#positions ??= new Map());
    for (; this.#indexedPositions < order.length; this.#indexedPositions++) {
      positions.set(order[this.#indexedPositions]!, this.#indexedPositions);
    }
    return positions.get(id);
  }

  /**
   * The assistant tool call the result at `position` answers, found from the result back (it is in
   * the assistant message before it).
   */
  toolCallAt(position: number): ToolCall | undefined {
    const transcript = this.#transcript!;
    const id = this.toolOrder[position];
    for (let index = this.toolIndices[position]! - 1; index >= 0; index--) {
      const message = transcript[index]!;
      if (message.role !== 'assistant' || message.tool_calls === undefined) continue;
      for (const toolCall of message.tool_calls) if (toolCall.id === id) return toolCall;
    }
    return undefined;
  }

  /** The oldest position not masked (masks go oldest first, so few are passed again). */
  oldestUnmasked(): number {
    const maskedAt = this.#maskedAt;
    while (this.#unmaskedFrom < maskedAt.length && maskedAt[this.#unmaskedFrom] === 1) this.#unmaskedFrom++;
    return this.#unmaskedFrom;
  }

  /** True when the result at `position` is masked. */
  isMaskedAt(position: number): boolean {
    return this.#maskedAt[position] === 1;
  }

  /** True when the result answering `id` is masked (or will be, once the transcript has it). */
  isMasked(id: string): boolean {
    const position = this.positionOf(id);
    return position === undefined ? this.#orphans?.has(id) === true : this.#maskedAt[position] === 1;
  }

  /** How many results are masked. */
  get maskedCount(): number {
    return this.#maskedOrder.length;
  }

  /** The tokens masking the result at `position` saves (0 when it would save nothing). */
  maskSavingAt(position: number): number {
    this.placeholderAt(position);
    return Math.max(0, this.tokens[this.toolIndices[position]!]! - this.#placeholderTokens[position]!);
  }

  /** The placeholder sent for the result at `position`. */
  placeholderAt(position: number): ToolMessage {
    let placeholder = this.#placeholders[position];
    if (placeholder === undefined) {
      const original = this.#transcript![this.toolIndices[position]!] as ToolMessage;
      const made = placeholderOf(original, this.toolCallAt(position), this.countTokens);
      placeholder = made.message;
      this.#placeholders[position] = placeholder;
      this.#placeholderTokens[position] = made.tokens;
    }
    return placeholder;
  }

  /** The placeholder sent for the tool message `message` answering `id`, or `message` when it has none. */
  placeholder(id: string, message: ChatMessage): ChatMessage {
    const position = this.positionOf(id);
    return position === undefined ? message : this.placeholderAt(position);
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
      const others = (this.#others ??= new WeakMap());
      let tokens = others.get(message);
      if (tokens === undefined) {
        tokens = messageTokens(message, this.countTokens);
        others.set(message, tokens);
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
    this.toolOrder.length = 0;
    this.toolIndices.length = 0;
    this.#positions = undefined;
    this.#indexedPositions = 0;
    this.#placeholders.length = 0;
    this.#placeholderTokens.length = 0;
    this.#maskedAt.length = 0;
    this.#orphans = undefined;
    this.#maskedOrder.length = 0;
    this.maskedSaving = 0;
    this.#masksApplied = 0;
    this.#unmaskedFrom = 0;
    this.#view = undefined;
  }
}
