import type { CheckpointStore } from '../durable/checkpoint-store.js';
import type { ApprovalDecision, PendingApproval, RunState as SavedRunState } from '../durable/run-state.js';
import type { TraceEvent } from '../tracing/trace-events.js';

/**
 * The run that made a tool call, as the tool sees it: a tool that runs an agent of its own
 * (`orchestrator.asTool()`) hands it the nested run's events, and pauses it when the nested run
 * waits for approvals. Absent when the tool is called outside a run (a custom runner, a test
 * calling `execute` directly).
 */
export interface CallingRun {
  /**
   * Delivers an event of a run nested in this call (stamped with its own `runId`, `parentRunId`
   * and `parentToolCallId`) to the calling run's `traces`, its listeners, `stream()` and sinks; a
   * nested `llm_call`'s usage counts in the calling run's `usage` and budget.
   */
  emit(event: TraceEvent): void;
  /**
   * The calling run's checkpoint store, when it has one: a nested run saves its checkpoints there,
   * so that after a crash the resumed call continues it instead of starting it again.
   */
  readonly checkpointStore?: CheckpointStore;
  /**
   * Takes what call `toolCallId`'s nested run left when it paused the calling run, with the
   * decisions given since for the nested run's calls (keyed as the nested run lists them);
   * `undefined` when the call had not paused.
   */
  takePaused(toolCallId: string): PausedRunResume | undefined;
  /**
   * Pauses the calling run for the approvals call `toolCallId`'s nested run waits on: the calling
   * run lists them in its `pendingApprovals` (keyed `toolCallId/key`, with the agent's path) and
   * ignores what the call itself returns or throws. Returns the decisions the calling run already
   * has for some of them instead, when it has any: then the call resumes its nested run with them
   * and the calling run does not pause for it.
   */
  pause(toolCallId: string, paused: PausedRun): Readonly<Record<string, ApprovalDecision>> | undefined;
}

/** A nested run that paused its call for approvals (see {@link CallingRun.pause}). */
export interface PausedRun {
  /** The agent tool's name. */
  readonly toolName: string;
  /** The nested run's id. */
  readonly runId: string;
  /** The calls the nested run waits on, keyed as the nested run lists them. */
  readonly pendingApprovals: readonly PendingApproval[];
  /** The nested run's state; needed when the calling run has no checkpoint store to load it from. */
  readonly state?: SavedRunState;
}

/** What {@link CallingRun.takePaused} gives a call whose nested run paused. */
export interface PausedRunResume {
  readonly paused: PausedRun;
  /** The decisions given for the nested run's calls, keyed as the nested run lists them. */
  readonly approvals: Readonly<Record<string, ApprovalDecision>>;
}
