/**
 * Shape checks of what providers hand back (reasoning parts, provider data), shared by the check
 * of an adapter's response and the check of a saved run. Each answers what is wrong, or
 * `undefined`; the contents are the provider's and are never read further.
 */

/** What is wrong with a `reasoning` field: an array of `{ type: 'reasoning', text?, redacted?, providerData? }`. */
export function reasoningProblem(
  value: unknown,
): { readonly path: string; readonly expected: string } | undefined {
  if (!Array.isArray(value)) return { path: '', expected: 'an array of reasoning parts' };
  for (let index = 0; index < value.length; index++) {
    const part: unknown = value[index];
    if (!isPlainObject(part) || part['type'] !== 'reasoning') {
      return { path: `[${index}]`, expected: "a reasoning part ({ type: 'reasoning', ... })" };
    }
    if (part['text'] !== undefined && typeof part['text'] !== 'string') {
      return { path: `[${index}].text`, expected: 'a string' };
    }
    if (part['redacted'] !== undefined && typeof part['redacted'] !== 'boolean') {
      return { path: `[${index}].redacted`, expected: 'a boolean' };
    }
    const data = providerDataProblem(part['providerData']);
    if (data !== undefined) return { path: `[${index}].providerData${data.path}`, expected: data.expected };
  }
  return undefined;
}

/** What is wrong with a `providerData` field: absent, or an object of objects keyed by adapter. */
export function providerDataProblem(
  value: unknown,
): { readonly path: string; readonly expected: string } | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) return { path: '', expected: 'an object keyed by providerDataKey' };
  for (const [key, data] of Object.entries(value)) {
    if (!isPlainObject(data)) return { path: `[${JSON.stringify(key)}]`, expected: 'an object' };
  }
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
