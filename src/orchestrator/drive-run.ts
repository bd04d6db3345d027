import type { RunStateStopReason } from '../durable/run-state.js';
import { isAbortError } from '../errors/aborted-error.js';
import { BudgetExceededError } from '../errors/budget-exceeded-error.js';
import { describeThrown, errorCode, errorName } from '../errors/describe-value.js';
import { LoopDetectedError } from '../errors/loop-detected-error.js';
import { MaxTurnsExceededError } from '../errors/max-turns-exceeded-error.js';
import type { StopReason } from '../tracing/trace-events.js';
import { costUsd, isSpendLimit, spentOverrun } from './budget.js';
import { saveCheckpoint, takeSnapshot } from './checkpoint.js';
import { recordOverrun } from './stop-reason.js';
import type { RunResult } from './orchestrator-options.js';
import type { RunConfig } from './run-config.js';
import { finalAnswerStep, guardOutput, runLoop } from './run-loop.js';
import { outputAfterCutShort } from './output/output-step.js';
import { warnForeignProviderData } from './foreign-provider-data.js';
import type { RunState } from './run-state.js';
import { trippedError } from './guardrails/guardrail-trip.js';

/** Announces the run and runs the loop from `state` to its end or a pause, with its last checkpoint saved. */
export async function driveRun(state: RunState, config: RunConfig): Promise<RunResult> {
  try {
    return await drive(state, config);
  } finally {
    state.release();
  }
}

async function drive(state: RunState, config: RunConfig): Promise<RunResult> {
  const { trace, signal } = state;
  trace.emit('run_start', {
    messageCount: state.messages.length,
    toolNames: Object.keys(config.registry),
    maxTurns: config.maxTurns,
    requestId: state.requestId,
  });
  warnForeignProviderData(state.messages, config.adapter, trace);
  let stopReason: RunStateStopReason;
  try {
    // The first checkpoint: a crash during the first model call leaves a run to resume.
    if (state.step === 0) await saveCheckpoint(state);
    stopReason = await runLoop(state, config);
    // After a handoff, the run ends with the agent it was handed to.
    if (state.handoffs !== undefined) config = state.handoffs.config;
    if (stopReason === 'max_turns') {
      trace.emit('warning', {
        code: 'max_turns',
        message: `The run reached maxTurns (${config.maxTurns}) while the model was still calling tools.`,
      });
    }
    if (config.output !== undefined) {
      stopReason = await typedOutput(state, config, stopReason);
    } else if (isCutShort(stopReason) && config.onCutShort === 'final_answer' && !signal?.aborted) {
      stopReason = await finalAnswer(state, config, stopReason);
    }
    if (stopReason === 'awaiting_approval') return await pause(state, config);
    // An aborted run keeps its last checkpoint, so it can be resumed (a deploy aborts runs). A
    // run that ended before the abort came is saved as ended: its result says so too.
    if (stopReason !== 'aborted') {
      await saveCheckpoint(state, {
        stopReason,
        content: finalContent(state, stopReason),
        ...(state.output === undefined ? {} : { output: state.output.value }),
      });
    }
  } catch (error) {
    if (!isAbortError(error, signal)) {
      // Whatever was thrown (a Proxy, an object with no prototype), describing it must not throw.
      const code = errorCode(error);
      const { provider, model } = (state.handoffs?.config ?? config).adapter;
      trace.emit('error', {
        name: errorName(error),
        message: describeThrown(error),
        ...(code === undefined ? {} : { code }),
        ...(provider === undefined ? {} : { provider }),
        ...(model === undefined ? {} : { model }),
      });
      emitEnd(state, config, 'error');
      throw error;
    }
    stopReason = 'aborted';
    if (state.handoffs !== undefined) config = state.handoffs.config;
  }
  emitEnd(state, config, stopReason);
  const result = runResult(state, config, stopReason);
  if (config.onCutShort === 'throw') {
    if (stopReason === 'max_turns') throw new MaxTurnsExceededError({ maxTurns: config.maxTurns, result });
    if (stopReason === 'budget_exceeded' && state.budgetOverrun !== undefined) {
      throw new BudgetExceededError({ ...state.budgetOverrun, result });
    }
    if (stopReason === 'loop_detected') throw new LoopDetectedError({ result });
  }
  if (stopReason === 'guardrail_tripped') throw trippedError(state.guardrailTrip, result);
  return result;
}

/** The run's content: the last response's, but none for an aborted run or a tripped guardrail. */
function finalContent(state: RunState, stopReason: RunStateStopReason): string {
  if (stopReason === 'aborted' || stopReason === 'guardrail_tripped') return '';
  return state.lastResponse?.content ?? '';
}

/** Ends the run for now: calls wait for a person's decision. Saves the state and returns it. */
async function pause(state: RunState, config: RunConfig): Promise<RunResult> {
  const snapshot = takeSnapshot(state, { stopReason: 'awaiting_approval' });
  await state.checkpointStore?.save(state.runId, snapshot);
  const pending = snapshot.pendingApprovals;
  state.trace.emit('warning', {
    code: 'awaiting_approval',
    message: `The run waits for a person's decision on ${pending.length} tool call${pending.length === 1 ? '' : 's'}: ${pending
      .map((approval) => `${approval.name} (${approval.toolCallId})`)
      .join(', ')}. Resume it with orchestrator.resume(state or runId, { approvals }).`,
    toolCalls: pending.map((approval) => ({ id: approval.toolCallId, name: approval.name })),
  });
  // A paused run ends here until it is resumed: sinks close its span and flush its file.
  emitEnd(state, config, 'awaiting_approval');
  return {
    ...runResult(state, config, 'awaiting_approval'),
    content: '',
    pendingApprovals: pending,
    state: snapshot,
  };
}

/**
 * The tools-off call of `onCutShort: 'final_answer'`. Not after a token or cost limit (it would
 * only spend more), and not when one of those is reached by the time the run is cut short otherwise.
 */
async function finalAnswer(
  state: RunState,
  config: RunConfig,
  stopReason: RunStateStopReason,
): Promise<RunStateStopReason> {
  const spent = spendLimitStop(state, config, stopReason);
  if (spent !== undefined) return spent;
  return (await finalAnswerStep(state, config)) ?? stopReason;
}

/**
 * The typed output of a run that ended without one: one tools-off call asks for it whatever
 * `onCutShort` says (the output is the final answer), unless a token or cost limit forbids
 * another call. A run that ends with no output says why in an `output_missing` warning.
 */
async function typedOutput(
  state: RunState,
  config: RunConfig,
  stopReason: RunStateStopReason,
): Promise<RunStateStopReason> {
  if (
    state.output !== undefined ||
    stopReason === 'awaiting_approval' ||
    stopReason === 'aborted' ||
    stopReason === 'guardrail_tripped'
  ) {
    return stopReason;
  }
  if (stopReason === 'refusal') {
    warnNoOutput(state, 'the model refused to answer');
    return stopReason;
  }
  if (state.signal?.aborted) return stopReason;
  const spent = spendLimitStop(state, config, stopReason);
  if (spent !== undefined) {
    warnNoOutput(
      state,
      `the run reached its ${state.budgetOverrun?.limit ?? 'spend'} limit, and asking for the output would spend more`,
    );
    return spent;
  }
  const from = state.messages.length;
  await outputAfterCutShort(state, config);
  return (await guardOutput(state, config, state.lastResponse?.content ?? '', from)) ?? stopReason;
}

function warnNoOutput(state: RunState, why: string): void {
  state.trace.emit('warning', {
    code: 'output_missing',
    message: `The run ends without its typed output: ${why}. result.output is undefined.`,
  });
}

/** The stop reason when a token or cost limit forbids one more call, else `undefined`. */
function spendLimitStop(
  state: RunState,
  config: RunConfig,
  stopReason: RunStateStopReason,
): RunStateStopReason | undefined {
  if (stopReason === 'budget_exceeded') {
    return state.budgetOverrun !== undefined && isSpendLimit(state.budgetOverrun.limit)
      ? stopReason
      : undefined;
  }
  if (config.budget === undefined) return undefined;
  const overrun = spentOverrun(config.budget, state.usage, config.now() - state.startedAt);
  if (overrun === undefined || !isSpendLimit(overrun.limit)) return undefined;
  recordOverrun(state, overrun);
  return 'budget_exceeded';
}

function emitEnd(state: RunState, config: RunConfig, stopReason: RunStateStopReason | 'error'): void {
  const pricing = config.budget?.pricing;
  state.trace.emit('run_end', {
    stopReason,
    turns: state.turns,
    usage: state.usage,
    durationMs: state.now() - state.startedAt,
    ...(pricing === undefined ? {} : { costUsd: costUsd(state.usage, pricing) }),
  });
}

function runResult(state: RunState, config: RunConfig, stopReason: RunStateStopReason): RunResult {
  const pricing = config.budget?.pricing;
  return {
    content: finalContent(state, stopReason),
    traces: state.trace.traces,
    messages: state.messages,
    stopReason,
    turns: state.turns,
    usage: state.usage,
    ...(pricing === undefined ? {} : { costUsd: costUsd(state.usage, pricing) }),
    ...(state.contextWindow === undefined ? {} : { contextTokens: state.contextWindow.contextTokens }),
    runId: state.runId,
    ...(state.output === undefined ? {} : { output: state.output.value }),
    ...(config.agent === undefined ? {} : { agent: config.agent }),
  };
}

/** A run that ended without an answer for a reason `onCutShort` handles. */
function isCutShort(stopReason: RunStateStopReason): stopReason is StopReason {
  return stopReason === 'max_turns' || stopReason === 'budget_exceeded' || stopReason === 'loop_detected';
}
