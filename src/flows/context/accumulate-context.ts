import type { ContextResult } from './context-schemas.js';

/** The accumulated context: its text, and the results as they went in (cut ones marked). */
export interface AccumulatedContext {
  readonly text: string;
  readonly results: ContextResult[];
}

/**
 * Appends results to the context text within `maxChars`. A result that does not fit is cut to
 * the room left (or emptied when none is), marked `truncated: true` and noted in the text.
 */
export function accumulateContext(
  context: AccumulatedContext,
  results: readonly ContextResult[],
  maxChars: number,
): AccumulatedContext {
  let text = context.text;
  const kept = [...context.results];
  for (const result of results) {
    const header = `### ${result.provider} ${JSON.stringify(result.params)}\n`;
    const body = result.ok ? result.content : `ERROR: ${result.error}`;
    const section = `${text === '' ? '' : '\n\n'}${header}${body}`;
    if (text.length + section.length <= maxChars) {
      text += section;
      kept.push(result);
      continue;
    }
    const marker = '\n[truncated: the context budget is spent]';
    const room = maxChars - text.length - (section.length - body.length) - marker.length;
    const partial = room > 0 ? body.slice(0, room) : '';
    if (room > 0) text += `${section.slice(0, section.length - body.length)}${partial}${marker}`;
    kept.push(result.ok ? { ...result, content: partial, truncated: true } : { ...result, truncated: true });
  }
  return { text, results: kept };
}
