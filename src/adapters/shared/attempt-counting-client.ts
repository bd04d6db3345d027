import type OpenAI from 'openai';

/** How many HTTP attempts one adapter call made, the client's own retries included. */
export interface AttemptCounter {
  attempts: number;
}

type FetchFunction = (url: string | URL | Request, init?: RequestInit) => Promise<Response>;

// Carried from the per-request `fetchOptions` into the `init` the client hands to `fetch`.
const counterKey = 'toolOrchestratorAttemptCounter';

/**
 * Wraps the client's `fetch` so that each adapter call can count the attempts the client makes
 * (its own retries are otherwise invisible), which lets the adapter's retries and the client's
 * share one `maxRetries` budget. It also marks OpenAI's `insufficient_quota` 429 as not
 * retryable (`x-should-retry: false`), since waiting does not refill an account.
 * Returns the client unchanged when it exposes no `fetch` or `withOptions` (other versions).
 */
export function withAttemptCounting(client: OpenAI): OpenAI {
  const base = (client as unknown as { fetch?: FetchFunction }).fetch;
  if (typeof base !== 'function' || typeof client.withOptions !== 'function') return client;
  const fetch: FetchFunction = async (url, init) => {
    const counter = (init as Record<string, unknown> | undefined)?.[counterKey] as AttemptCounter | undefined;
    if (counter !== undefined) counter.attempts += 1;
    const response = await base(url, init);
    return response.status === 429 ? await markQuotaNotRetryable(response) : response;
  };
  return client.withOptions({ fetch });
}

/** The `fetchOptions` that carry `counter` to the wrapped `fetch`. */
export function countingFetchOptions(
  counter: AttemptCounter,
): NonNullable<OpenAI.RequestOptions['fetchOptions']> {
  return { [counterKey]: counter } as NonNullable<OpenAI.RequestOptions['fetchOptions']>;
}

async function markQuotaNotRetryable(response: Response): Promise<Response> {
  if (response.headers.get('x-should-retry') !== null) return response;
  const text = await response.clone().text();
  if (!text.includes('"insufficient_quota"')) return response;
  const headers = new Headers(response.headers);
  headers.set('x-should-retry', 'false');
  return new Response(text, { status: response.status, statusText: response.statusText, headers });
}
