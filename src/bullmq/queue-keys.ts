/** The default name of the BullMQ queue of runs. */
export const defaultQueueName = 'tool-orchestrator-runs';

/** The default BullMQ key prefix. */
export const defaultPrefix = 'bull';

/** How long a cancel mark stays (a day): long enough for a stalled run to be picked up again. */
export const cancelMarkSeconds = 86_400;

/** The key that marks run `runId` of a queue as cancelled, read by a worker when it takes the run. */
export function cancelKey(prefix: string, queueName: string, runId: string): string {
  return `${prefix}:${queueName}:tool-orchestrator:cancel:${runId}`;
}

/** The channel on which the queue tells workers to abort a run they are running. */
export function cancelChannel(prefix: string, queueName: string): string {
  return `${prefix}:${queueName}:tool-orchestrator:cancel`;
}

/** How long an approve() call holds a pause it claimed: long enough to write the decisions and requeue the run. */
export const approveClaimSeconds = 60;

/**
 * The key an approve() call sets (only when absent) to claim one pause of run `runId`, named by the
 * time that pause ended: of two concurrent calls on one pause, only the first writes its decisions.
 */
export function approveClaimKey(prefix: string, queueName: string, runId: string, pausedAt: number): string {
  return `${prefix}:${queueName}:tool-orchestrator:approve:${runId}:${pausedAt}`;
}
