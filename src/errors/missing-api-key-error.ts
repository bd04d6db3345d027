import { ToolOrchestratorError } from './tool-orchestrator-error.js';

/** Options of {@link MissingApiKeyError}. */
export interface MissingApiKeyErrorOptions {
  /** The provider name, e.g. `'deepseek'`. */
  readonly provider: string;
  /** The environment variable the adapter read, e.g. `'DEEPSEEK_API_KEY'`. */
  readonly environmentVariable: string;
  /**
   * The origin of a `baseURL` on another host than the provider's: the variable is never sent
   * there, so the key must be passed. Left out when the variable was read and is not set.
   */
  readonly origin?: string;
}

/**
 * An adapter was built with neither a `client`, an `apiKey` option nor the provider's
 * environment variable, or with a `baseURL` on another host and no `apiKey` (the provider's
 * variable is only sent to the provider's own host). The message says what to pass or set.
 */
export class MissingApiKeyError extends ToolOrchestratorError {
  readonly provider: string;
  readonly environmentVariable: string;

  constructor(options: MissingApiKeyErrorOptions) {
    super('missing_api_key', {
      message:
        options.origin === undefined
          ? `No API key for ${options.provider}: ${options.environmentVariable} is not set. ` +
            `Set ${options.environmentVariable}, or pass { apiKey } or an injected { client } to the adapter.`
          : `No API key for ${options.origin}: apiKey is not set, and ${options.environmentVariable} is only ` +
            `sent to ${options.provider}'s own host, never to another server. Pass { apiKey } for this server ` +
            `(any string, e.g. 'none', when it needs no key).`,
    });
    this.provider = options.provider;
    this.environmentVariable = options.environmentVariable;
  }
}
