import type { EventEmitter } from 'eventemitter3';
import { TraceDispatcher } from '../tracing/trace-dispatcher.js';
import type { TraceEvent } from '../tracing/trace-events.js';
import type { ToolOrchestratorOptions } from './orchestrator-options.js';
import type { SignalWatchers } from '../shared/signal-watchers.js';
import type { CheckpointStore } from '../durable/checkpoint-store.js';
import type { RunFingerprint } from '../durable/run-fingerprint.js';
import type { RunState as SavedRunState } from '../durable/run-state.js';
import { ContextWindow } from './context-window/context-window.js';
import type { RunConfig } from './run-config.js';
import type { RunHandles } from './run-state.js';
import type { HandoffRun } from './handoffs/handoff-run.js';

/** What `stream()` adds to a run: its event listener, its text sink, its abort signal, and streaming on. */
export interface StreamHooks {
  readonly onEvent: (event: TraceEvent) => void;
  readonly onText: (text: string) => void;
  readonly signal: AbortSignal;
}

/** What {@link liveRun} builds a run's handles from. */
export interface LiveRunOptions {
  readonly runId: string;
  readonly config: RunConfig;
  readonly checkpointStore: CheckpointStore | undefined;
  readonly fingerprint: RunFingerprint;
  /** The saved run a resume restores (its context window's state); `undefined` for a new run. */
  readonly saved: SavedRunState | undefined;
  /** The orchestrator's options. */
  readonly options: Pick<
    ToolOrchestratorOptions,
    'signal' | 'parentRunId' | 'collectTraces' | 'traceContent' | 'traceEmitter' | 'onTraceError'
  >;
  /** The run's (or the resume's) options. */
  readonly runOptions: {
    readonly signal?: AbortSignal | undefined;
    readonly parentRunId?: string | undefined;
    readonly onEvent?: ((event: TraceEvent) => void) | undefined;
  };
  readonly hooks: StreamHooks | undefined;
  /** The orchestrator's instance-wide `on()` listeners. */
  readonly emitter: EventEmitter;
  /** The orchestrator's watch on the signals its runs share. */
  readonly watchers: SignalWatchers;
  readonly now: () => number;
  /** The run's agent and handoffs, when its starting agent has `handoffs`. */
  readonly handoffs: HandoffRun | undefined;
}

/**
 * A run's handles in this process: its trace dispatcher, its own signal (aborted when the
 * orchestrator's, the run's or `stream()`'s signal aborts; `undefined` when none was given), its
 * store, fingerprint and context window.
 */
export function liveRun({
  runId,
  config,
  checkpointStore,
  fingerprint,
  saved,
  options,
  runOptions,
  hooks,
  emitter,
  watchers,
  now,
  handoffs,
}: LiveRunOptions): RunHandles {
  const { signal, dispose } = followSignals(watchers, [options.signal, runOptions.signal, hooks?.signal]);
  const parentRunId = runOptions.parentRunId ?? options.parentRunId;
  const runListeners = [runOptions.onEvent, hooks?.onEvent].filter(
    (listener): listener is (event: TraceEvent) => void => listener !== undefined,
  );
  const trace = new TraceDispatcher({
    runId,
    ...(parentRunId === undefined ? {} : { parentRunId }),
    collect: options.collectTraces ?? true,
    ...(options.traceContent === undefined ? {} : { content: options.traceContent }),
    ...(runListeners.length === 0 ? {} : { runListeners }),
    ...(options.traceEmitter === undefined ? {} : { traceEmitter: options.traceEmitter }),
    emitter,
    now,
    ...(options.onTraceError === undefined ? {} : { onSinkError: options.onTraceError }),
  });
  const setup =
    config.contextWindow === undefined
      ? undefined
      : { options: config.contextWindow, adapter: config.adapter, trace, now, signal };
  const contextWindow =
    setup === undefined
      ? undefined
      : saved === undefined
        ? new ContextWindow(setup)
        : ContextWindow.restore(saved.strategyState['contextWindow'], setup);
  return {
    trace,
    signal,
    now,
    onText: hooks?.onText,
    checkpointStore,
    fingerprint,
    contextWindow,
    release: dispose,
    handoffs,
  };
}

/**
 * A signal of the run's own, aborted with the reason of the first given signal that aborts. Not
 * `AbortSignal.any`: on Node 20 every signal it makes stays reachable from a long-lived source (an
 * orchestrator's `signal`), a leak of one per run.
 */
function followSignals(
  watchers: SignalWatchers,
  sources: readonly (AbortSignal | undefined)[],
): { readonly signal: AbortSignal | undefined; readonly dispose: () => void } {
  const given = sources.filter((source): source is AbortSignal => source !== undefined);
  if (given.length === 0) return { signal: undefined, dispose: () => {} };
  const controller = new AbortController();
  const stops = given.map((source) => watchers.watch(source, () => controller.abort(source.reason)));
  return {
    signal: controller.signal,
    dispose: () => {
      for (const stop of stops) stop();
    },
  };
}
