/**
 * JSON with every object's keys sorted, so two equal values give the same text whatever order
 * their keys were written in. Like `JSON.stringify`, it drops `undefined` and functions in
 * objects, writes them as `null` in arrays, and calls `toJSON`.
 */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, field: unknown) => {
      if (typeof field !== 'object' || field === null || Array.isArray(field)) return field;
      // No prototype, so a key named "__proto__" stays a plain key.
      const sorted = Object.create(null) as Record<string, unknown>;
      for (const key of Object.keys(field).sort()) sorted[key] = (field as Record<string, unknown>)[key];
      return sorted;
    }) ?? 'null'
  );
}
