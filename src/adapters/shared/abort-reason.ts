import { maxTimerDelayMs } from './attempt-deadline.js';

/**
 * The error to throw once `signal` is aborted: its reason when that is an error (a DOM
 * `AbortError` by default), else a DOM `AbortError` carrying the reason as its message.
 */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException(typeof reason === 'string' ? reason : 'The model call was aborted.', 'AbortError');
}

/** Waits `milliseconds` (at most ~24.8 days, `setTimeout`'s limit), or rejects with the abort reason as soon as `signal` aborts. */
export function sleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(abortReason(signal));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.min(milliseconds, maxTimerDelayMs),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
