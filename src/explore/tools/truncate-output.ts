/**
 * Cuts `text` to at most `maxChars` characters at a line boundary and appends `hint`
 * (what to do to see the rest). Text within the cap is returned unchanged.
 */
export function truncateOutput(text: string, maxChars: number, hint: string): string {
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf('\n', maxChars);
  const kept = text.slice(0, cut > 0 ? cut : maxChars);
  return `${kept}\n[Output cut at ${kept.length} of ${text.length} characters. ${hint}]`;
}
