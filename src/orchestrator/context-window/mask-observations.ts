import type { ToolCall, ToolMessage } from '../../model/messages.js';
import type { ContextLedger } from './context-ledger.js';
import { messageTokens } from './estimate-tokens.js';

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
  const message: ToolMessage = { role: 'tool', tool_call_id: original.tool_call_id, content };
  // Counting reads the text, which also makes V8 flatten the tree of pieces the template literal
  // made into one string: a placeholder lives as long as the run, and every young-generation GC
  // until then would copy each piece (a run masks hundreds).
  return { message, tokens: messageTokens(message, countTokens) };
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
  const order = ledger.toolOrder;
  const masked = ledger.masked;
  const last = order.length - keepRecent;
  for (let position = ledger.oldestUnmasked(); position < last && saved < excess; position++) {
    if (masked.has(order[position]!)) continue;
    const saving = ledger.maskSavingAt(position);
    if (saving <= 0) continue;
    positions.push(position);
    saved += saving;
  }
  return { positions, saved };
}
