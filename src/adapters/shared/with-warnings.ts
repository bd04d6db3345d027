import type { ModelResponse, ModelWarning } from '../../model/model-adapter.js';

/** The response with what the adapter changed in its request, for the loop to emit as `warning` events. */
export function withWarnings(response: ModelResponse, warnings: readonly ModelWarning[]): ModelResponse {
  return warnings.length === 0 ? response : { ...response, warnings };
}
