import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';

/**
 * Throws the error of a stored transcript that does not match its run's state (a count or hash that
 * disagrees): the same wording from every store that keeps messages apart from the state.
 * @throws {InvalidRunStateError} always.
 */
export function damagedTranscript(runId: string, message: string, value: unknown): never {
  throw new InvalidRunStateError({
    path: 'messages',
    value,
    runId,
    message: `${message}: the checkpoint is damaged.`,
  });
}
