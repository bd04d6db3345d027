import { ToolOrchestratorError } from './tool-orchestrator-error.js';

/** Options of {@link MissingApiKeyError}. */
export interface MissingApiKeyErrorOptions {
  /** The provider name, e.g. `'deepseek'`. */
  readonly provider: string;
  /** The environment variable the adapter read, e.g. `'DEEPSEEK_API_KEY'`. */
  readonly environmentVariable: string;
}

/**
 * An adapter was built with neither a `client`, an `apiKey` option nor the provider's
 * environment variable. The message names the variable to set.
 */
export class MissingApiKeyError extends ToolOrchestratorError {
  readonly provider: string;
  readonly environmentVariable: string;

  constructor(options: MissingApiKeyErrorOptions) {
    super('missing_api_key', {
      message:
        `No API key for ${options.provider}: ${options.environmentVariable} is not set. ` +
        `Set ${options.environmentVariable}, or pass { apiKey } or an injected { client } to the adapter.`,
    });
    this.provider = options.provider;
    this.environmentVariable = options.environmentVariable;
  }
}
