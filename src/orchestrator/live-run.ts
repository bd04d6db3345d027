import type { EventEmitter } from 'eventemitter3';
import { TraceDispatcher } from '../tracing/trace-dispatcher.js';
import type { TraceEvent } from '../tracing/trace-events.js';
import type { ToolOrchestratorOptions } from './orchestrator-options.js';
import { RunAbort } from './run-abort.js';

/** What `stream()` adds to a run: its listener, its text sink, its readers' wake-up, its abort signal, and streaming on. */
export interface StreamHooks {
  readonly traces: TraceEvent[] | undefined;
  readonly onEvent: ((event: TraceEvent) => void) | undefined;
  readonly onText: (text: string) => void;
  readonly wakeReaders: () => void;
  readonly signal: AbortSignal;
}

/** What a run (new or resumed) reports and aborts through. */
export interface LiveRun {
  readonly trace: TraceDispatcher;
  /** The orchestrator's, the run's and `stream()`'s signals combined; `undefined` when none was given. */
  readonly signal: AbortSignal | undefined;
  readonly abort: RunAbort | undefined;
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
  readonly now: () => number;
}

/** The run's trace dispatcher and combined abort signal. */
export function liveRun({ runId, options, runOptions, hooks, emitter, now }: LiveRunOptions): LiveRun {
  const signal = combineSignals(options.signal, runOptions.signal, hooks?.signal);
  const parentRunId = runOptions.parentRunId ?? options.parentRunId;
  const runListeners = [runOptions.onEvent, hooks?.onEvent].filter(
    (listener): listener is (event: TraceEvent) => void => listener !== undefined,
  );
  const trace = new TraceDispatcher({
    runId,
    ...(parentRunId === undefined ? {} : { parentRunId }),
    collect: options.collectTraces ?? true,
    ...(hooks?.traces === undefined ? {} : { traces: hooks.traces }),
    ...(options.traceContent === undefined ? {} : { content: options.traceContent }),
    ...(runListeners.length === 0 ? {} : { runListeners }),
    ...(options.traceEmitter === undefined ? {} : { traceEmitter: options.traceEmitter }),
    emitter,
    now,
    ...(options.onTraceError === undefined ? {} : { onSinkError: options.onTraceError }),
  });
  return { trace, signal, abort: signal === undefined ? undefined : new RunAbort(signal) };
}

function combineSignals(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const given = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  if (given.length <= 1) return given[0];
  return AbortSignal.any(given);
}
