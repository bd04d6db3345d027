/**
 * Cuts a text a trace event carries to `maxChars` characters, marking the cut; a text within the
 * cap is returned as it is.
 */
export function capTraceText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[trace cut: ${text.length - maxChars} of ${text.length} characters left out (maxTraceChars)]`;
}

/**
 * A tool's return value as a `tool_result` event carries it: as it is when its JSON fits in
 * `maxChars`, otherwise its text (a string, or its JSON) cut with a marker. `content` is the tool
 * message built from it; while it is shorter than `contentCap` (the runner's cut) and `maxChars`, it
 * is the whole JSON, so the value is small and is not serialized again.
 */
export function capTraceResult(
  result: unknown,
  content: string,
  maxChars: number,
  contentCap: number,
): unknown {
  if (typeof result === 'string') return capTraceText(result, maxChars);
  if (typeof result !== 'object' || result === null) return result;
  if (content.length < Math.min(maxChars, contentCap)) return result;
  let json: string | undefined;
  try {
    json = JSON.stringify(result);
  } catch {
    return capTraceText(content, maxChars);
  }
  return json === undefined || json.length <= maxChars ? result : capTraceText(json, maxChars);
}
