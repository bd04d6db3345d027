import { ConnectionError } from '../../errors/connection-error.js';
import { originFields } from './parse-completion.js';
import type { ResponseOrigin } from './parse-completion.js';

/**
 * Reads a whole response body as text.
 *
 * @throws {ConnectionError} when the connection breaks before the body ends (Node's bare
 * `TypeError: terminated`); retryable.
 */
export async function readBody(response: Response, origin: ResponseOrigin): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    throw brokenConnection(error, origin, 'while reading the response');
  }
}

/** The retryable error for a connection that broke `when`, e.g. `'while reading the response'`. */
export function brokenConnection(error: unknown, origin: ResponseOrigin, when: string): ConnectionError {
  return new ConnectionError({
    ...originFields(origin),
    cause: error,
    message: `The connection to ${origin.provider} broke ${when}: ${describeError(error)}.`,
  });
}

/** `terminated (read ECONNRESET)`: undici's message and the socket's. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
