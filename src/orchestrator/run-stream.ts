import type { TraceEvent } from '../tracing/trace-events.js';
import type { RunResult } from './orchestrator-options.js';

/**
 * One run, as it happens: iterate it for the run's own trace events in `seq` order (deltas
 * included), read `textStream` for the content alone, await `result` for the outcome.
 *
 * - Each event reaches waiting readers as it is emitted: a reader has every event before the run
 *   waits on anything that comes after it.
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
export interface RunStream<Output = unknown> extends AsyncIterable<TraceEvent> {
  /**
   * The content as it arrives: the content deltas of a streaming adapter, or the content of each
   * model response otherwise. Ends when the run ends; throws the run's error if it failed.
   */
  readonly textStream: AsyncIterable<string>;
  /** The run's result; rejects as `run()` would. */
  readonly result: Promise<RunResult<Output>>;
  /** Aborts the run (`stopReason: 'aborted'`), as its `signal` would. */
  abort(reason?: unknown): void;
}

/**
 * Items kept for iterators that may come later, read by any number of iterators at their own pace.
 * An item wakes the readers waiting for one. With `release`, items every live iterator has passed
 * are dropped.
 */
class ItemLog<T> {
  #items: T[] = [];
  /** Items dropped from the front, so `#items[0]` is item number `#base`. */
  #base = 0;
  #ended = false;
  #failure: { readonly error: unknown } | undefined;
  /** Readers waiting for an item or the end. */
  #waiting: (() => void)[] = [];
  /** Where each live reader is: the number of the next item it reads. */
  readonly #positions = new Set<{ position: number }>();
  readonly #release: boolean;

  constructor(release: boolean) {
    this.#release = release;
  }

  push(item: T): void {
    this.#items.push(item);
    this.#wake();
  }

  end(failure?: { readonly error: unknown }): void {
    this.#ended = true;
    this.#failure = failure;
    this.#wake();
  }

  /** The items from the oldest still held; with `rethrow`, ends by throwing the run's error. */
  async *read(rethrow: boolean): AsyncGenerator<T, void, undefined> {
    const reader = { position: this.#base };
    this.#positions.add(reader);
    try {
      for (;;) {
        while (reader.position - this.#base < this.#items.length) {
          const item = this.#items[reader.position - this.#base]!;
          reader.position++;
          if (this.#release) this.#drop();
          yield item;
        }
        if (this.#ended) {
          if (rethrow && this.#failure !== undefined) throw this.#failure.error;
          return;
        }
        await new Promise<void>((resolve) => this.#waiting.push(resolve));
      }
    } finally {
      this.#positions.delete(reader);
    }
  }

  #wake(): void {
    if (this.#waiting.length === 0) return;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }

  #drop(): void {
    let lowest = Number.POSITIVE_INFINITY;
    for (const reader of this.#positions) lowest = Math.min(lowest, reader.position);
    const count = lowest - this.#base;
    // In chunks: shifting on every read would be quadratic.
    if (count >= 256) {
      this.#items.splice(0, count);
      this.#base = lowest;
    }
  }
}

/** The orchestrator's side of a `RunStream`: what the run feeds it. */
export class RunStreamFeed<Output = unknown> implements RunStream<Output> {
  readonly result: Promise<RunResult<Output>>;
  readonly #events: ItemLog<TraceEvent>;
  readonly #text = new ItemLog<string>(true);
  readonly #controller: AbortController;

  /**
   * @param keepEvents Keep every event for iterators that start later (`collectTraces`); otherwise
   * events every iterator has read are released.
   * @param start Starts the run with these hooks; called once, right away.
   */
  constructor(
    keepEvents: boolean,
    controller: AbortController,
    start: (hooks: {
      readonly onEvent: (event: TraceEvent) => void;
      readonly onText: (text: string) => void;
    }) => Promise<RunResult<Output>>,
  ) {
    this.#controller = controller;
    this.#events = new ItemLog(!keepEvents);
    this.result = start({
      onEvent: (event) => this.#events.push(event),
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
    return { [Symbol.asyncIterator]: () => this.#text.read(true) };
  }

  [Symbol.asyncIterator](): AsyncIterator<TraceEvent> {
    return this.#events.read(false);
  }

  abort(reason?: unknown): void {
    this.#controller.abort(reason);
  }
}
