import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long a slice of synchronous work runs before other work gets the thread. */
const defaultSliceMs = 10;

/**
 * Calls `work` on each item in order, synchronously, yielding to the event loop whenever a slice
 * has run for `sliceMs`: bulk file-system work (stat'ing or reading thousands of small files)
 * without a thread-pool round trip per call, while timers, I/O and other questions still run
 * between slices.
 */
export async function inTimeSlices<T>(
  items: readonly T[],
  work: (item: T, index: number) => void,
  options: {
    readonly sliceMs?: number;
    readonly signal?: AbortSignal | undefined;
    /**
     * Background work: it starts after a pause, and pauses on timers that keep no process alive,
     * so a process with nothing else to do exits rather than wait for it. @default false
     */
    readonly background?: boolean;
  } = {},
): Promise<void> {
  const sliceMs = options.sliceMs ?? defaultSliceMs;
  const pause = (): Promise<unknown> =>
    options.background === true ? new Promise((resolve) => setTimeout(resolve, 0).unref()) : nextTurn();
  if (options.background === true) await pause();
  let sliceStarted = performance.now();
  for (let index = 0; index < items.length; index++) {
    if (performance.now() - sliceStarted >= sliceMs) {
      await pause();
      sliceStarted = performance.now();
    }
    options.signal?.throwIfAborted();
    work(items[index] as T, index);
  }
}
