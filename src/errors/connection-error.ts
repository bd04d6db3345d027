import { causeCode } from './cause-code.js';
import { ModelProviderError } from './model-provider-error.js';
import type { ModelProviderErrorOptions } from './model-provider-error.js';

/** Options of {@link ConnectionError}. */
export interface ConnectionErrorOptions extends ModelProviderErrorOptions {
  /** Where the connection went: the base URL's origin (scheme, host and port; never a path or query). */
  readonly origin?: string;
  /** The system error code of the failure. @default the first one in `cause`'s chain */
  readonly causeCode?: string;
}

/**
 * The connection failed: refused, reset (before or in the middle of the body or stream), or the whole response did not arrive within the adapter's `timeout`. The adapters retry it within `maxRetries` while a stream has emitted nothing. Retryable.
 */
export class ConnectionError extends ModelProviderError {
  /** The origin the adapter tried to reach, e.g. `'https://api.openai.com'`, when known. */
  readonly origin: string | undefined;
  /** Why, as the system put it, e.g. `'ECONNREFUSED'`, `'ENOTFOUND'`, `'ETIMEDOUT'`, when known. */
  readonly causeCode: string | undefined;

  constructor(options: ConnectionErrorOptions) {
    super('connection_error', { retryable: true, ...options });
    this.origin = options.origin;
    this.causeCode = options.causeCode ?? causeCode(options.cause);
  }
}
