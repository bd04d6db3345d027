import type { ContextLengthError } from '../../errors/context-length-error.js';
import type { Usage } from '../../model/usage.js';
import type { ContextWindowState } from './context-window-state.js';

/** The furthest a provider's count may scale the estimates, either way. */
const maxCalibration = 4;

/**
 * After a call: records the context size it sent (`tokens`), and the provider's prompt tokens,
 * over the call's estimate, scale the estimates of the calls that follow.
 */
export function learnFromUsage(state: ContextWindowState, tokens: number, usage: Usage | undefined): void {
  state.contextTokens.push(tokens);
  const promptTokens = usage?.promptTokens;
  if (typeof promptTokens !== 'number' || !(promptTokens > 0) || !(state.pendingEstimate > 0)) return;
  // Bounded, so one odd usage report cannot make the window look empty or full.
  state.calibration = Math.min(
    maxCalibration,
    Math.max(1 / maxCalibration, promptTokens / state.pendingEstimate),
  );
}

/**
 * After the provider refused a call as too long: a smaller window it named replaces the state's,
 * and the estimates are made to err high (the last one fell short of the provider's count).
 */
export function learnFromRefusal(state: ContextWindowState, error: ContextLengthError): void {
  const window = error.maxContextTokens;
  if (window !== undefined && window < state.maxTokens) state.maxTokens = window;
  const requested = error.requestedTokens;
  state.calibration =
    requested !== undefined && state.pendingEstimate > 0
      ? Math.max(state.calibration, Math.min(maxCalibration, requested / state.pendingEstimate))
      : Math.min(maxCalibration, state.calibration * 1.25);
}
