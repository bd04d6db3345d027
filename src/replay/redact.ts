/** What a cassette must not keep: values to remove wherever they appear, and fields to blank by name. */
export interface RedactionRules {
  /**
   * Secrets to remove from every string: exact strings, or patterns (a pattern without the `g`
   * flag still replaces every match).
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
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/-]{8,}=*/g,
];

/**
 * A function that returns a deep copy of a JSON value with secrets removed: the default fields and
 * patterns, the rules' own, and the values of environment variables named like keys
 * (`*_API_KEY`, `*_TOKEN`, `*_SECRET`) found in `environment`.
 */
export function createRedactor(
  rules: RedactionRules = {},
  environment: Readonly<Record<string, string | undefined>> = {},
): <Value>(value: Value) => Value {
  const fields = [...defaultFields, ...(rules.fields ?? []).map(asFieldPattern)];
  const secrets = Object.entries(environment)
    .filter(([name, value]) => /(_API_KEY|_KEY|_TOKEN|_SECRET)$/i.test(name) && (value?.length ?? 0) >= 8)
    .map(([, value]) => value!);
  const values = [...defaultValues, ...(rules.values ?? []), ...secrets].map(asValuePattern);
  const text = (value: string): string =>
    values.reduce((current, pattern) => current.replace(pattern, redacted), value);
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map(visit);
    if (typeof value !== 'object' || value === null) return value;
    const copy: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      copy[key] = fields.some((pattern) => pattern.test(key)) && field != null ? redacted : visit(field);
    }
    return copy;
  };
  return <Value>(value: Value) => visit(value) as Value;
}

function asFieldPattern(field: string | RegExp): RegExp {
  return typeof field === 'string' ? new RegExp(`^${escape(field)}$`, 'i') : field;
}

function asValuePattern(value: string | RegExp): RegExp {
  if (typeof value === 'string') return new RegExp(escape(value), 'g');
  return value.global ? value : new RegExp(value.source, `${value.flags}g`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
