import type { CheckpointStore } from '../durable/checkpoint-store.js';
import type { ApprovalDecision, JsonValue } from '../durable/run-state.js';
import type { ChatMessage } from '../model/messages.js';
import type { RunResult } from '../orchestrator/orchestrator-options.js';
import type { ToolOrchestrator } from '../orchestrator/tool-orchestrator.js';
import type { TraceEvent } from '../tracing/trace-events.js';

/** What a queued run carries: the input of `orchestrator.run()`, as JSON. */
export interface RunJobData {
  readonly runId: string;
  readonly messages: readonly ChatMessage[];
  readonly systemPrompt?: string;
  /** The run's `context` for its tools (replaces the orchestrator's); JSON only. */
  readonly context?: { readonly [key: string]: JsonValue };
  /** The run's `maxTurns` (the orchestrator's when left out). */
  readonly maxTurns?: number;
  /** Decisions given with `approve()`, by tool call id. */
  readonly approvals?: { readonly [toolCallId: string]: ApprovalDecision };
}

/** One queued run as a worker hands it to your `orchestrator` factory. */
export interface RunJob {
  readonly runId: string;
  readonly data: RunJobData;
  /** How many times a worker has started this job, this time included (above 1 after a crash). */
  readonly attempt: number;
}

/**
 * What a queued run resolves to: its `RunResult` as plain JSON, without `state` (the checkpoint
 * store has it) and without `traces` unless the worker keeps them (`keepTraces`).
 */
export type QueuedRunResult = Omit<RunResult, 'state'>;

/** Makes (or returns) the orchestrator that runs a job: same tools and model for every attempt of a run. */
export type OrchestratorFactory = (
  job: RunJob,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
) => ToolOrchestrator<any> | Promise<ToolOrchestrator<any>>;

/** Options of {@link executeRunJob}. */
export interface ExecuteRunJobOptions {
  readonly orchestrator: OrchestratorFactory;
  /** Where the run's checkpoints are: every attempt of a run must use the same store. */
  readonly checkpointStore: CheckpointStore;
  /** Aborts the run (it resolves with `stopReason: 'aborted'`, its transcript valid). */
  readonly signal?: AbortSignal;
  /** Receives the run's trace events. */
  readonly onEvent?: (event: TraceEvent) => void;
  /** Keep the trace events in the result. @default false */
  readonly keepTraces?: boolean;
}

/**
 * Runs one queued run to its end or its pause, from its last checkpoint when it has one: a new run
 * starts with `run()`; one with a checkpoint goes on with `resume()` (a finished tool never runs
 * again, the interrupted one runs again with the same `toolCallId`; a run that had ended returns
 * its recorded result and runs nothing). Decisions of `approve()` are applied to the calls that
 * still wait for one, so running the same job again after a crash is safe.
 *
 * The BullMQ worker calls it for every job; it knows nothing of BullMQ, so another scheduler (a
 * Temporal activity, a cron job) can call it the same way.
 */
export async function executeRunJob(job: RunJob, options: ExecuteRunJobOptions): Promise<QueuedRunResult> {
  const { data } = job;
  const orchestrator = await options.orchestrator(job);
  const store = options.checkpointStore;
  const shared = {
    checkpointStore: store,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    ...(data.context === undefined ? {} : { context: data.context }),
    ...(data.maxTurns === undefined ? {} : { maxTurns: data.maxTurns }),
  };
  const saved = await store.load(data.runId);
  let result: RunResult;
  if (saved === undefined) {
    result = await orchestrator.run(data.messages, data.systemPrompt, { ...shared, runId: data.runId });
  } else {
    const waiting = new Set(saved.pendingApprovals.map((approval) => approval.toolCallId));
    const approvals = Object.fromEntries(
      Object.entries(data.approvals ?? {}).filter(([toolCallId]) => waiting.has(toolCallId)),
    );
    result = await orchestrator.resume(saved, { ...shared, approvals });
  }
  const { state: _state, traces, ...rest } = result;
  return { ...rest, traces: options.keepTraces === true ? traces : [] };
}
