import { AbortedError } from '../errors/aborted-error.js';

/**
 * Settles with `pending`, or rejects with an `AbortedError` as soon as `signal` aborts, whichever
 * comes first: an adapter that ignores the signal cannot keep a run waiting. What `pending` does
 * later is ignored (its rejection is handled, so it is never reported as unhandled).
 */
export function raceAbort<T>(pending: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new AbortedError({ cause: signal.reason }));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(pending).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
