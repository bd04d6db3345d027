import { EmptyResponseError } from '../../errors/empty-response-error.js';
import { UnexpectedResponseError } from '../../errors/unexpected-response-error.js';
import type { ResponseOrigin } from './parse-completion.js';

/**
 * The JSON of a 200 answer's body, before its shape is checked. `api` names the API the base URL
 * should point at, e.g. `'a Chat Completions API'`, for the error's advice.
 *
 * @throws {EmptyResponseError} when the body is blank (a server may send only keep-alive newlines); retryable.
 * @throws {UnexpectedResponseError} when the body is not JSON.
 */
export function parseJsonBody(text: string, origin: ResponseOrigin, api: string): unknown {
  // Not `originFields`: parse-completion.ts imports this module.
  const details = {
    provider: origin.provider,
    ...(origin.requestId === undefined ? {} : { requestId: origin.requestId }),
  };
  if (text.trim() === '') {
    throw new EmptyResponseError({
      ...details,
      status: 200,
      message: `${origin.provider} answered 200 with a blank body.`,
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UnexpectedResponseError({
      ...details,
      status: 200,
      rawOutput: text.slice(0, 2000),
      cause: error,
      message: `${origin.provider} answered 200 with a body that is not JSON: ${JSON.stringify(text.slice(0, 120))}. Check baseURL points at ${api}.`,
    });
  }
}
