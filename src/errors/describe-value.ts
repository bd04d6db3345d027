/**
 * Describing values of unknown shape for error messages without ever throwing: a thrown
 * `Object.create(null)`, a Proxy whose traps throw, a revoked Proxy or an Error whose `message`
 * getter throws must not turn a reported failure into a crash.
 */

const undescribable = 'a value that is not an Error and cannot be converted to text';

/** What kind of value this is, with its article: `'null'`, `'an array'`, `'a number'`... */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' ? 'an object' : `a ${type}`;
}

/** A short rendering of `value` for an error message: JSON when it has one, cut at `maxChars`. */
export function describeValue(value: unknown, maxChars = 80): string {
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    case 'symbol':
      return value.toString();
    case 'bigint':
      return `${value}n`;
    case 'number':
      return String(value); // JSON would say null for NaN and Infinity.
    default:
      break;
  }
  const json = safeJson(value);
  if (json !== undefined) return cut(json, maxChars);
  return safeString(value) ?? 'a value that cannot be shown';
}

/**
 * The message of a thrown value: an Error's `message`, a string as it is, anything else as text or
 * JSON. Never throws.
 */
export function describeThrown(value: unknown): string {
  if (typeof value === 'string') return value;
  if (isError(value)) {
    try {
      const message: unknown = (value as Error).message;
      return typeof message === 'string' ? message : describeValue(message);
    } catch {
      // Fall through: the getter threw.
    }
    return `a thrown ${safeName(value) ?? 'Error'} whose message cannot be read`;
  }
  if (typeof value !== 'object' && typeof value !== 'function') return safeString(value) ?? undescribable;
  const text = safeString(value);
  // '[object Object]' says nothing; JSON of the fields says more.
  if (text !== undefined && !/^\[object \w*\]$/.test(text)) return cut(text, 1_000);
  const json = safeJson(value);
  if (json !== undefined && json !== '{}') return cut(json, 1_000);
  return undescribable;
}

/** The `name` of a thrown value when it is a readable string (`'Error'` otherwise). */
export function errorName(value: unknown): string {
  return (isError(value) && safeName(value)) || 'Error';
}

/** The string `code` of a thrown value, when it has one that can be read. */
export function errorCode(value: unknown): string | undefined {
  try {
    const code = (value as { code?: unknown } | null | undefined)?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

function isError(value: unknown): boolean {
  try {
    return value instanceof Error;
  } catch {
    return false; // A Proxy whose getPrototypeOf trap throws.
  }
}

function isArray(value: unknown): boolean {
  try {
    return Array.isArray(value);
  } catch {
    return false; // A revoked Proxy.
  }
}

function safeName(value: unknown): string | undefined {
  try {
    const name = (value as { name?: unknown }).name;
    return typeof name === 'string' && name !== '' ? name : undefined;
  } catch {
    return undefined;
  }
}

function safeString(value: unknown): string | undefined {
  try {
    return String(value);
  } catch {
    return undefined;
  }
}

function safeJson(value: unknown): string | undefined {
  try {
    const json = JSON.stringify(value);
    return typeof json === 'string' ? json : undefined;
  } catch {
    return undefined;
  }
}

function cut(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, maxChars - 3)}...` : text;
}
