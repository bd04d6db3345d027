/** The watchers of each signal being watched; one `abort` listener per signal serves them all. */
const watchers = new WeakMap<AbortSignal, Set<() => void>>();

const stopNothing = (): void => {};

/**
 * Calls `handler` once when `signal` aborts (at once when it already has) and returns a function
 * that stops watching. However many calls watch one signal, the signal gets a single `abort`
 * listener: adding and removing an `EventTarget` listener for every model and tool call was half
 * of a turn's cost in the loop benchmark (issue #11, `stream()` and runs with a `signal`).
 * Watchers run in the order they were added; one that throws does not keep the others from running
 * (its error is rethrown in a microtask, as an `EventTarget` listener's would be reported).
 */
export function whenAborted(signal: AbortSignal, handler: () => void): () => void {
  if (signal.aborted) {
    handler();
    return stopNothing;
  }
  let handlers = watchers.get(signal);
  if (handlers === undefined) {
    const watching = new Set<() => void>();
    handlers = watching;
    watchers.set(signal, watching);
    signal.addEventListener(
      'abort',
      () => {
        watchers.delete(signal);
        for (const watcher of watching) {
          try {
            watcher();
          } catch (error) {
            queueMicrotask(() => {
              throw error;
            });
          }
        }
        watching.clear();
      },
      { once: true },
    );
  }
  const entry = (): void => handler();
  handlers.add(entry);
  const watching = handlers;
  return () => {
    watching.delete(entry);
  };
}
