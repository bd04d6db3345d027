/** How deep a cause chain is searched: chains are short, and a cycle must not loop forever. */
const maxDepth = 8;

/**
 * The first system error code in `error`'s cause chain (`error.cause`, its `cause`, ...), such as
 * `'ECONNREFUSED'`, `'ENOTFOUND'`, `'ETIMEDOUT'` or undici's `'UND_ERR_CONNECT_TIMEOUT'`: what
 * failed under a wrapper like `fetch failed` or the `openai` client's `Connection error.`.
 */
export function causeCode(error: unknown): string | undefined {
  let cause = causeOf(error);
  for (let depth = 0; depth < maxDepth && typeof cause === 'object' && cause !== null; depth++) {
    const code = readCode(cause);
    if (code !== undefined) return code;
    cause = causeOf(cause);
  }
  return undefined;
}

function causeOf(value: unknown): unknown {
  try {
    return typeof value === 'object' && value !== null ? (value as { cause?: unknown }).cause : undefined;
  } catch {
    return undefined;
  }
}

function readCode(value: object): string | undefined {
  try {
    const code = (value as { code?: unknown }).code;
    return typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}
