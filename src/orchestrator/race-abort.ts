import { AbortedError } from '../errors/aborted-error.js';

/**
 * Settles with `pending`, or rejects with an `AbortedError` as soon as `signal` aborts, whichever
 * comes first: an adapter, hook or store that ignores the signal cannot keep a run waiting. What
 * `pending` does later is ignored (its rejection is handled, so it is never reported as
 * unhandled). Without a signal, `pending` is awaited as it is.
 */
export function raceAbort<T>(
  pending: PromiseLike<T> | T,
  signal: AbortSignal | undefined,
): PromiseLike<T> | T {
  if (signal === undefined) return pending;
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
