/** What a cassette must not keep: values to remove wherever they appear, and fields to blank by name. */
export interface RedactionRules {
  /**
   * Secrets to remove from every string: exact strings, or patterns (every match is replaced;
   * of a pattern's flags only `i` is kept).
   */
  readonly values?: readonly (string | RegExp)[];
  /** Field names whose values are blanked whatever they hold, matched case-insensitively. */
  readonly fields?: readonly (string | RegExp)[];
}

/** What replaces a removed secret. */
export const redacted = '[REDACTED]';

/** Field names blanked by default: credentials and the headers that carry them. */
const defaultFields: readonly RegExp[] = [
  /^authorization$/i,
  /^proxy-authorization$/i,
  /api[-_]?key/i,
  /^x-goog-api-key$/i,
  /^cookie$/i,
  /^set-cookie$/i,
  /secret/i,
  /password/i,
  /^(access|refresh|bearer|auth)[-_]?token$/i,
];

/** Secrets removed by default wherever they appear: provider keys and bearer tokens. */
const defaultValues: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{16,}/,
  /\bAIza[0-9A-Za-z_-]{30,}/,
  /\bBearer\s+[A-Za-z0-9._~+/-]{8,}=*/,
];

/** What a recording removes, as functions: a deep copy without secrets, and its two parts. */
export interface Redactor {
  /** A deep copy of a JSON value with every secret removed. */
  copy<Value>(value: Value): Value;
  /** A string with every secret in it replaced. */
  text(value: string): string;
  /** Whether a field of this name is blanked whatever it holds. */
  blanks(field: string): boolean;
}

/**
 * What a recording removes: the default fields and patterns, the rules' own, and the values of
 * environment variables named like keys (`*_API_KEY`, `*_TOKEN`, `*_SECRET`) found in `environment`.
 */
export function createRedactor(
  rules: RedactionRules = {},
  environment: Readonly<Record<string, string | undefined>> = {},
): Redactor {
  const fields = [...defaultFields, ...(rules.fields ?? []).map(asFieldPattern)];
  const secrets = Object.entries(environment)
    .filter(([name, value]) => /(_API_KEY|_KEY|_TOKEN|_SECRET)$/i.test(name) && (value?.length ?? 0) >= 8)
    .map(([, value]) => value!);
  // The rules joined into one pattern (one more for case-insensitive ones): a pass or two over each
  // string, however many rules there are.
  const all = [...defaultValues, ...(rules.values ?? []), ...secrets].map(asPattern);
  const passes = [false, true]
    .map((ignoreCase) => all.filter((pattern) => pattern.ignoreCase === ignoreCase))
    .filter((patterns) => patterns.length > 0)
    .map(
      (patterns) =>
        new RegExp(
          patterns.map((pattern) => `(?:${pattern.source})`).join('|'),
          patterns[0]!.ignoreCase ? 'gi' : 'g',
        ),
    );
  const text = (value: string): string =>
    passes.reduce((current, pattern) => current.replace(pattern, redacted), value);
  const blanks = (field: string): boolean => fields.some((pattern) => pattern.test(field));
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map(visit);
    if (typeof value !== 'object' || value === null) return value;
    const copy: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      copy[key] = blanks(key) && field != null ? redacted : visit(field);
    }
    return copy;
  };
  return { copy: <Value>(value: Value) => visit(value) as Value, text, blanks };
}

function asFieldPattern(field: string | RegExp): RegExp {
  return typeof field === 'string' ? new RegExp(`^${escape(field)}$`, 'i') : field;
}

function asPattern(value: string | RegExp): RegExp {
  return typeof value === 'string' ? new RegExp(escape(value)) : value;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
