import { AbortedError } from '../errors/aborted-error.js';
import { whenAborted } from '../shared/when-aborted.js';

/**
 * Settles with `pending`, or rejects with an `AbortedError` as soon as `signal` aborts, whichever
 * comes first: an adapter that ignores the signal cannot keep a run waiting. What `pending` does
 * later is ignored (its rejection is handled, so it is never reported as unhandled).
 */
export function raceAbort<T>(pending: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stopWatching = whenAborted(signal, () => reject(new AbortedError({ cause: signal.reason })));
    Promise.resolve(pending).then(
      (value) => {
        stopWatching();
        resolve(value);
      },
      (error: unknown) => {
        stopWatching();
        reject(error);
      },
    );
  });
}
