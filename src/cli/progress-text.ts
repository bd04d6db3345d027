/** `1 turn`, `2 turns`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** `850ms`, `1.2s`. */
export function formatMs(milliseconds: number): string {
  return milliseconds >= 1000 ? `${(milliseconds / 1000).toFixed(1)}s` : `${Math.round(milliseconds)}ms`;
}

/** Whitespace collapsed to single spaces, cut to `max` characters with `…`. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A tool's output in one line: its first non-blank line and how many more there are. */
export function summarizeToolOutput(content: string): string {
  const lines = content.split('\n').filter((line) => line.trim() !== '');
  const first = oneLine(lines[0] ?? '(empty)', 120);
  return lines.length > 1 ? `${first} (+${plural(lines.length - 1, 'line')})` : first;
}
