import { ContextLengthError } from '../../errors/context-length-error.js';
import { callModelStep } from '../call-model-step.js';
import type { CallModelOptions } from '../call-model-step.js';
import type { CheckedResponse } from '../check-response.js';
import type { RunConfig } from '../run-config.js';
import type { RunState } from '../run-state.js';
import { applyContextWindow, calibrate } from './reduce-context.js';
import type { ContextPlan } from './reduce-context.js';

/**
 * Makes one model call within the run's context window: what is sent is reduced first when it
 * would pass the limit, and a provider's `ContextLengthError` is answered once by reducing further
 * (to the window the provider named, when it named one) and retrying the call. Without
 * `contextWindow` it is `callModelStep` as it is.
 *
 * @throws {ContextLengthError} when the retry is refused too, or nothing more could be taken out.
 */
export function callModelInWindow(
  state: RunState,
  config: RunConfig,
  options: CallModelOptions,
): Promise<CheckedResponse> {
  const context = state.contextWindow;
  if (config.contextWindow === undefined || context === undefined) return callModelStep(state, options);
  const planned = applyContextWindow(state, config, options.messages, options.tools, undefined);
  return 'then' in planned
    ? planned.then((plan) => callWithin(state, config, options, plan))
    : callWithin(state, config, options, planned);
}

/**
 * Makes the call `plan` says, and answers a `ContextLengthError` once by reducing further. Not an
 * async function: its `then` is the only hop a call within the window adds.
 */
function callWithin(
  state: RunState,
  config: RunConfig,
  options: CallModelOptions,
  plan: ContextPlan,
): Promise<CheckedResponse> {
  return callModelStep(state, withPlan(options, plan)).then(
    (checked) => accountCall(state, plan, checked),
    (error: unknown) => retryReduced(state, config, options, error),
  );
}

/** Answers a refused call: reduces further (to the window the provider named) and calls once more. */
async function retryReduced(
  state: RunState,
  config: RunConfig,
  options: CallModelOptions,
  error: unknown,
): Promise<CheckedResponse> {
  if (!ContextLengthError.isInstance(error)) throw error;
  const context = state.contextWindow!;
  const window = error.maxContextTokens;
  if (window !== undefined && window < context.maxTokens) context.maxTokens = window;
  // The estimate fell short of the provider's count: make the next ones err high.
  const requested = error.requestedTokens;
  context.calibration =
    requested !== undefined && context.pendingEstimate > 0
      ? Math.max(context.calibration, Math.min(4, requested / context.pendingEstimate))
      : Math.min(4, context.calibration * 1.25);
  const plan = await applyContextWindow(state, config, options.messages, options.tools, 'overflow');
  if (!plan.reduced) throw error;
  return accountCall(state, plan, await callModelStep(state, withPlan(options, plan)));
}

/** Records what a call sent, and corrects the estimates with the prompt tokens it reported. */
function accountCall(state: RunState, plan: ContextPlan, checked: CheckedResponse): CheckedResponse {
  const context = state.contextWindow!;
  context.contextTokens.push(plan.tokens);
  calibrate(context, checked.response.usage?.promptTokens);
  return checked;
}

/**
 * `options` with what `plan` sends. Written out rather than spread: a spread adding fields makes an
 * object of a new shape on every call, which costs more than the rest of the accounting of a turn.
 */
function withPlan(options: CallModelOptions, plan: ContextPlan): CallModelOptions {
  return {
    adapter: options.adapter,
    messages: plan.messages,
    tools: options.tools,
    toolChoice: options.toolChoice,
    stream: options.stream,
    now: options.now,
    finalAnswer: options.finalAnswer,
    contextTokens: plan.tokens,
    messagesGrow: plan.messagesGrow,
  } satisfies Record<keyof CallModelOptions, unknown>;
}
