import type { TraceEvent } from '../tracing/trace-events.js';
import type { RunResult } from './orchestrator-options.js';

/**
 * One run, as it happens: iterate it for the run's own trace events in `seq` order (deltas
 * included), read `textStream` for the content alone, await `result` for the outcome.
 *
 * - Events reach readers each time the run waits on something outside the loop (a model call or
 *   stream chunk, a tool that returned a promise, a hook, a checkpoint store) and when it ends: a
 *   reader has every event before the run waits on anything that comes after it.
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
  /** Readers waiting for the writer; emptied in place, so waking them allocates nothing. */
  readonly #waiting: LogReader<T>[] = [];
  readonly #release: boolean;
  readonly #readers = new Set<LogReader<T>>();

  constructor(items: T[], release: boolean) {
    this.#items = items;
    this.#release = release;
  }

  /**
   * Adds an item (a log whose items array is shared with its writer is not pushed to). Readers are
   * not woken here but by `wake()`: waking a reader for every item had it take turns with the run at
   * each of the run's own awaits, which cost more than the reading itself (issue #11).
   */
  push(item: T): void {
    this.#items.push(item);
  }

  /** Wakes the readers waiting for items. */
  wake(): void {
    if (this.#waiting.length > 0) this.#wakeAll();
  }

  end(failure?: { readonly error: unknown }): void {
    this.#ended = true;
    this.#failure = failure;
    this.#wakeAll();
  }

  iterator(rethrow: boolean): AsyncIterator<T> {
    const reader = new LogReader(this, this.#base, rethrow);
    this.#readers.add(reader);
    return reader;
  }

  /** The reader's next result, or `undefined` when it has to wait for the writer. */
  take(reader: LogReader<T>): IteratorResult<T> | { readonly error: unknown } | undefined {
    if (!this.#readers.has(reader)) return done();
    const index = reader.position - this.#base;
    if (index < this.#items.length) {
      const value = this.#items[index]!;
      reader.position++;
      if (this.#release) this.#drop();
      return { done: false, value };
    }
    if (!this.#ended) return undefined;
    this.#readers.delete(reader);
    return this.#failure !== undefined && reader.rethrow ? this.#failure : done();
  }

  wait(reader: LogReader<T>): void {
    this.#waiting.push(reader);
  }

  close(reader: LogReader<T>): void {
    this.#readers.delete(reader);
  }

  #wakeAll(): void {
    const waiting = this.#waiting;
    // A woken reader settles its promise (its next `next()` comes in a later microtask); one with
    // nothing to take yet waits again, after `count`.
    const count = waiting.length;
    for (let index = 0; index < count; index++) waiting[index]!.wake();
    if (waiting.length === count) waiting.length = 0;
    else waiting.splice(0, count);
  }

  #drop(): void {
    let lowest = Number.POSITIVE_INFINITY;
    for (const reader of this.#readers) lowest = Math.min(lowest, reader.position);
    const count = lowest - this.#base;
    // In chunks: shifting on every read would be quadratic.
    if (count >= 256) {
      this.#items.splice(0, count);
      this.#base = lowest;
    }
  }
}

const done = (): IteratorReturnResult<undefined> => ({ done: true, value: undefined });

/**
 * One iteration of an `ItemLog`. A reader that waits keeps its promise's settle functions on itself,
 * so a wait costs the promise alone; the writer's wake settles it with the result itself, not with a
 * promise of it, which would cost the reader extra turns of the microtask queue per item.
 */
class LogReader<T> implements AsyncIterator<T> {
  /** The number of the next item to read. */
  position: number;
  readonly rethrow: boolean;
  readonly #log: ItemLog<T>;
  #resolve: ((result: IteratorResult<T>) => void) | undefined;
  #reject: ((error: unknown) => void) | undefined;
  readonly #waitFor = (
    resolve: (result: IteratorResult<T>) => void,
    reject: (error: unknown) => void,
  ): void => {
    this.#resolve = resolve;
    this.#reject = reject;
    this.#log.wait(this);
  };

  constructor(log: ItemLog<T>, position: number, rethrow: boolean) {
    this.#log = log;
    this.position = position;
    this.rethrow = rethrow;
  }

  next(): Promise<IteratorResult<T>> {
    const taken = this.#log.take(this);
    if (taken === undefined) return new Promise(this.#waitFor);
    return isFailure(taken) ? Promise.reject(taken.error) : Promise.resolve(taken);
  }

  return(): Promise<IteratorResult<T>> {
    this.#log.close(this);
    return Promise.resolve(done());
  }

  /** Called by the log when the writer added an item or ended. */
  wake(): void {
    const taken = this.#log.take(this);
    if (taken === undefined) {
      this.#log.wait(this);
      return;
    }
    const resolve = this.#resolve!;
    const reject = this.#reject!;
    this.#resolve = undefined;
    this.#reject = undefined;
    if (isFailure(taken)) reject(taken.error);
    else resolve(taken);
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

  /**
   * @param traces The run's collected `traces` to read from, or `undefined` to keep events here.
   * @param start Starts the run with these hooks; called once, right away.
   */
  constructor(
    traces: TraceEvent[] | undefined,
    controller: AbortController,
    start: (hooks: {
      /** Keeps events here; `undefined` when they are read from the run's `traces`. */
      onEvent: ((event: TraceEvent) => void) | undefined;
      onText: (text: string) => void;
      wakeReaders: () => void;
    }) => Promise<RunResult>,
  ) {
    this.#controller = controller;
    this.#events = new ItemLog(traces ?? [], traces === undefined);
    this.result = start({
      onEvent: traces === undefined ? (event) => this.#events.push(event) : undefined,
      onText: (text) => this.#text.push(text),
      wakeReaders: () => {
        this.#events.wake();
        this.#text.wake();
      },
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
