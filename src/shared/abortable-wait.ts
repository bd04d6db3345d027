import { AbortedError } from '../errors/aborted-error.js';

/** Resolves after `milliseconds`, or rejects with an `AbortedError` as soon as `signal` aborts. */
export function abortableWait(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(new AbortedError({ cause: signal.reason }));
  if (milliseconds <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortedError({ cause: signal?.reason }));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
