import type { ModelAdapter } from '../../model/model-adapter.js';
import type { ContextWindowOptions } from '../../orchestrator/context-window/context-window-options.js';

/**
 * The window the flows assume when the adapter does not know its model's: small enough for most
 * local servers' defaults, and a provider that turns out smaller is answered by the loop's
 * reduce-and-retry with the window its error names.
 */
export const defaultFlowContextWindowTokens = 32_768;

/**
 * The `contextWindow` a flow's loop runs with: on by default, with the adapter's window (or
 * {@link defaultFlowContextWindowTokens} when it knows none); `false` turns it off; an object is
 * used as given, its `maxTokens` defaulted the same way.
 */
export function flowContextWindow(
  option: ContextWindowOptions | boolean | undefined,
  adapter: ModelAdapter,
): ContextWindowOptions | false {
  if (option === false) return false;
  const given = option === undefined || option === true ? {} : option;
  return {
    ...given,
    maxTokens: given.maxTokens ?? adapter.contextWindowTokens ?? defaultFlowContextWindowTokens,
  };
}
