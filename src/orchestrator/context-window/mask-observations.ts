import type { ToolCall, ToolMessage } from '../../model/messages.js';
import type { ToolCallReference } from '../../tracing/trace-events.js';
import type { RunState } from '../run-state.js';
import type { ContextLedger } from './context-ledger.js';
import type { ResolvedContextWindow } from './context-window-options.js';
import { emitCompacted } from './emit-compacted.js';
import type { ReductionReason } from './emit-compacted.js';
import {
  charactersPerToken,
  estimateTokens,
  isLatin1,
  messageTokens,
  perMessageTokens,
} from './estimate-tokens.js';

/** The longest arguments quoted in a placeholder; longer ones are cut with `…`. */
const maxQuotedArguments = 120;

/** What is sent for a masked tool result, and its estimated tokens. */
export interface Placeholder {
  readonly message: ToolMessage;
  readonly tokens: number;
}

/**
 * The message sent instead of the elided tool result `original`: the same `tool_call_id` (so the
 * pairing with its call is untouched), and a note of what was elided and how to get it again; and
 * its estimated tokens as `countTokens` counts them.
 */
export function placeholderOf(
  original: ToolMessage,
  toolCall: ToolCall | undefined,
  countTokens: (text: string) => number,
): Placeholder {
  const name = toolCall?.function.name ?? 'the tool';
  const rawArguments = toolCall?.function.arguments ?? '';
  const quoted =
    rawArguments.length > maxQuotedArguments ? `${rawArguments.slice(0, maxQuotedArguments)}…` : rawArguments;
  const size = groupThousands(original.content.length);
  // Short: a long run sends hundreds of these, and their sum is the floor of what masking can reach.
  const content = `[Elided to fit the context window: ${name}(${quoted}) returned ${size} characters. Call it again to see them.]`;
  // Reading a character flattens the tree of pieces the template made into one string: a
  // placeholder lives as long as the run, and every young-generation GC until then would copy each
  // piece (a run masks hundreds).
  content.charCodeAt(0);
  const message: ToolMessage = { role: 'tool', tool_call_id: original.tool_call_id, content };
  // The default estimate of a text with no character above U+00FF is its length over 4, and the
  // template is ASCII: when the name and the arguments have none either, the count needs no pass
  // over the whole text (a run masks hundreds).
  const tokens =
    countTokens === estimateTokens && isLatin1(name) && isLatin1(quoted)
      ? perMessageTokens + Math.ceil(content.length / charactersPerToken)
      : messageTokens(message, countTokens);
  return { message, tokens };
}

/** `18234` as `18,234`, as `toLocaleString('en-US')` writes it, without its cost (a run masks hundreds). */
function groupThousands(value: number): string {
  let text = String(value);
  for (let cut = text.length - 3; cut > 0; cut -= 3) text = `${text.slice(0, cut)},${text.slice(cut)}`;
  return text;
}

/**
 * Picks the tool results to mask, oldest first, until `excess` estimated tokens are saved: never
 * one of the `keepRecent` most recent results, never one already masked, never one whose
 * placeholder would be as long as it is. Returns their positions (in `ledger.toolOrder`) and the
 * tokens they save.
 */
export function chooseMasks(
  ledger: ContextLedger,
  keepRecent: number,
  excess: number,
): { readonly positions: number[]; readonly saved: number } {
  const positions: number[] = [];
  let saved = 0;
  const last = ledger.toolOrder.length - keepRecent;
  for (let position = ledger.oldestUnmasked(); position < last && saved < excess; position++) {
    if (ledger.isMaskedAt(position)) continue;
    const saving = ledger.maskSavingAt(position);
    if (saving <= 0) continue;
    positions.push(position);
    saved += saving;
  }
  return { positions, saved };
}

/** What a reduction by masking starts from. */
export interface MaskRequest {
  /** The estimate of what would be sent, before calibration. */
  readonly raw: number;
  readonly limit: number;
  /** The estimate (calibrated) past which a call is reduced. */
  readonly highWater: number;
  readonly reason: ReductionReason;
}

/**
 * The `'mask_observations'` strategy: masks the oldest results down to the low-water mark and
 * traces `context_compacted`. Returns false when there was nothing to mask.
 */
export function maskOldest(
  state: RunState,
  window: ResolvedContextWindow,
  ledger: ContextLedger,
  request: MaskRequest,
): boolean {
  const context = state.contextWindow!;
  const { raw, limit } = request;
  const why = request.reason;
  const target = Math.floor(limit * window.lowWaterMark);
  // After a refusal the estimate has proved wrong: take out all that may go, with one retry left.
  const excess = why === 'overflow' ? Number.POSITIVE_INFINITY : raw - target / context.calibration;
  const latest = lastTurnResults(state);
  const keep = why === 'overflow' ? Math.min(window.keepRecent, latest) : window.keepRecent;
  const chosen = chooseMasks(ledger, keep, excess);
  ledger.mask(chosen.positions, context);
  let positions = chosen.positions;
  let saved = chosen.saved;
  // keepRecent yields when the call would not fit otherwise: then recent results are masked
  // too, oldest first (never the latest turn's), down to the low-water mark like the rest, so
  // the next calls fit without another reduction.
  const overLimit = why === 'overflow' ? 0 : raw - saved - request.highWater / context.calibration;
  if (overLimit > 0 && keep > latest) {
    const more = chooseMasks(ledger, latest, raw - saved - target / context.calibration);
    ledger.mask(more.positions, context);
    positions = [...positions, ...more.positions];
    saved += more.saved;
  }
  if (positions.length === 0) return false;
  emitCompacted(
    state,
    'mask_observations',
    why,
    Math.round(raw * context.calibration),
    raw - saved,
    limit,
    positions.map((position): ToolCallReference => ({
      id: ledger.toolOrder[position]!,
      name: ledger.toolCallAt(position)?.function.name ?? '',
    })),
    0,
  );
  return true;
}

/** Tool results answering the transcript's last assistant message: what an overflow keeps. */
function lastTurnResults(state: RunState): number {
  let count = 0;
  for (let index = state.messages.length - 1; index >= 0 && state.messages[index]!.role === 'tool'; index--)
    count++;
  return count;
}
