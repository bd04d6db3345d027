import type { EventEmitter } from 'eventemitter3';
import { TraceDispatcher } from '../tracing/trace-dispatcher.js';
import type { TraceEvent } from '../tracing/trace-events.js';
import type { ToolOrchestratorOptions } from './orchestrator-options.js';
import type { SignalWatchers } from '../shared/signal-watchers.js';

/** What `stream()` adds to a run: its event listener, its text sink, its abort signal, and streaming on. */
export interface StreamHooks {
  readonly onEvent: (event: TraceEvent) => void;
  readonly onText: (text: string) => void;
  readonly signal: AbortSignal;
}

/** What a run (new or resumed) reports and aborts through. */
export interface LiveRun {
  readonly trace: TraceDispatcher;
  /**
   * The run's own signal: aborted when the orchestrator's, the run's or `stream()`'s signal aborts.
   * Every wait of the run races against it. `undefined` when no signal was given.
   */
  readonly signal: AbortSignal | undefined;
  /** Stops following the given signals; call it when the run settles. */
  readonly dispose: () => void;
}

/** What {@link liveRun} builds a run's dispatcher and signal from. */
export interface LiveRunOptions {
  readonly runId: string;
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
}

/** The run's trace dispatcher and combined abort signal. */
export function liveRun({
  runId,
  options,
  runOptions,
  hooks,
  emitter,
  watchers,
  now,
}: LiveRunOptions): LiveRun {
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
  return { trace, signal, dispose };
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
