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
