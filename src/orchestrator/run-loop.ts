import type { RunStateStopReason } from '../durable/run-state.js';
import { callModelStep } from './call-model-step.js';
import { assistantMessage } from './assistant-message.js';
import { answerToolCalls } from './answer-tool-calls.js';
import { executeToolsStep } from './execute-tools-step.js';
import { prepareTurnStep } from './prepare-turn-step.js';
import type { RunConfig } from './run-config.js';
import type { RunState } from './run-state.js';
import { isForcedChoice } from './prepare-turn-step.js';
import { stopAfterTools, stopBeforeTurn } from './stop-reason.js';
import { callModelGuarded } from './guardrails/input-guardrails.js';
import { checkOutputGuardrails } from './guardrails/output-guardrails.js';
import { finalAnswerCall, outputFromAnswer, outputFromToolCall } from './output/output-step.js';

/**
 * The loop, one turn after another: check the limits, prepare the call, call the model, run the
 * tools, check the stop conditions. A response that ends `'refusal'` ends the run with that stop
 * reason; one that ends `'pause_turn'` (a provider pausing its own long turn) is kept and the next
 * turn sends it back. With a typed `output`, the final answer is read and validated (see
 * `output-step.ts`). Guardrails, when there are any, judge the first call's input and the final
 * answer (and output); a tripwire ends the run with `'guardrail_tripped'`. Every step reads and writes `state`
 * only, so the loop can stop after any step and go on later from the same state: a resumed run
 * whose turn was being answered (`state.currentTurn`) first answers the rest of that turn. A turn
 * whose transfer call succeeded hands the run to that agent (`state.handoffs`): the next call
 * uses its configuration.
 */
export async function runLoop(state: RunState, config: RunConfig): Promise<RunStateStopReason> {
  if (state.currentTurn !== undefined) {
    state.trace.turn = state.currentTurn.turnIndex;
    const response = state.lastResponse ?? { content: null };
    const answered = await answerToolCalls(state, config);
    const stop = stopAfterTools(state, config, response, answered);
    if (state.handoffs !== undefined) config = await state.handoffs.afterTurn(state, answered);
    if (stop !== undefined) return stop;
  }
  for (;;) {
    const before = stopBeforeTurn(state, config);
    if (before !== undefined) return before;
    state.trace.turn = state.turns;
    const plan = await prepareTurnStep(state, config, false);
    const call = {
      messages: plan.messages,
      tools: plan.tools,
      toolChoice: plan.toolChoice,
      finalAnswer: false,
    };
    const input = state.turns === 0 ? config.guardrails?.input : undefined;
    const checked =
      input === undefined || input.length === 0
        ? await callModelStep(state, config, call)
        : await callModelGuarded(state, config, input, call);
    if (checked === undefined) return 'guardrail_tripped';
    const { response } = checked;
    const rejectedCalls =
      state.handoffs === undefined
        ? checked.rejectedCalls
        : state.handoffs.rejectExtraTransfers(response, checked.rejectedCalls);
    if ((response.tool_calls?.length ?? 0) === 0) {
      if (response.finish_reason === 'pause_turn') {
        // The provider paused a long turn of its own tools: sending it back lets the server go on.
        state.messages.push(assistantMessage(response));
        continue;
      }
      if (response.finish_reason === 'refusal') {
        state.trace.emit('warning', {
          code: 'refusal',
          message: 'The model refused to answer; the run ends with stopReason "refusal".',
        });
        state.messages.push(assistantMessage(response));
        return 'refusal';
      }
      if (response.finish_reason === 'length') {
        state.trace.emit('warning', {
          code: 'length',
          message: 'The model stopped at its token limit; the answer may be cut short.',
        });
      }
      if (config.output !== undefined) {
        const from = state.messages.length;
        state.messages.push(assistantMessage(response));
        await outputFromAnswer(state, config, response);
        return (await guardOutput(state, config, response.content ?? '', from)) ?? 'final';
      }
      if (config.guardrails !== undefined) {
        const tripped = await checkOutputGuardrails(state, config, {
          content: response.content ?? '',
          output: undefined,
        });
        if (tripped !== undefined) return tripped;
      }
      state.messages.push(assistantMessage(response));
      return 'final';
    }
    const finalCall = config.output === undefined ? undefined : finalAnswerCall(config.output, response);
    if (finalCall !== undefined) {
      const from = state.messages.length;
      await outputFromToolCall(state, config, response, finalCall);
      return (await guardOutput(state, config, response.content ?? '', from)) ?? 'final';
    }
    if (plan.standingChoice && config.resetToolChoice && isForcedChoice(plan.toolChoice)) {
      state.toolChoiceReset = true;
    }
    if (response.finish_reason === 'length') {
      state.trace.emit('warning', {
        code: 'truncated_tool_call',
        message:
          'The model stopped at its token limit while writing tool calls; their arguments may be cut short and fail to parse.',
      });
    }
    const executed = await executeToolsStep(state, response, { rejectedCalls, plan, config });
    const after = stopAfterTools(state, config, response, executed);
    if (state.handoffs !== undefined) config = await state.handoffs.afterTurn(state, executed);
    if (after !== undefined) return after;
  }
}

/**
 * One last call with tools disabled; tool calls the model makes anyway are dropped from the
 * transcript. Resolves to `'guardrail_tripped'` when an output guardrail tripped on the answer.
 */
export async function finalAnswerStep(
  state: RunState,
  config: RunConfig,
): Promise<RunStateStopReason | undefined> {
  state.trace.turn = state.turns;
  if (config.finalAnswerPrompt !== undefined) {
    state.messages.push({ role: 'user', content: config.finalAnswerPrompt });
  }
  const plan = await prepareTurnStep(state, config, true);
  const { response } = await callModelStep(state, config, {
    messages: plan.messages,
    tools: config.tools,
    toolChoice: undefined,
    finalAnswer: true,
  });
  if ((response.tool_calls?.length ?? 0) > 0) {
    state.trace.emit('warning', {
      code: 'final_answer_tool_calls',
      message:
        'The model asked for tools on the final answer call, where tools are disabled; those calls were not run and are left out of the transcript (they are in the llm_call event).',
    });
  }
  if (config.guardrails !== undefined) {
    const tripped = await checkOutputGuardrails(state, config, {
      content: response.content ?? '',
      output: undefined,
    });
    if (tripped !== undefined) return tripped;
  }
  state.messages.push(assistantMessage(response, []));
  return undefined;
}

/**
 * With a typed output, once it is read: the output guardrails judge the answer and the output. A
 * tripped answer, and what reading its output added, leave the transcript; the output is withheld.
 */
export async function guardOutput(
  state: RunState,
  config: RunConfig,
  content: string,
  from: number,
): Promise<RunStateStopReason | undefined> {
  if (config.guardrails === undefined) return undefined;
  const tripped = await checkOutputGuardrails(state, config, { content, output: state.output?.value });
  if (tripped !== undefined) {
    // A new array: earlier snapshots of the transcript stay as they were.
    state.messages = state.messages.slice(0, from);
    state.output = undefined;
  }
  return tripped;
}
