/** The watchers of one signal, and how to stop listening to it. */
interface Watched {
  readonly handlers: Set<() => void>;
  readonly stopListening: () => void;
}

/**
 * Watches abort signals for many waiters with one `abort` listener per signal: runs of one
 * orchestrator that share a signal (the orchestrator's own, or one the caller passes to many runs)
 * do not each add a listener to it, which past ten would make Node warn of a leak. The listener is
 * removed once a signal has no watcher left.
 */
export class SignalWatchers {
  readonly #watched = new Map<AbortSignal, Watched>();

  /**
   * Calls `handler` once when `signal` aborts (at once when it has) and returns a function that
   * stops watching. Handlers run in the order they were added; one that throws does not keep the
   * others from running (its error is rethrown in a microtask, as a listener's would be reported).
   */
  watch(signal: AbortSignal, handler: () => void): () => void {
    if (signal.aborted) {
      handler();
      return () => {};
    }
    const watched = this.#watched.get(signal) ?? this.#listen(signal);
    // An entry of its own, so the same handler can watch twice and each stop removes one.
    const entry = (): void => handler();
    watched.handlers.add(entry);
    return () => {
      if (!watched.handlers.delete(entry) || watched.handlers.size > 0) return;
      if (this.#watched.get(signal) === watched) this.#watched.delete(signal);
      watched.stopListening();
    };
  }

  #listen(signal: AbortSignal): Watched {
    const handlers = new Set<() => void>();
    const onAbort = (): void => {
      this.#watched.delete(signal);
      for (const handler of [...handlers]) {
        try {
          handler();
        } catch (error) {
          queueMicrotask(() => {
            throw error;
          });
        }
      }
      handlers.clear();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const watched = { handlers, stopListening: () => signal.removeEventListener('abort', onAbort) };
    this.#watched.set(signal, watched);
    return watched;
  }
}
