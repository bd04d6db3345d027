import { redacted } from './redact.js';
import type { Redactor } from './redact.js';

/** Where two JSON values first differ, depth first in key order. */
export interface Difference {
  /** A path into the value, e.g. `messages[3].content`. */
  readonly path: string;
  readonly recorded: unknown;
  /** The received value as a recording would have written it (its secrets removed). */
  readonly received: unknown;
}

/**
 * The first place a request differs from the recorded one, or `undefined` when they are equal.
 * `received` is compared as a recording would have written it with `redactor`: a string that
 * differs is compared again with its secrets removed, and a blanked field matches the blank. So
 * the request is neither copied nor redacted whole; {@link firstDifferenceOfCopies} is the plain
 * reference (redact a copy, then compare), and a test checks that the two agree. A field set to
 * `undefined` counts as absent, as in JSON.
 */
export function firstDifference(
  recorded: unknown,
  received: unknown,
  redactor: Redactor,
  path = '',
): Difference | undefined {
  if (Object.is(recorded, received)) return undefined;
  if (typeof received === 'string') {
    const written = redactor.text(received);
    return recorded === written ? undefined : at(path, recorded, written);
  }
  if (
    typeof recorded !== 'object' ||
    typeof received !== 'object' ||
    recorded === null ||
    received === null
  ) {
    return at(path, recorded, redactor.copy(received));
  }
  if (Array.isArray(recorded) !== Array.isArray(received)) return at(path, recorded, redactor.copy(received));
  if (Array.isArray(recorded) && Array.isArray(received)) {
    const length = Math.max(recorded.length, received.length);
    for (let index = 0; index < length; index++) {
      const found = firstDifference(recorded[index], received[index], redactor, `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const before = recorded as Record<string, unknown>;
  const now = received as Record<string, unknown>;
  for (const key of new Set([...Object.keys(before), ...Object.keys(now)])) {
    const inner = path === '' ? key : `${path}.${key}`;
    const value = now[key];
    const found =
      redactor.blanks(key) && value != null
        ? before[key] === redacted
          ? undefined
          : at(inner, before[key], redacted)
        : firstDifference(before[key], value, redactor, inner);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The reference for {@link firstDifference}: the received value redacted whole, then compared plainly. */
export function firstDifferenceOfCopies(
  recorded: unknown,
  received: unknown,
  redactor: Redactor,
): Difference | undefined {
  return plainDifference(recorded, redactor.copy(received), '');
}

function plainDifference(recorded: unknown, received: unknown, path: string): Difference | undefined {
  if (Object.is(recorded, received)) return undefined;
  if (
    typeof recorded !== 'object' ||
    typeof received !== 'object' ||
    recorded === null ||
    received === null
  ) {
    return at(path, recorded, received);
  }
  if (Array.isArray(recorded) !== Array.isArray(received)) return at(path, recorded, received);
  if (Array.isArray(recorded) && Array.isArray(received)) {
    const length = Math.max(recorded.length, received.length);
    for (let index = 0; index < length; index++) {
      const found = plainDifference(recorded[index], received[index], `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const before = recorded as Record<string, unknown>;
  const now = received as Record<string, unknown>;
  for (const key of new Set([...Object.keys(before), ...Object.keys(now)])) {
    const found = plainDifference(before[key], now[key], path === '' ? key : `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

function at(path: string, recorded: unknown, received: unknown): Difference {
  return { path: path === '' ? '(the request)' : path, recorded, received };
}
