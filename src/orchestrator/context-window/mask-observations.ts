import { describeMediaPart } from '../../model/content-parts.js';
import type { ChatMessage, MessageContent, ToolCall, ToolMessage } from '../../model/messages.js';
import type { ContextSummary, ReductionReason } from './context-window-state.js';

/** The longest arguments quoted in a placeholder; longer ones are cut with `…`. */
const maxQuotedArguments = 120;

/**
 * The message sent instead of the elided tool result `original`: the same `tool_call_id` (so the
 * pairing with its call is untouched), and a note of what was elided and how to get it again.
 */
export function placeholderOf(original: ToolMessage, toolCall: ToolCall | undefined): ToolMessage {
  const name = toolCall?.function.name ?? 'the tool';
  const rawArguments = toolCall?.function.arguments ?? '';
  const quoted =
    rawArguments.length > maxQuotedArguments ? `${rawArguments.slice(0, maxQuotedArguments)}…` : rawArguments;
  // Short: a long run sends hundreds of these, and their sum is the floor of what masking can reach.
  const content = `[Elided to fit the context window: ${name}(${quoted}) returned ${returned(original.content)}. Call it again to see ${typeof original.content === 'string' ? 'them' : 'it'}.]`;
  return { role: 'tool', tool_call_id: original.tool_call_id, content };
}

/** What a result held, in a placeholder: `18,234 characters`, or `120 characters and [image: image/png, 12 KB]`. */
function returned(content: MessageContent): string {
  if (typeof content === 'string') return `${groupThousands(content.length)} characters`;
  return content
    .map((part) =>
      part.type === 'text' ? `${groupThousands(part.text.length)} characters` : describeMediaPart(part),
    )
    .join(' and ');
}

/** `18234` as `18,234`, as `toLocaleString('en-US')` writes a non-negative integer. */
export function groupThousands(value: number): string {
  let text = String(value);
  for (let cut = text.length - 3; cut > 0; cut -= 3) text = `${text.slice(0, cut)},${text.slice(cut)}`;
  return text;
}

/** The assistant tool call `id` that the message at `index` answers: the nearest one before it. */
export function toolCallBefore(
  messages: readonly ChatMessage[],
  index: number,
  id: string,
): ToolCall | undefined {
  for (let at = index - 1; at >= 0; at--) {
    const message = messages[at]!;
    if (message.role !== 'assistant' || message.tool_calls === undefined) continue;
    for (const toolCall of message.tool_calls) if (toolCall.id === id) return toolCall;
  }
  return undefined;
}

/** What {@link chooseMasks} picks from. */
export interface MaskCandidates {
  /** What the call sends before the reductions: the transcript, or a `prepareTurn` hook's messages. */
  readonly messages: readonly ChatMessage[];
  /** Tool call ids already masked. */
  readonly masked: ReadonlySet<string>;
  /** The range a summary stands for (its results are not sent, so masking them saves nothing). */
  readonly summary: ContextSummary | undefined;
  /** The latest results never picked. */
  readonly keepRecent: number;
  /** Tokens (before calibration) to save; picking stops once they are. */
  readonly excess: number;
  /** The tokens masking the result at `index` of `messages` saves. */
  readonly saving: (index: number) => number;
}

/**
 * Picks the tool results to mask, oldest first, until `excess` estimated tokens are saved: never
 * one of the `keepRecent` latest results, never one already masked or summarized, never one whose
 * placeholder would be as long as it is. Returns their indexes in `messages` and the tokens they save.
 */
export function chooseMasks(candidates: MaskCandidates): {
  readonly indexes: number[];
  readonly saved: number;
} {
  const { messages, masked, summary, excess } = candidates;
  // The first of the `keepRecent` latest results: picking stops before it.
  let end = messages.length;
  for (let kept = 0; kept < candidates.keepRecent && end > 0;) if (messages[--end]!.role === 'tool') kept++;
  const indexes: number[] = [];
  let saved = 0;
  for (let index = 0; index < end && saved < excess; index++) {
    const message = messages[index]!;
    if (message.role !== 'tool' || masked.has(message.tool_call_id)) continue;
    if (summary !== undefined && index >= summary.start && index < summary.end) continue;
    const saving = candidates.saving(index);
    if (saving <= 0) continue;
    indexes.push(index);
    saved += saving;
  }
  return { indexes, saved };
}

/** What {@link maskOldest} starts from; every estimate is before calibration. */
export interface MaskRequest extends Omit<MaskCandidates, 'excess'> {
  readonly reason: ReductionReason;
  /** The estimate of what would be sent. */
  readonly tokens: number;
  /** Where a reduction brings it down to (the low-water mark). */
  readonly target: number;
  /** The estimate past which a call is reduced. */
  readonly highWater: number;
}

/**
 * The `'mask_observations'` strategy: picks the oldest results to mask down to the low-water
 * mark, and returns their indexes in `messages` (none when there is nothing to mask). After a
 * provider's refusal it picks all it may, keeping only the latest turn's results.
 */
export function maskOldest(request: MaskRequest): number[] {
  const overflow = request.reason === 'overflow';
  const latest = trailingResults(request.messages);
  const keepRecent = overflow ? Math.min(request.keepRecent, latest) : request.keepRecent;
  // After a refusal the estimate has proved wrong: take out all that may go, with one retry left.
  const excess = overflow ? Number.POSITIVE_INFINITY : request.tokens - request.target;
  const candidates = (masked: ReadonlySet<string>, keep: number, toSave: number): MaskCandidates => ({
    messages: request.messages,
    masked,
    summary: request.summary,
    keepRecent: keep,
    excess: toSave,
    saving: request.saving,
  });
  const chosen = chooseMasks(candidates(request.masked, keepRecent, excess));
  const left = request.tokens - chosen.saved;
  // keepRecent yields when the call would not fit otherwise: then recent results are masked
  // too, oldest first (never the latest turn's), down to the low-water mark like the rest, so
  // the next calls fit without another reduction.
  if (overflow || left <= request.highWater || keepRecent <= latest) return chosen.indexes;
  const masked = new Set(request.masked);
  for (const index of chosen.indexes) masked.add((request.messages[index] as ToolMessage).tool_call_id);
  const more = chooseMasks(candidates(masked, latest, left - request.target));
  return [...chosen.indexes, ...more.indexes];
}

/** The tool results at the end of `messages` (answering its last assistant message): what an overflow keeps. */
function trailingResults(messages: readonly ChatMessage[]): number {
  let count = 0;
  for (let index = messages.length - 1; index >= 0 && messages[index]!.role === 'tool'; index--) count++;
  return count;
}
