import { describeThrown } from '../errors/describe-value.js';
import { contentAsText, contentLength } from '../model/content-parts.js';
import type { ToolCall, ToolMessage } from '../model/messages.js';
import { errorContent } from '../tools/serialize-result.js';
import { capTraceContent, capTraceResult, capTraceText } from '../tracing/cap-trace-text.js';
import type { ToolCallOutcome, ToolCallRefusal, ToolErrorCode } from '../tools/tool-call-outcome.js';
import type { ToolRegistry } from '../tools/define-tool.js';
import type { ExecuteToolCallsOptions, ToolBatchContext } from '../tools/tool-runner.js';
import { answerDeniedCalls } from './approvals.js';
import { saveCheckpoint } from './checkpoint.js';
import { durationOverrun, refusedCallMessage } from './budget.js';
import type { Refusal } from './turn-progress.js';
import { recordOverrun } from './stop-reason.js';
import type { ToolStepOutcome } from './stop-reason.js';
import { blockedCallMessage } from './loop-guard.js';
import { recordGuardResults } from './loop-guard-results.js';
import type { RunConfig } from './run-config.js';
import type { RunState } from './run-state.js';
import { AbandonedTools } from './abandoned-tools.js';
import type { CallProgress, TurnProgress } from './turn-progress.js';
import { awaitingDecision, isRunnable } from './turn-progress.js';
import { callingRunOf } from './nested-runs.js';
import { checkToolInputs, closeTrippedTurn, ToolOutputJudge } from './guardrails/tool-guardrails.js';

/**
 * Answers the current turn's calls: runs those with no recorded outcome (approved, when they
 * need approval), records each outcome as it comes in (with a checkpoint after each), answers denied
 * and refused calls with their error, and appends one tool message per call, in call order. When
 * calls still wait for a decision, nothing is appended and the run pauses. Every call is answered,
 * even when the run is aborted, and after an abort the step waits (up to `abortGraceMs`) for tools
 * still running.
 */
export async function answerToolCalls(state: RunState, config: RunConfig): Promise<ToolStepOutcome> {
  const current = state.currentTurn!;
  const { toolCalls, calls, refusals } = current;
  const registry = turnRegistry(config.registry, current.activeTools);
  answerDeniedCalls(current, state.approvalDecisions);
  let runIndexes: number[] = [];
  for (let index = 0; index < toolCalls.length; index++) {
    if (isRunnable(current, index, state.approvalDecisions)) runIndexes.push(index);
  }
  if ((config.guardrails?.toolInput.length ?? 0) > 0 || state.guardrailTrip !== undefined) {
    runIndexes = await checkToolInputs(state, config, current, registry, runIndexes);
  }
  const runnable =
    runIndexes.length === toolCalls.length ? toolCalls : runIndexes.map((index) => toolCalls[index]!);
  // Made when a call is first abandoned: most batches have none.
  let abandoned: AbandonedTools | undefined;
  const onAbandoned =
    state.signal === undefined
      ? undefined
      : (toolCall: ToolCall, settled: Promise<void>): void =>
          (abandoned ??= new AbandonedTools()).track(toolCall, settled);
  let ran: readonly ToolCallOutcome[];
  let runnerFailure: { readonly error: unknown } | undefined;
  // Made when the run has tool-output guardrails: it judges each result before it is recorded.
  const judge =
    (config.guardrails?.toolOutput.length ?? 0) === 0
      ? undefined
      : new ToolOutputJudge(state, config, runnable);
  try {
    if (runnable.length === 0) {
      ran = [];
    } else {
      const options = batchOptions(state, config, onAbandoned, runIndexes);
      ran = await config.runner.executeToolCalls(
        registry,
        runnable,
        batchContextOf(state, config),
        judge === undefined ? options : judge.wrap(options),
      );
      if (judge !== undefined) ran = await judge.settle(ran);
    }
  } catch (error) {
    // A custom runner, or a failing checkpoint store; the calls are still answered before the run fails.
    runnerFailure = { error };
    ran = [];
  }
  for (let position = 0; position < runIndexes.length; position++) {
    const outcome = ran[position];
    if (outcome !== undefined) recordOutcome(current, runIndexes[position]!, outcome);
  }
  if (state.guardrailTrip !== undefined) closeTrippedTurn(state.guardrailTrip, current);
  const aborted = state.signal?.aborted === true;
  if (
    !aborted &&
    runnerFailure === undefined &&
    awaitingDecision(current, state.approvalDecisions).length > 0
  ) {
    // The calls that ran are traced now: the run ends here until a person decides.
    for (let index = 0; index < toolCalls.length; index++) {
      const call = calls[index]!;
      if (call.status === 'done' && !call.reported)
        reportResult(state, config, call, toolCalls[index]!, call.outcome!);
    }
    return { type: 'awaiting_approval' };
  }
  const outcomes: ToolCallOutcome[] = [];
  let position = 0;
  for (let index = 0; index < toolCalls.length; index++) {
    const toolCall = toolCalls[index]!;
    const refusal = refusals?.get(index);
    const fromRunner = runIndexes[position] === index ? ran[position++] : undefined;
    const outcome =
      refusal !== undefined
        ? refusedOutcome(toolCall, refusal, outcomes, state)
        : (calls[index]!.outcome ??
          fromRunner ??
          (aborted
            ? errorOutcome(toolCall, 'aborted', 'The run was aborted before this tool call ran.')
            : missingOutcome(toolCall, runnerFailure)));
    outcomes.push(outcome);
    const message: ToolMessage = { role: 'tool', tool_call_id: toolCall.id, content: outcome.content };
    state.messages.push(message);
    const call = calls[index]!;
    if (!call.reported) reportResult(state, config, call, toolCall, outcome);
  }
  state.currentTurn = undefined;
  state.toolCallsMade += countRun(outcomes, refusals);
  recordGuardResults(state, config, toolCalls, outcomes, refusals, current.streakContentIndex);
  if (abandoned !== undefined && aborted) {
    await abandoned.settle(state, config.abortGraceMs);
  }
  if (runnerFailure !== undefined) throw runnerFailure.error;
  return { type: 'answered', toolCalls, outcomes };
}

/** Emits the call's `tool_result` event, once, its texts cut to `maxTraceChars`. */
function reportResult(
  state: RunState,
  config: RunConfig,
  call: CallProgress,
  toolCall: ToolCall,
  outcome: ToolCallOutcome,
): void {
  call.reported = true;
  const maxChars = config.maxTraceChars;
  state.trace.emit('tool_result', {
    toolCallId: toolCall.id,
    name: outcome.name,
    ...(outcome.error === undefined
      ? { result: capTraceResult(outcome.result, outcome.content, maxChars, config.toolResultChars) }
      : { error: capTraceText(outcome.error, maxChars) }),
    ...(outcome.errorCode === undefined ? {} : { errorCode: outcome.errorCode }),
    content: capTraceContent(outcome.content, maxChars),
    contentLength: contentLength(outcome.content),
    durationMs: outcome.durationMs,
  });
}

/** What every call of the run's batches shares: the caller's context plus the run's ids and signal. */
export function batchContextOf(state: RunState, config: RunConfig): ToolBatchContext {
  return {
    ...config.context,
    requestId: state.requestId,
    runId: state.runId,
    turnIndex: state.currentTurn?.turnIndex ?? state.trace.turn,
    ...(state.signal === undefined ? {} : { signal: state.signal }),
    callingRun: callingRunOf(state),
  } as ToolBatchContext;
}

/** The tools a turn's calls may run: every tool, or the `activeTools` of that turn. */
function turnRegistry(registry: ToolRegistry, activeTools: readonly string[] | undefined): ToolRegistry {
  if (activeTools === undefined) return registry;
  return Object.fromEntries(
    activeTools.filter((name) => Object.hasOwn(registry, name)).map((name) => [name, registry[name]!]),
  );
}

/** Records a call's outcome, unless the call was cut short by an abort (it runs again on resume). */
function recordOutcome(turn: TurnProgress, index: number, outcome: ToolCallOutcome): boolean {
  const call = turn.calls[index]!;
  // A call paused for its nested run's approvals has no outcome yet, whatever its tool returned.
  if (call.status === 'done' || outcome.errorCode === 'aborted' || call.nested !== undefined) return false;
  call.status = 'done';
  call.outcome = outcome;
  return true;
}

/**
 * The runner's hooks this run needs: the budget's clock before each call, the calls left running,
 * and with a checkpoint store, each call marked as started and its outcome saved as it comes in.
 */
function batchOptions(
  state: RunState,
  config: RunConfig,
  onAbandoned: ExecuteToolCallsOptions['onAbandoned'],
  runIndexes: readonly number[],
): ExecuteToolCallsOptions {
  const budget = config.budget;
  const budgetCheck =
    budget?.maxDurationMs === undefined
      ? undefined
      : (): ToolCallRefusal | undefined => {
          const overrun = durationOverrun(budget, config.now() - state.startedAt);
          if (overrun === undefined) return undefined;
          recordOverrun(state, overrun);
          return { errorCode: 'budget_exceeded', error: refusedCallMessage(overrun) };
        };
  const turn = state.currentTurn!;
  const saving = state.checkpointStore !== undefined;
  const beforeCall = !saving
    ? budgetCheck
    : (_toolCall: ToolCall, position: number): ToolCallRefusal | undefined => {
        const refusal = budgetCheck?.();
        if (refusal === undefined) turn.calls[runIndexes[position]!]!.status = 'started';
        return refusal;
      };
  return {
    concurrency: config.concurrency,
    ...(beforeCall === undefined ? {} : { beforeCall }),
    ...(onAbandoned === undefined ? {} : { onAbandoned }),
    ...(saving
      ? {
          onOutcome: async (outcome: ToolCallOutcome, position: number) => {
            if (recordOutcome(turn, runIndexes[position]!, outcome)) await saveCheckpoint(state);
          },
        }
      : {}),
  };
}

/** Tool calls handed to the runner that it did not refuse for the budget. */
function countRun(
  outcomes: readonly ToolCallOutcome[],
  refusals: ReadonlyMap<number, Refusal> | undefined,
): number {
  let count = 0;
  for (let index = 0; index < outcomes.length; index++) {
    const code = outcomes[index]!.errorCode;
    if (refusals?.has(index) || code === 'budget_exceeded' || code === 'approval_denied') continue;
    count++;
  }
  return count;
}

/** A refused call's error outcome; a blocked repeat quotes the result of the call it repeats. */
function refusedOutcome(
  toolCall: ToolCall,
  refusal: Refusal,
  earlier: readonly ToolCallOutcome[],
  state: RunState,
): ToolCallOutcome {
  const blocked = refusal.blocked;
  const error =
    blocked === undefined
      ? refusal.error
      : blockedCallMessage(
          toolCall.function.name,
          blocked.streak,
          blocked.quotes >= 0 ? quotedContent(earlier[blocked.quotes]) : state.loopGuard?.lastContent,
        );
  return errorOutcome(toolCall, refusal.errorCode, error);
}

/** An earlier outcome's content as a blocked repeat quotes it: as text, images and files by their placeholders. */
function quotedContent(outcome: ToolCallOutcome | undefined): string | undefined {
  return outcome === undefined ? undefined : contentAsText(outcome.content);
}

function missingOutcome(toolCall: ToolCall, runnerFailure?: { readonly error: unknown }): ToolCallOutcome {
  const error =
    runnerFailure === undefined
      ? 'The tool runner returned no result for this call.'
      : `The tool runner failed before answering this call: ${describeThrown(runnerFailure.error)}`;
  return errorOutcome(toolCall, 'tool_error', error);
}

function errorOutcome(toolCall: ToolCall, errorCode: ToolErrorCode, error: string): ToolCallOutcome {
  return {
    toolCallId: toolCall.id,
    name: toolCall.function.name,
    error,
    errorCode,
    content: errorContent(error),
    durationMs: 0,
  };
}
