import type { ContextLengthError } from '../../errors/context-length-error.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { ChatMessage } from '../../model/messages.js';
import type { ModelToolDefinition } from '../../model/model-adapter.js';
import type { Usage } from '../../model/usage.js';
import type { ToolCallReference } from '../../tracing/trace-events.js';
import { raceAbort } from '../race-abort.js';
import type { RunConfig } from '../run-config.js';
import type { RunState } from '../run-state.js';
import { pairingProblem } from './check-pairing.js';
import { ContextLedger } from './context-ledger.js';
import type { ResolvedContextWindow } from './context-window-options.js';
import type { ContextWindowState } from './context-window-state.js';
import { chooseMasks } from './mask-observations.js';
import { summarizeOldestTurns } from './summarize-turns.js';
import { summaryMessage } from './summary-message.js';

/** Why the context is reduced: the next call would pass the limit, or the provider refused it as too long. */
export type ReductionReason = 'high_water' | 'overflow';

const ledgers = new WeakMap<ContextWindowState, ContextLedger>();
/** A reduction starts when the estimate passes this fraction of the limit. */
const highWaterMargin = 0.95;

/** The accounting of a run's context window, made (and the transcript counted) on first use. */
export function ledgerOf(state: ContextWindowState, window: ResolvedContextWindow): ContextLedger {
  let ledger = ledgers.get(state);
  if (ledger === undefined) {
    ledger = new ContextLedger(window.countTokens);
    ledgers.set(state, ledger);
  }
  return ledger;
}

/** What a call sends once the context window is applied, and its estimated size in tokens. */
export interface ContextPlan {
  readonly messages: readonly ChatMessage[];
  readonly tokens: number;
  /** True when `messages` is the transcript or its sent view: arrays later calls append to. */
  readonly messagesGrow: boolean;
  /** False when a reduction was asked for (an overflow) and nothing more could be taken out. */
  readonly reduced: boolean;
}

/**
 * Applies the context window to the messages a call is about to send: counts what entered the
 * transcript since the last call, and when the estimate passes the limit (or the provider refused
 * the last attempt), reduces down to the low-water mark with the run's strategy and traces
 * `context_compacted`. Earlier reductions stay in force, so the sent prefix changes only at a
 * reduction. The transcript itself is never changed.
 */
export function applyContextWindow(
  state: RunState,
  config: RunConfig,
  messages: readonly ChatMessage[],
  tools: readonly ModelToolDefinition[],
  reason: ReductionReason | undefined,
): ContextPlan | Promise<ContextPlan> {
  const window = config.contextWindow!;
  const context = state.contextWindow!;
  const ledger = ledgerOf(context, window);
  ledger.sync(state.messages, context);
  const limit = limitOf(context, window);
  const fromTranscript = messages === state.messages;
  const toolTokens = ledger.toolsTokens(tools);
  const sent = fromTranscript ? ledger.view(context.summary) : maskedCopy(messages, ledger);
  const raw = rawTokens(state, ledger, sent, fromTranscript) + toolTokens;
  // The newest messages' estimate is not corrected by a provider count yet: keep a margin. Below
  // it (most calls) nothing is awaited.
  if (reason === undefined && raw * context.calibration <= limit * highWaterMargin) {
    return finishPlan(
      state,
      { messages: sent, raw, messagesGrow: fromTranscript, reduced: true },
      limit,
      reason,
    );
  }
  return reduce(state, config, ledger, {
    messages,
    sent,
    raw,
    toolTokens,
    limit,
    reason: reason ?? 'high_water',
    overflow: reason !== undefined,
  });
}

/** The reduction of `applyContextWindow`, when the estimate passed the limit or the provider refused the call. */
async function reduce(
  state: RunState,
  config: RunConfig,
  ledger: ContextLedger,
  request: {
    readonly messages: readonly ChatMessage[];
    readonly sent: readonly ChatMessage[];
    readonly raw: number;
    readonly toolTokens: number;
    readonly limit: number;
    readonly reason: ReductionReason;
    readonly overflow: boolean;
  },
): Promise<ContextPlan> {
  const window = config.contextWindow!;
  const context = state.contextWindow!;
  const { messages, toolTokens, limit } = request;
  const why = request.reason;
  const target = Math.floor(limit * window.lowWaterMark);
  const fromTranscript = messages === state.messages;
  let sent = request.sent;
  let raw = request.raw;
  let reduced = !request.overflow;
  let messagesGrow = fromTranscript;
  const before = Math.round(raw * context.calibration);
  const strategy = window.strategy;
  if (typeof strategy === 'function') {
    sent = await customReduction(state, strategy, sent, { tokens: before, limit, target, reason: why });
    messagesGrow = false;
    raw = ledger.countMessages(sent) + toolTokens;
    reduced = true;
    emitCompacted(state, 'custom', why, before, raw, limit, [], Math.max(0, messages.length - sent.length));
  } else {
    let summarized = false;
    if (strategy === 'summarize' && fromTranscript) {
      summarized = await summarizeOldestTurns(state, config, ledger, {
        reason: why,
        excess: raw - target / context.calibration,
        before,
        limit,
      });
    }
    if (!summarized) {
      // After a refusal the estimate has proved wrong: take out all that may go, with one retry left.
      const excess = why === 'overflow' ? Number.POSITIVE_INFINITY : raw - target / context.calibration;
      const latest = lastTurnResults(state);
      const keep = why === 'overflow' ? Math.min(window.keepRecent, latest) : window.keepRecent;
      const chosen = chooseMasks(ledger, keep, excess);
      ledger.mask(chosen.positions, context);
      let positions = chosen.positions;
      let saved = chosen.saved;
      // keepRecent yields when the call would not fit otherwise: then recent results are masked
      // too, oldest first (never the latest turn's), down to the low-water mark like the rest, so
      // the next calls fit without another reduction.
      const overLimit =
        why === 'overflow' ? 0 : raw - saved - (limit * highWaterMargin) / context.calibration;
      if (overLimit > 0 && keep > latest) {
        const more = chooseMasks(ledger, latest, raw - saved - target / context.calibration);
        ledger.mask(more.positions, context);
        positions = [...positions, ...more.positions];
        saved += more.saved;
      }
      if (positions.length > 0) {
        reduced = true;
        emitCompacted(
          state,
          'mask_observations',
          why,
          before,
          raw - saved,
          limit,
          positions.map((position): ToolCallReference => ({
            id: ledger.toolOrder[position]!,
            name: ledger.toolCallAt(position)?.function.name ?? '',
          })),
          0,
        );
      }
    } else {
      reduced = true;
    }
    sent = fromTranscript ? ledger.view(context.summary) : maskedCopy(messages, ledger);
    raw = rawTokens(state, ledger, sent, fromTranscript) + toolTokens;
  }
  return finishPlan(
    state,
    { messages: sent, raw, messagesGrow, reduced },
    limit,
    request.overflow ? why : undefined,
  );
}

/** Warns when the call is still over the limit, and keeps its estimate to calibrate against its usage. */
function finishPlan(
  state: RunState,
  plan: {
    readonly messages: readonly ChatMessage[];
    readonly raw: number;
    readonly messagesGrow: boolean;
    readonly reduced: boolean;
  },
  limit: number,
  reason: ReductionReason | undefined,
): ContextPlan {
  const context = state.contextWindow!;
  const tokens = Math.round(plan.raw * context.calibration);
  if (tokens > limit && reason === undefined) {
    state.trace.emit('warning', {
      code: 'context_over_limit',
      message: `The call sends about ${tokens} tokens, over the context window's limit of ${limit} (maxTokens ${context.maxTokens} less reserveOutputTokens) even after reducing: the most recent messages alone are that large. Lower keepRecent or raise maxTokens.`,
    });
  }
  context.pendingEstimate = plan.raw;
  return { messages: plan.messages, tokens, messagesGrow: plan.messagesGrow, reduced: plan.reduced };
}

/** The tokens the messages may take: the window less the reserve for the answer. */
export function limitOf(context: ContextWindowState, window: ResolvedContextWindow): number {
  return context.maxTokens - Math.min(window.reserveOutputTokens, Math.floor(context.maxTokens / 2));
}

/**
 * After a call: records the context size it sent, and the provider's prompt tokens correct the
 * estimates of the calls that follow.
 */
export function recordContextCall(
  context: ContextWindowState,
  tokens: number,
  usage: Usage | undefined,
): void {
  context.contextTokens.push(tokens);
  const promptTokens = usage?.promptTokens;
  if (typeof promptTokens !== 'number' || !(promptTokens > 0) || !(context.pendingEstimate > 0)) return;
  // Bounded, so one odd usage report cannot make the window look empty or full.
  context.calibration = Math.min(4, Math.max(0.25, promptTokens / context.pendingEstimate));
}

/**
 * After the provider refused a call as too long: a smaller window it named replaces ours, and the
 * estimates are made to err high (the last one fell short of the provider's count).
 */
export function learnFromRefusal(context: ContextWindowState, error: ContextLengthError): void {
  const window = error.maxContextTokens;
  if (window !== undefined && window < context.maxTokens) context.maxTokens = window;
  const requested = error.requestedTokens;
  context.calibration =
    requested !== undefined && context.pendingEstimate > 0
      ? Math.max(context.calibration, Math.min(4, requested / context.pendingEstimate))
      : Math.min(4, context.calibration * 1.25);
}

/** A hook's messages with the masked results replaced (by tool call id). */
function maskedCopy(messages: readonly ChatMessage[], ledger: ContextLedger): readonly ChatMessage[] {
  if (ledger.masked.size === 0) return messages;
  return messages.map((message) =>
    message.role === 'tool' && ledger.masked.has(message.tool_call_id)
      ? ledger.placeholder(message.tool_call_id, message)
      : message,
  );
}

/** The estimate of `sent`: from the ledger's sums for the transcript's view, else message by message. */
function rawTokens(
  state: RunState,
  ledger: ContextLedger,
  sent: readonly ChatMessage[],
  fromTranscript: boolean,
): number {
  if (!fromTranscript) return ledger.countMessages(sent);
  const summary = state.contextWindow!.summary;
  let tokens = ledger.total - ledger.maskedSaving;
  if (summary !== undefined) {
    tokens +=
      ledger.countMessages([summaryMessage(summary.content)]) -
      ledger.rangeTokens(summary.start, summary.end);
  }
  return tokens;
}

/** Tool results answering the transcript's last assistant message: what an overflow keeps. */
function lastTurnResults(state: RunState): number {
  let count = 0;
  for (let index = state.messages.length - 1; index >= 0 && state.messages[index]!.role === 'tool'; index--)
    count++;
  return count;
}

async function customReduction(
  state: RunState,
  strategy: Extract<ResolvedContextWindow['strategy'], (...args: never[]) => unknown>,
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

/** Traces one reduction. */
export function emitCompacted(
  state: RunState,
  strategy: 'mask_observations' | 'summarize' | 'custom',
  reason: ReductionReason,
  tokensBefore: number,
  rawAfter: number,
  limit: number,
  maskedToolCalls: readonly ToolCallReference[],
  removedMessageCount: number,
  extra: { summary?: string; usage?: Usage; durationMs?: number } = {},
): void {
  state.trace.emit('context_compacted', {
    strategy,
    reason,
    tokensBefore,
    tokensAfter: Math.round(rawAfter * state.contextWindow!.calibration),
    limit,
    maskedToolCalls,
    removedMessageCount,
    ...extra,
  });
}
