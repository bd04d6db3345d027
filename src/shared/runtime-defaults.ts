/**
 * The loop's default clock and id generator, for every runtime the root entry runs in. Some
 * sandboxes (a Temporal workflow's among them) have no `performance` and no `crypto`: there the
 * clock falls back to `Date.now()` and ids to a version-4 UUID drawn from `Math.random()`, both of
 * which such sandboxes make deterministic.
 */

/** Epoch milliseconds: `performance.timeOrigin + performance.now()` where it exists, else `Date.now()`. */
export function defaultNow(): number {
  const clock = globalThis.performance;
  return clock === undefined ? Date.now() : clock.timeOrigin + clock.now();
}

/** A monotonic millisecond clock for durations: `performance.now()` where it exists, else `Date.now()`. */
export function defaultDurationClock(): number {
  const clock = globalThis.performance;
  return clock === undefined ? Date.now() : clock.now();
}

/** A version-4 UUID: `crypto.randomUUID()` where it exists, else one drawn from `Math.random()`. */
export function defaultGenerateId(): string {
  const randomUUID = globalThis.crypto?.randomUUID;
  if (typeof randomUUID === 'function') return randomUUID.call(globalThis.crypto);
  let hex = '';
  for (let index = 0; index < 32; index++) {
    const digit =
      index === 12 ? 4 : index === 16 ? 8 + Math.floor(Math.random() * 4) : Math.floor(Math.random() * 16);
    hex += digit.toString(16);
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
