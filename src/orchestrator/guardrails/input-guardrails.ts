import { callModelStep } from '../call-model-step.js';
import type { CallModelOptions } from '../call-model-step.js';
import type { CheckedResponse } from '../check-response.js';
import { raceAbort } from '../race-abort.js';
import type { RunConfig } from '../run-config.js';
import type { RunState } from '../run-state.js';
import type { InputGuardrail, InputGuardrailInfo } from './guardrail-options.js';
import { GuardrailGroup } from './guardrail-group.js';

/**
 * The run's first model call, guarded by its input guardrails: the others first, then the call
 * beside those with `runInParallel` (all of them start at once). Resolves to the call's response,
 * or `undefined` when a guardrail tripped: the call was then not made, or aborted, or its response
 * is dropped (its usage, when it arrived, still counts).
 *
 * @throws the model call's error when no guardrail tripped; `AbortedError` when the run is aborted.
 */
export async function callModelGuarded(
  state: RunState,
  config: RunConfig,
  guardrails: readonly InputGuardrail<object>[],
  options: CallModelOptions,
): Promise<CheckedResponse | undefined> {
  const group = new GuardrailGroup(state, 'input');
  const info: InputGuardrailInfo<object> = {
    messages: state.messages.slice(),
    context: config.context,
    runId: state.runId,
    signal: group.signal,
  };
  const parallel = guardrails.filter((guardrail) => guardrail.runInParallel === true);
  const blocking =
    parallel.length === 0 ? guardrails : guardrails.filter((guardrail) => guardrail.runInParallel !== true);
  try {
    const beside = group.check(parallel, info);
    if (await raceAbort(group.check(blocking, info), state.signal)) return undefined;
    if (parallel.length === 0) return await callModelStep(state, config, options);
    // The call has a signal of its own, so a tripwire can abort it and leave the run's alone.
    const call = new AbortController();
    const stopFollowing = follow(state.signal, call);
    group.onTrip(() => call.abort(new Error('An input guardrail tripped.')));
    let failure: { readonly error: unknown } | undefined;
    let checked: CheckedResponse | undefined;
    try {
      checked = await callModelStep(state, config, { ...options, signal: call.signal });
    } catch (error) {
      failure = { error };
    } finally {
      stopFollowing();
    }
    if (await raceAbort(beside, state.signal)) return undefined;
    if (failure !== undefined) throw failure.error;
    return checked;
  } finally {
    group.close();
  }
}

/** Aborts `controller` when `signal` does; returns a function that stops following it. */
function follow(signal: AbortSignal | undefined, controller: AbortController): () => void {
  if (signal === undefined) return () => {};
  const onAbort = (): void => controller.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
