import type { ChatMessage, ToolMessage } from '../../model/messages.js';
import type { ContextSummary } from './context-window-state.js';
import { messageTokens } from './estimate-tokens.js';
import { placeholderOf, toolCallBefore } from './mask-observations.js';
import { summaryMessage } from './summary-message.js';

/** The summary as a view puts it in: one message for transcript messages `start` to `end` (exclusive). */
export interface SummaryInView {
  readonly start: number;
  readonly end: number;
  readonly message: ChatMessage;
}

/** The summary of a run's state as a view puts it in. */
export function summaryInView(summary: ContextSummary | undefined): SummaryInView | undefined {
  return summary === undefined
    ? undefined
    : { start: summary.start, end: summary.end, message: summaryMessage(summary.content) };
}

/** The reductions in force when a view is built. */
export interface ViewReductions {
  /** Tool call ids whose results are sent as a placeholder. Ids are only ever added. */
  readonly masked: ReadonlySet<string>;
  /** Applies to the transcript only: `undefined` for a `prepareTurn` hook's messages. */
  readonly summary: SummaryInView | undefined;
}

/** What a call sends and its estimated tokens (the messages only, before calibration). */
export interface BuiltView {
  readonly messages: readonly ChatMessage[];
  readonly tokens: number;
}

/**
 * What is sent, built from scratch: the summary in place of what it stands for, a placeholder for
 * each masked result, every other message as it is.
 */
export function sentMessages(
  source: readonly ChatMessage[],
  reductions: ViewReductions,
  placeholder: (source: readonly ChatMessage[], index: number) => ToolMessage,
): ChatMessage[] {
  const { masked, summary } = reductions;
  const sent: ChatMessage[] = [];
  for (let index = 0; index < source.length; index++) {
    const message = source[index]!;
    if (summary !== undefined && index === summary.start) {
      sent.push(summary.message);
      index = Math.max(index, summary.end - 1);
    } else {
      sent.push(
        message.role === 'tool' && masked.has(message.tool_call_id) ? placeholder(source, index) : message,
      );
    }
  }
  return sent;
}

/** The last call's view, to extend when the next call only has more messages. */
interface LastView {
  readonly source: readonly ChatMessage[];
  readonly length: number;
  readonly masks: number;
  readonly summary: SummaryInView | undefined;
  /** The view's own array, when anything is reduced (else the view is `source` itself). */
  readonly own: ChatMessage[] | undefined;
  readonly tokens: number;
}

/**
 * Builds what each call sends ({@link sentMessages}) and counts it. Every message and placeholder
 * is counted once (cached by object). While nothing is reduced, the view is the messages
 * themselves; otherwise it is an array of its own that, like the transcript, is only ever
 * appended to: a call whose messages only grew since the last one, with the same reductions,
 * appends the new messages to the last view, and a reduction starts a new array. So a call costs
 * its new messages, and an array sent earlier keeps what it had as its prefix (an `llm_call`
 * event snapshots it lazily).
 */
export class SentViews {
  readonly #countTokens: (text: string) => number;
  readonly #counts = new WeakMap<ChatMessage, number>();
  readonly #placeholders = new WeakMap<ToolMessage, ToolMessage>();
  #last: LastView | undefined;

  constructor(countTokens: (text: string) => number) {
    this.#countTokens = countTokens;
  }

  /** The estimated tokens of `message`, counted once per message object. */
  count(message: ChatMessage): number {
    let tokens = this.#counts.get(message);
    if (tokens === undefined) {
      tokens = messageTokens(message, this.#countTokens);
      this.#counts.set(message, tokens);
    }
    return tokens;
  }

  /** The placeholder sent for the tool result at `index` of `source`, made once per result. */
  readonly placeholder = (source: readonly ChatMessage[], index: number): ToolMessage => {
    const original = source[index] as ToolMessage;
    let placeholder = this.#placeholders.get(original);
    if (placeholder === undefined) {
      placeholder = placeholderOf(original, toolCallBefore(source, index, original.tool_call_id));
      this.#placeholders.set(original, placeholder);
    }
    return placeholder;
  };

  /** The tokens masking the result at `index` of `source` saves (0 or less when it would save nothing). */
  saving(source: readonly ChatMessage[], index: number): number {
    return this.count(source[index]!) - this.count(this.placeholder(source, index));
  }

  /** What a call sends from `source` with `reductions`, and its estimated tokens. */
  build(source: readonly ChatMessage[], reductions: ViewReductions): BuiltView {
    const { masked, summary } = reductions;
    const last = this.#last;
    let own: ChatMessage[] | undefined;
    let tokens: number;
    if (
      last !== undefined &&
      last.source === source &&
      last.masks === masked.size &&
      last.summary === summary &&
      last.length <= source.length &&
      (summary === undefined || summary.end <= last.length)
    ) {
      // Only appended to since the last call: the same view, with the new messages.
      own = last.own;
      tokens = last.tokens;
      for (let index = last.length; index < source.length; index++) {
        const message = source[index]!;
        const sent =
          message.role === 'tool' && masked.has(message.tool_call_id)
            ? this.placeholder(source, index)
            : message;
        own?.push(sent);
        tokens += this.count(sent);
      }
    } else {
      const reduced = masked.size > 0 || summary !== undefined;
      own = reduced ? sentMessages(source, reductions, this.placeholder) : undefined;
      tokens = 0;
      for (const message of own ?? source) tokens += this.count(message);
    }
    this.#last = { source, length: source.length, masks: masked.size, summary, own, tokens };
    return { messages: own ?? source, tokens };
  }
}
