/** Where two JSON values first differ, depth first in key order, or `undefined` when they are equal. */
export interface Difference {
  /** A path into the value, e.g. `messages[3].content`. */
  readonly path: string;
  readonly recorded: unknown;
  readonly received: unknown;
}

/** The first place `received` differs from `recorded`; both are plain JSON (no `undefined` fields). */
export function firstDifference(recorded: unknown, received: unknown, path = ''): Difference | undefined {
  if (Object.is(recorded, received)) return undefined;
  const here = { path: path === '' ? '(the request)' : path, recorded, received };
  if (
    typeof recorded !== 'object' ||
    typeof received !== 'object' ||
    recorded === null ||
    received === null
  ) {
    return here;
  }
  if (Array.isArray(recorded) !== Array.isArray(received)) return here;
  if (Array.isArray(recorded) && Array.isArray(received)) {
    const length = Math.max(recorded.length, received.length);
    for (let index = 0; index < length; index++) {
      const found = firstDifference(recorded[index], received[index], `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const before = recorded as Record<string, unknown>;
  const now = received as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(now)])];
  for (const key of keys) {
    const found = firstDifference(before[key], now[key], path === '' ? key : `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}
