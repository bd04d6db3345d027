import type { ToolCall, ToolMessage } from '../../model/messages.js';
import type { ContextLedger } from './context-ledger.js';

/** The longest arguments quoted in a placeholder; longer ones are cut with `…`. */
const maxQuotedArguments = 120;

/**
 * The message sent instead of an elided tool result: the same `tool_call_id` (so the pairing with
 * its call is untouched), and a note of what was elided and how to get it again.
 */
export function placeholderMessage(original: ToolMessage, toolCall: ToolCall | undefined): ToolMessage {
  const name = toolCall?.function.name ?? 'the tool';
  const rawArguments = toolCall?.function.arguments ?? '';
  const quoted =
    rawArguments.length > maxQuotedArguments ? `${rawArguments.slice(0, maxQuotedArguments)}…` : rawArguments;
  const size = groupThousands(original.content.length);
  // Short: a long run sends hundreds of these, and their sum is the floor of what masking can reach.
  return {
    role: 'tool',
    tool_call_id: original.tool_call_id,
    content: `[Elided to fit the context window: ${name}(${quoted}) returned ${size} characters. Call it again to see them.]`,
  };
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
 * placeholder would be as long as it is. Returns the ids and the tokens they save.
 */
export function chooseMasks(
  ledger: ContextLedger,
  masked: ReadonlySet<string>,
  keepRecent: number,
  excess: number,
): { readonly ids: string[]; readonly saved: number } {
  const ids: string[] = [];
  let saved = 0;
  const order = ledger.toolOrder;
  const last = order.length - keepRecent;
  for (let position = ledger.oldestUnmasked(); position < last && saved < excess; position++) {
    const id = order[position]!;
    if (masked.has(id)) continue;
    const saving = ledger.maskSavingAt(position);
    if (saving <= 0) continue;
    ids.push(id);
    saved += saving;
  }
  return { ids, saved };
}
