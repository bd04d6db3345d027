/** The longest delay `setTimeout` honours; a longer one fires at once. */
export const maxTimerDelayMs = 2 ** 31 - 1;

/** One HTTP attempt's signal: the caller's abort, or the attempt's deadline. */
export interface AttemptDeadline {
  /** Aborts when the caller's signal aborts or the deadline passes; give it to the request. */
  readonly signal: AbortSignal;
  /** True once the deadline passed (and not the caller's abort). */
  readonly timedOut: boolean;
  /** The deadline, in milliseconds from the start of the attempt or from the last `restart`. */
  readonly timeoutMs: number;
  /** Starts the deadline over: a stream calls it on every chunk, so it bounds the gap between two. */
  restart(): void;
  /** Clears the timer and stops listening to the caller's signal: the attempt's body was read or released. */
  dispose(): void;
  /** Disposes, and aborts the request: releases the connection of an attempt that failed with its body unread. */
  abandon(): void;
}

/**
 * Starts the deadline of one HTTP attempt. The `openai` client's own `timeout` stops at the
 * response headers; this one runs until the adapter has read the whole body (or, restarted on
 * every chunk, until the next chunk of a stream), so a server that drips bytes or sends
 * keep-alives forever is cut off as well.
 */
export function startAttemptDeadline(
  callerSignal: AbortSignal | undefined,
  timeoutMs: number,
): AttemptDeadline {
  const controller = new AbortController();
  let timedOut = false;
  const onCallerAbort = (): void => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted === true) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  const limit = Math.min(Math.max(timeoutMs, 0), maxTimerDelayMs);
  // `restart` runs on every chunk: it only notes the time, and the timer re-arms itself for what is left.
  let startedAt = Date.now();
  const check = (): void => {
    const left = startedAt + limit - Date.now();
    if (left > 0) {
      timer = setTimeout(check, left);
      return;
    }
    timedOut = true;
    controller.abort(new DOMException(`Nothing complete arrived within ${timeoutMs} ms.`, 'TimeoutError'));
  };
  let timer = setTimeout(check, limit);
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    timeoutMs,
    restart() {
      startedAt = Date.now();
    },
    dispose() {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
    abandon() {
      this.dispose();
      if (!controller.signal.aborted)
        controller.abort(new DOMException('The attempt is over.', 'AbortError'));
    },
  };
}
