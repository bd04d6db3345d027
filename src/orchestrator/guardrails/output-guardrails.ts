import type { RunStateStopReason } from '../../durable/run-state.js';
import { raceAbort } from '../race-abort.js';
import type { RunConfig } from '../run-config.js';
import type { RunState } from '../run-state.js';
import { GuardrailGroup } from './guardrail-group.js';

/** The final answer an output guardrail judges. */
export interface FinalAnswer {
  /** The answer's text (`null` content becomes `''`). */
  readonly content: string;
  /** The run's typed output; `undefined` until runs have one. */
  readonly output: unknown;
}

/**
 * Runs the output guardrails on the run's final answer, before it joins the transcript. Resolves to
 * `'guardrail_tripped'` when one tripped (the answer must then be left out), `undefined` otherwise.
 *
 * @throws {AbortedError} when the run is aborted first.
 */
export async function checkOutputGuardrails(
  state: RunState,
  config: RunConfig,
  answer: FinalAnswer,
): Promise<RunStateStopReason | undefined> {
  const guardrails = config.guardrails?.output;
  if (guardrails === undefined || guardrails.length === 0) return undefined;
  const group = new GuardrailGroup(state, 'output');
  try {
    const tripped = await raceAbort(
      group.check(guardrails, {
        content: answer.content,
        output: answer.output,
        messages: state.messages.slice(),
        context: config.context,
        runId: state.runId,
        signal: group.signal,
      }),
      state.signal,
    );
    return tripped ? 'guardrail_tripped' : undefined;
  } finally {
    group.close();
  }
}
