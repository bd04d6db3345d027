import { isRecord } from '../shared/normalize-usage.js';

/** An `@google/genai` `ApiError` as the shared error mapping reads a client error: status, headers, body, code. */
class GeminiApiFailure extends Error {
  readonly status: number;
  readonly headers: Headers;
  readonly error: unknown;
  readonly code: string | undefined;

  constructor(original: Error & { status: number }) {
    super(original.message, { cause: original });
    this.status = original.status;
    const body = parseBody(original.message);
    const error = isRecord(body) && isRecord(body['error']) ? body['error'] : undefined;
    this.error = error ?? body;
    this.code = typeof error?.['status'] === 'string' ? error['status'] : undefined;
    this.headers = new Headers();
    const delay = retryDelaySeconds(error);
    if (delay !== undefined) this.headers.set('retry-after', String(delay));
  }
}

/**
 * The error the shared mapping (`toProviderError`) turns into a typed error: an `@google/genai`
 * `ApiError` (its message is the JSON error body) becomes one with `status`, the body's `error`,
 * its `status` (e.g. `RESOURCE_EXHAUSTED`) as code, and the wait of a `RetryInfo` detail as
 * `retry-after`. Anything else is returned as is.
 */
export function fromGeminiError(error: unknown): unknown {
  if (!(error instanceof Error) || error.name !== 'ApiError') return error;
  const status: unknown = (error as { status?: unknown }).status;
  if (typeof status !== 'number') return error;
  return new GeminiApiFailure(error as Error & { status: number });
}

function parseBody(message: string): unknown {
  try {
    return JSON.parse(message);
  } catch {
    return { message };
  }
}

/** Seconds of a `google.rpc.RetryInfo` detail (`retryDelay: '13s'`), when the error has one. */
function retryDelaySeconds(error: Readonly<Record<string, unknown>> | undefined): number | undefined {
  const details = Array.isArray(error?.['details']) ? error['details'] : [];
  for (const detail of details) {
    if (!isRecord(detail) || typeof detail['retryDelay'] !== 'string') continue;
    const seconds = Number.parseFloat(detail['retryDelay']);
    if (Number.isFinite(seconds)) return Math.max(0, seconds);
  }
  return undefined;
}
