import type { EventEmitter } from 'eventemitter3';
import { metadataOnly } from './redact-trace-content.js';
import type {
  TraceContent,
  TraceEmitter,
  TraceEvent,
  TraceEventData,
  TraceEventOf,
  TraceEventType,
} from './trace-events.js';

/**
 * Where one run's events go: the returned `traces`, this run's own listeners (`onEvent`, a
 * `RunStream`), the `traceEmitter`, and the instance's `on()` listeners.
 */
export interface TraceDispatcherOptions {
  readonly runId: string;
  readonly parentRunId?: string;
  readonly collect: boolean;
  /** The array collected events go into. @default a new array */
  readonly traces?: TraceEvent[];
  /** `'metadata'` strips message text, tool arguments and results from every event. @default 'full' */
  readonly content?: TraceContent;
  /** Listeners of this run only, called first, in order. */
  readonly runListeners?: readonly ((event: TraceEvent) => void)[];
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
  readonly traces: TraceEvent[];
  turn = 0;
  #seq = 0;
  readonly #options: TraceDispatcherOptions;
  readonly #metadataOnly: boolean;

  constructor(options: TraceDispatcherOptions) {
    this.#options = options;
    this.traces = options.traces ?? [];
    this.#metadataOnly = options.content === 'metadata';
  }

  /** True with `traceContent: 'metadata'`: text built for events must not quote arguments or results. */
  get metadataOnly(): boolean {
    return this.#metadataOnly;
  }

  emit<Type extends TraceEventType>(type: Type, raw: TraceEventData[Type]): TraceEventOf<Type> {
    const options = this.#options;
    const data = this.#metadataOnly ? metadataOnly(type, raw) : raw;
    const event = {
      type,
      timestamp: Math.round(options.now()),
      runId: options.runId,
      ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }),
      turn: this.turn,
      seq: this.#seq++,
      data,
    } as TraceEventOf<Type>;
    this.#deliver(event as TraceEvent);
    return event;
  }

  /**
   * Delivers an event of a nested run (a subagent's) as it is, with its own `runId` and `seq`: to
   * `traces`, this run's listeners, the sink and `on()` listeners, content stripped under
   * `traceContent: 'metadata'`.
   */
  forward(event: TraceEvent): void {
    this.#deliver(
      this.#metadataOnly
        ? ({ ...event, data: metadataOnly(event.type, event.data as never) } as TraceEvent)
        : event,
    );
  }

  #deliver(event: TraceEvent): void {
    const options = this.#options;
    const type = event.type;
    if (options.collect) this.traces.push(event as TraceEvent);
    const runListeners = options.runListeners;
    if (runListeners !== undefined) {
      for (const listener of runListeners) {
        try {
          listener(event as TraceEvent);
        } catch (error) {
          this.#sinkFailed(error, event as TraceEvent);
        }
      }
    }
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
  }

  #sinkFailed(error: unknown, event: TraceEvent): void {
    try {
      this.#options.onSinkError?.(error, event);
    } catch {
      // A failing error handler must not break the run either.
    }
  }
}
