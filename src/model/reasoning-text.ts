import type { ReasoningPart } from './messages.js';

/**
 * The reasoning of a response or an assistant message as text to show: `reasoning_content`, else
 * the text of its reasoning parts joined by blank lines; `''` when there is none. Redacted parts
 * and what is opaque (encrypted, signed) are left out.
 */
export function reasoningText(message: {
  readonly reasoning_content?: string | null;
  readonly reasoning?: readonly ReasoningPart[];
}): string {
  const content = message.reasoning_content;
  if (typeof content === 'string' && content !== '') return content;
  if (!Array.isArray(message.reasoning)) return '';
  const texts: string[] = [];
  for (const part of message.reasoning) {
    if (typeof part?.text === 'string' && part.text !== '') texts.push(part.text);
  }
  return texts.join('\n\n');
}
