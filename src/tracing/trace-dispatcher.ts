import type { EventEmitter } from 'eventemitter3';
import type {
  TraceEmitter,
  TraceEvent,
  TraceEventData,
  TraceEventOf,
  TraceEventType,
} from './trace-events.js';

/** Where one run's events go: the returned `traces`, the `traceEmitter`, and `on()` listeners. */
export interface TraceDispatcherOptions {
  readonly runId: string;
  readonly parentRunId?: string;
  readonly collect: boolean;
  readonly traceEmitter?: TraceEmitter;
  readonly emitter: EventEmitter;
  readonly now: () => number;
  /** Called when a sink throws or rejects, so the failure is visible without stopping the run. */
  readonly onSinkError?: (error: unknown, event: TraceEvent) => void;
}

/**
 * Stamps events with `runId`, `seq` and `timestamp` and delivers them; a failing sink never breaks the run.
 * The timestamp is the clock rounded to whole milliseconds; durations (`durationMs`) keep the clock's resolution.
 */
export class TraceDispatcher {
  readonly traces: TraceEvent[] = [];
  turn = 0;
  #seq = 0;
  readonly #options: TraceDispatcherOptions;

  constructor(options: TraceDispatcherOptions) {
    this.#options = options;
  }

  emit<Type extends TraceEventType>(type: Type, data: TraceEventData[Type]): TraceEventOf<Type> {
    const options = this.#options;
    const event = {
      type,
      timestamp: Math.round(options.now()),
      runId: options.runId,
      ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }),
      turn: this.turn,
      seq: this.#seq++,
      data,
    } as TraceEventOf<Type>;
    if (options.collect) this.traces.push(event as TraceEvent);
    const sink = options.traceEmitter;
    if (sink !== undefined) {
      try {
        const pending = sink(event as TraceEvent);
        if (pending !== undefined && typeof (pending as Promise<void>).then === 'function') {
          (pending as Promise<void>).then(undefined, (error: unknown) =>
            this.#sinkFailed(error, event as TraceEvent),
          );
        }
      } catch (error) {
        this.#sinkFailed(error, event as TraceEvent);
      }
    }
    const emitter = options.emitter;
    if (emitter.listenerCount(type) > 0 || emitter.listenerCount('*') > 0) {
      for (const listener of [...emitter.listeners(type), ...emitter.listeners('*')]) {
        try {
          (listener as (event: TraceEvent) => void)(event as TraceEvent);
        } catch (error) {
          this.#sinkFailed(error, event as TraceEvent);
        }
      }
    }
    return event;
  }

  #sinkFailed(error: unknown, event: TraceEvent): void {
    try {
      this.#options.onSinkError?.(error, event);
    } catch {
      // A failing error handler must not break the run either.
    }
  }
}
