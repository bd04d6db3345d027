import type { JsonValue } from '../durable/run-state.js';
import { addUsage } from '../model/usage.js';
import type { CallingRun, PausedRun } from '../tools/calling-run.js';
import type { TraceEvent } from '../tracing/trace-events.js';
import { nestedDecisions } from './nested-approvals.js';
import type { RunState } from './run-state.js';
import type { CallProgress, TurnProgress } from './turn-progress.js';

/** The turn's paused nested runs as `strategyState.nestedRuns` keeps them, by call id; `undefined` when none. */
export function savedNestedRuns(turn: TurnProgress): JsonValue | undefined {
  let saved: { [toolCallId: string]: JsonValue } | undefined;
  for (let index = 0; index < turn.calls.length; index++) {
    const paused = turn.calls[index]!.nested;
    if (paused === undefined) continue;
    (saved ??= {})[turn.toolCalls[index]!.id] = JSON.parse(JSON.stringify(paused)) as JsonValue;
  }
  return saved;
}

/** The paused nested runs a saved state keeps, by call id (see {@link savedNestedRuns}). */
export function restoredNestedRuns(saved: JsonValue | undefined): ReadonlyMap<string, PausedRun> {
  const runs = new Map<string, PausedRun>();
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return runs;
  for (const [toolCallId, value] of Object.entries(saved)) {
    if (isPausedRun(value)) runs.set(toolCallId, value);
  }
  return runs;
}

function isPausedRun(value: unknown): value is PausedRun {
  const candidate = value as Partial<PausedRun> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.toolName === 'string' &&
    typeof candidate.runId === 'string' &&
    Array.isArray(candidate.pendingApprovals)
  );
}

/**
 * The run as the tools it calls see it ({@link CallingRun}): nested runs' events and usage flow
 * into it, and a nested run that waits for approvals pauses the call, and with it the run.
 */
export function callingRunOf(state: RunState): CallingRun {
  return {
    emit(event: TraceEvent) {
      state.trace.forward(event);
      if (event.type === 'llm_call') state.usage = addUsage(state.usage, event.data.usage);
    },
    ...(state.checkpointStore === undefined ? {} : { checkpointStore: state.checkpointStore }),
    takePaused(toolCallId) {
      const call = currentCall(state, toolCallId);
      const paused = call?.nested;
      if (call === undefined || paused === undefined) return undefined;
      call.nested = undefined;
      return { paused, approvals: nestedDecisions(toolCallId, paused, state.approvalDecisions) };
    },
    pause(toolCallId, paused) {
      const known = nestedDecisions(toolCallId, paused, state.approvalDecisions);
      for (const _ in known) return known;
      const call = currentCall(state, toolCallId);
      if (call !== undefined && call.status !== 'done') {
        call.nested = paused;
        call.status = 'pending';
      }
      return undefined;
    },
  };
}

/** Whether call `toolCallId` of the turn in progress paused for its nested run's approvals: its own result is ignored. */
export function isPausedCall(state: RunState, toolCallId: string): boolean {
  return currentCall(state, toolCallId)?.nested !== undefined;
}

/** What is known of call `toolCallId` of the turn in progress; `undefined` when it has no such call. */
function currentCall(state: RunState, toolCallId: string): CallProgress | undefined {
  const turn = state.currentTurn;
  const index = turn?.toolCalls.findIndex((toolCall) => toolCall.id === toolCallId) ?? -1;
  return index < 0 ? undefined : turn!.calls[index];
}
