import { AbortedError } from '../errors/aborted-error.js';
import { whenAborted } from '../shared/when-aborted.js';

/**
 * A run's abort signal, watched once per run rather than once per model call. The loop runs inside
 * `drive()`; a model call awaits the adapter's promise itself between `enter()` and `leave()`, and
 * an abort while one is awaited rejects the drive at once, so an adapter that ignores the signal
 * still cannot keep the run waiting. Racing each call instead (`raceAbort`) cost every turn a
 * wrapper promise and an extra turn of the microtask queue: about a tenth of a `stream()` turn in
 * the run API benchmark (issue #11).
 *
 * The frames left suspended on an abandoned call are never resumed into the run: `leave()` throws
 * once the drive was cut short, before the step touches the run's state.
 */
export class RunAbort {
  readonly signal: AbortSignal;
  /** Rejects the drive under way; `undefined` between drives. */
  #interrupt: ((error: AbortedError) => void) | undefined;
  /** Calls awaited directly (between `enter()` and `leave()`) right now. */
  #waiting = 0;
  /** A drive was rejected by an abort while a call was awaited. */
  #interrupted = false;

  constructor(signal: AbortSignal) {
    this.signal = signal;
  }

  /**
   * Runs `step` and settles as it does, or rejects with an `AbortedError` as soon as the run aborts
   * while a call of the step is awaited between `enter()` and `leave()`. One drive at a time; the
   * signal is watched only while it lasts (a signal shared by many runs keeps no watcher per run).
   */
  drive<T>(step: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#interrupt = reject;
      const stopWatching = whenAborted(this.signal, () => {
        if (this.#waiting === 0) return;
        this.#interrupted = true;
        reject(new AbortedError({ cause: this.signal.reason }));
      });
      const settled = (): void => {
        this.#interrupt = undefined;
        stopWatching();
      };
      step().then(
        (value) => {
          settled();
          resolve(value);
        },
        (error: unknown) => {
          settled();
          reject(error);
        },
      );
    });
  }

  /**
   * Starts awaiting a call: true when it may be awaited as it is (inside a drive, not aborted yet),
   * false when the caller must race it against the signal itself. Pair with `leave()` in a `finally`.
   */
  enter(): boolean {
    if (this.#interrupt === undefined || this.signal.aborted) return false;
    this.#waiting++;
    return true;
  }

  /**
   * Ends a call begun with `enter()`, whatever it settled to.
   *
   * @throws {AbortedError} when an abort cut the drive short meanwhile: the caller must not go on.
   */
  leave(entered: boolean): void {
    if (!entered) return;
    this.#waiting--;
    if (this.#interrupted) throw new AbortedError({ cause: this.signal.reason });
  }
}
