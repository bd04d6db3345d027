/**
 * Parses JSON with comments and trailing commas (tsconfig.json, jsconfig.json) into a plain
 * object; `undefined` when the text is not such JSON or its top level is not an object.
 */
export function parseJsonc(text: string): Record<string, unknown> | undefined {
  let output = '';
  let index = 0;
  while (index < text.length) {
    const character = text[index];
    if (character === '"') {
      const start = index;
      index += 1;
      while (index < text.length && text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
      output += text.slice(start, index + 1);
      index += 1;
    } else if (character === '/' && text[index + 1] === '/') {
      while (index < text.length && text[index] !== '\n') index += 1;
    } else if (character === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      index = end === -1 ? text.length : end + 2;
    } else {
      output += character;
      index += 1;
    }
  }
  try {
    const value: unknown = JSON.parse(output.replace(/,(\s*[}\]])/g, '$1'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
