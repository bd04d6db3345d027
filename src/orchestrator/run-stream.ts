import type { TraceEvent } from '../tracing/trace-events.js';
import type { RunResult } from './orchestrator-options.js';

/**
 * One run, as it happens: iterate it for the run's own trace events in `seq` order (deltas
 * included), read `textStream` for the content alone, await `result` for the outcome.
 *
 * - A slow consumer loses nothing: events wait in the stream until read.
 * - A consumer that never iterates does not hold the run up: `result` resolves all the same.
 * - Leaving a `for await` early (`break`, `return`, a throw) stops reading, not the run: call
 *   `abort()` to stop it.
 * - Each iteration starts from the run's first event, so the stream can be read more than once
 *   (with `collectTraces: false`, events already read are released, and a later iteration starts
 *   at the oldest event still held).
 *
 * @example
 * const stream = orchestrator.stream([{ role: 'user', content: 'Summarize the repo' }]);
 * for await (const text of stream.textStream) process.stdout.write(text);
 * const { stopReason } = await stream.result;
 */
export interface RunStream extends AsyncIterable<TraceEvent> {
  /**
   * The content as it arrives: the content deltas of a streaming adapter, or the content of each
   * model response otherwise. Ends when the run ends; throws the run's error if it failed.
   */
  readonly textStream: AsyncIterable<string>;
  /** The run's result; rejects as `run()` would. */
  readonly result: Promise<RunResult>;
  /** Aborts the run (`stopReason: 'aborted'`), as its `signal` would. */
  abort(reason?: unknown): void;
}

/**
 * Items kept for iterators that may come later, read by any number of iterators at their own pace.
 * With `release`, items every live iterator has passed are dropped.
 */
class ItemLog<T> {
  #items: T[];
  /** Items dropped from the front, so `#items[0]` is item number `#base`. */
  #base = 0;
  #ended = false;
  #failure: { readonly error: unknown } | undefined;
  #waiting: (() => void)[] = [];
  readonly #release: boolean;
  readonly #cursors = new Set<{ position: number }>();

  constructor(items: T[], release: boolean) {
    this.#items = items;
    this.#release = release;
  }

  /** Adds an item, unless the items array is shared with its writer (then only wakes readers). */
  push(item: T | undefined): void {
    if (item !== undefined) this.#items.push(item);
    this.#wake();
  }

  end(failure?: { readonly error: unknown }): void {
    this.#ended = true;
    this.#failure = failure;
    this.#wake();
  }

  iterator(rethrow: boolean): AsyncIterator<T> {
    const cursor = { position: this.#base };
    this.#cursors.add(cursor);
    const done = (): IteratorReturnResult<undefined> => {
      this.#cursors.delete(cursor);
      return { done: true, value: undefined };
    };
    /** The next result, or `undefined` when the reader has to wait for the writer. */
    const take = (): IteratorResult<T> | { readonly error: unknown } | undefined => {
      if (!this.#cursors.has(cursor)) return done();
      const index = cursor.position - this.#base;
      if (index < this.#items.length) {
        const value = this.#items[index]!;
        cursor.position++;
        if (this.#release) this.#drop();
        return { done: false, value };
      }
      if (!this.#ended) return undefined;
      done();
      return this.#failure !== undefined && rethrow ? this.#failure : { done: true, value: undefined };
    };
    const settle = (
      taken: IteratorResult<T> | { readonly error: unknown },
      resolve: (result: IteratorResult<T>) => void,
      reject: (error: unknown) => void,
    ): void => {
      if (isFailure(taken)) reject(taken.error);
      else resolve(taken);
    };
    const next = (): Promise<IteratorResult<T>> => {
      const taken = take();
      if (taken !== undefined) return isFailure(taken) ? Promise.reject(taken.error) : Promise.resolve(taken);
      // Waiting: settled with the result itself when the writer wakes the reader, not with a
      // promise of it, which would cost the reader extra turns of the microtask queue per event.
      return new Promise<IteratorResult<T>>((resolve, reject) => {
        const retry = (): void => {
          const later = take();
          if (later === undefined) this.#waiting.push(retry);
          else settle(later, resolve, reject);
        };
        this.#waiting.push(retry);
      });
    };
    return {
      next,
      return: () => Promise.resolve(done()),
    };
  }

  #wake(): void {
    if (this.#waiting.length === 0) return;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }

  #drop(): void {
    let lowest = Number.POSITIVE_INFINITY;
    for (const cursor of this.#cursors) lowest = Math.min(lowest, cursor.position);
    const count = lowest - this.#base;
    // In chunks: shifting on every read would be quadratic.
    if (count >= 256) {
      this.#items.splice(0, count);
      this.#base = lowest;
    }
  }
}

/** True for a failed run's error, rather than an iterator result. */
function isFailure<T>(
  taken: IteratorResult<T> | { readonly error: unknown },
): taken is { readonly error: unknown } {
  return !('done' in taken);
}

/** The orchestrator's side of a `RunStream`: what the run feeds it. */
export class RunStreamFeed implements RunStream {
  readonly result: Promise<RunResult>;
  readonly #events: ItemLog<TraceEvent>;
  readonly #text = new ItemLog<string>([], true);
  readonly #controller: AbortController;
  readonly #sharesTraces: boolean;

  /**
   * @param traces The run's collected `traces` to read from, or `undefined` to keep events here.
   * @param start Starts the run with these hooks; called once, right away.
   */
  constructor(
    traces: TraceEvent[] | undefined,
    controller: AbortController,
    start: (hooks: {
      onEvent: (event: TraceEvent) => void;
      onText: (text: string) => void;
    }) => Promise<RunResult>,
  ) {
    this.#controller = controller;
    this.#sharesTraces = traces !== undefined;
    this.#events = new ItemLog(traces ?? [], traces === undefined);
    this.result = start({
      onEvent: (event) => this.#events.push(this.#sharesTraces ? undefined : event),
      onText: (text) => this.#text.push(text),
    }).then(
      (result) => {
        this.#events.end();
        this.#text.end();
        return result;
      },
      (error: unknown) => {
        this.#events.end();
        this.#text.end({ error });
        throw error;
      },
    );
    // Handled here so a failing run whose result nobody awaits is no unhandled rejection;
    // awaiting `result` still throws.
    this.result.catch(() => {});
  }

  get textStream(): AsyncIterable<string> {
    return { [Symbol.asyncIterator]: () => this.#text.iterator(true) };
  }

  [Symbol.asyncIterator](): AsyncIterator<TraceEvent> {
    return this.#events.iterator(false);
  }

  abort(reason?: unknown): void {
    this.#controller.abort(reason);
  }
}
