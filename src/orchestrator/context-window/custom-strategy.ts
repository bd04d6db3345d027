import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { ChatMessage } from '../../model/messages.js';
import { raceAbort } from '../race-abort.js';
import { pairingProblem } from './check-pairing.js';
import type { ContextStrategy, ContextStrategyInfo } from './context-window-options.js';

/**
 * Calls a user's `ContextStrategy` with what would be sent, and checks what it returns for the
 * pairing of each call with its results. Resolves to a copy of it (the strategy may reuse its
 * array, and an event's snapshot must not change).
 *
 * @throws {InvalidArgumentError} when the strategy breaks the pairing of a call and its results.
 * @throws {AbortedError} when `info.signal` aborts first.
 */
export async function runCustomStrategy(
  strategy: ContextStrategy,
  messages: readonly ChatMessage[],
  info: ContextStrategyInfo,
): Promise<readonly ChatMessage[]> {
  const pending = strategy(messages, info);
  const signal = info.signal;
  const result: unknown = await (signal === undefined
    ? pending
    : raceAbort(Promise.resolve(pending), signal));
  const problem = pairingProblem(result);
  if (problem !== undefined) {
    throw new InvalidArgumentError({
      argument: 'contextWindow.strategy()',
      value: result,
      message: `${problem}. A strategy must keep every assistant tool call answered by its tool message right after it (drop or keep a call and its results together).`,
    });
  }
  return [...(result as readonly ChatMessage[])];
}
