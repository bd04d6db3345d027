import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { ChatMessage } from '../../model/messages.js';
import { raceAbort } from '../race-abort.js';
import type { RunConfig } from '../run-config.js';
import type { RunState } from '../run-state.js';
import { pairingProblem } from './check-pairing.js';
import type { ContextLedger } from './context-ledger.js';
import type { ResolvedContextWindow } from './context-window-options.js';
import { emitCompacted } from './emit-compacted.js';
import type { ReductionReason } from './emit-compacted.js';

type Strategy = Extract<ResolvedContextWindow['strategy'], (...args: never[]) => unknown>;

/** What a custom strategy is asked to reduce. */
export interface CustomReductionRequest {
  /** What the call would send. */
  readonly sent: readonly ChatMessage[];
  /** Its estimate, before calibration, tool definitions included. */
  readonly raw: number;
  readonly toolTokens: number;
  readonly limit: number;
  readonly reason: ReductionReason;
}

/**
 * A user's `ContextStrategy`: called with what would be sent and the estimate, its answer checked
 * for the call/result pairing, counted, and traced as `context_compacted`. Resolves to what is
 * sent and its estimate before calibration.
 *
 * @throws {InvalidArgumentError} when the strategy breaks the pairing of a call and its results.
 */
export async function reduceWithStrategy(
  state: RunState,
  config: RunConfig,
  ledger: ContextLedger,
  request: CustomReductionRequest,
): Promise<{ readonly messages: readonly ChatMessage[]; readonly raw: number }> {
  const context = state.contextWindow!;
  const window = config.contextWindow!;
  const { sent, limit } = request;
  const before = Math.round(request.raw * context.calibration);
  const messages = await customReduction(state, window.strategy as Strategy, sent, {
    tokens: before,
    limit,
    target: Math.floor(limit * window.lowWaterMark),
    reason: request.reason,
  });
  const raw = ledger.countMessages(messages) + request.toolTokens;
  emitCompacted(
    state,
    'custom',
    request.reason,
    before,
    raw,
    limit,
    [],
    Math.max(0, sent.length - messages.length),
  );
  return { messages, raw };
}

async function customReduction(
  state: RunState,
  strategy: Strategy,
  messages: readonly ChatMessage[],
  info: { tokens: number; limit: number; target: number; reason: ReductionReason },
): Promise<readonly ChatMessage[]> {
  const signal = state.signal;
  const pending = strategy(messages, {
    ...info,
    turn: state.turns,
    ...(signal === undefined ? {} : { signal }),
  });
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
  // Copied: the strategy may reuse its array, and an event's snapshot must not change.
  return [...(result as readonly ChatMessage[])];
}
