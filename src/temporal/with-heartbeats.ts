import { Context } from '@temporalio/activity';

/** Heartbeats when the activity has no heartbeat timeout (Temporal throttles them anyway). */
const defaultIntervalMs = 5_000;

/**
 * Runs `work` with the activity's cancellation signal, heartbeating at the start and then every
 * `intervalMs` until it settles: Temporal delivers a cancellation only to an activity that
 * heartbeats, and a heartbeat timeout notices a worker that died mid-call.
 *
 * @param intervalMs Milliseconds between heartbeats. @default a third of the activity's heartbeat
 * timeout, else 5000
 */
export async function withHeartbeats<Result>(
  work: (signal: AbortSignal) => Promise<Result>,
  intervalMs?: number,
): Promise<Result> {
  const context = Context.current();
  const timeout = context.info.heartbeatTimeoutMs;
  const every =
    intervalMs ?? (timeout === undefined || timeout <= 0 ? defaultIntervalMs : Math.max(100, timeout / 3));
  context.heartbeat();
  const timer = setInterval(() => context.heartbeat(), every);
  try {
    return await work(context.cancellationSignal);
  } finally {
    clearInterval(timer);
  }
}
