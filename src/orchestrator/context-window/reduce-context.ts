import type { ContextLengthError } from '../../errors/context-length-error.js';
import type { ChatMessage } from '../../model/messages.js';
import type { ModelToolDefinition } from '../../model/model-adapter.js';
import type { Usage } from '../../model/usage.js';
import type { RunConfig } from '../run-config.js';
import type { RunState } from '../run-state.js';
import { ContextLedger } from './context-ledger.js';
import type { ResolvedContextWindow } from './context-window-options.js';
import type { ContextWindowState } from './context-window-state.js';
import { reduceWithStrategy } from './custom-strategy.js';
import type { ReductionReason } from './emit-compacted.js';
import { maskOldest } from './mask-observations.js';
import { summarizeOldestTurns } from './summarize-turns.js';
import { summaryMessage } from './summary-message.js';

export type { ReductionReason } from './emit-compacted.js';

/** A reduction starts when the estimate passes this fraction of the limit. */
const highWaterMargin = 0.95;

/** The accounting of a run's context window, made (and the transcript counted) on first use. */
function ledgerOf(state: RunState, window: ResolvedContextWindow): ContextLedger {
  return (state.contextLedger ??= new ContextLedger(window.countTokens));
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
 * reduction. The transcript itself is never changed. Only a summary or a custom strategy makes the
 * plan a promise; masking answers at once.
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
  const ledger = ledgerOf(state, window);
  ledger.sync(state.messages, context);
  const limit = limitOf(context, window);
  const fromTranscript = messages === state.messages;
  const toolTokens = ledger.toolsTokens(tools);
  const sent = fromTranscript ? ledger.view(context.summary) : maskedCopy(messages, ledger);
  const raw = rawTokens(state, ledger, sent, fromTranscript) + toolTokens;
  // The newest messages' estimate is not corrected by a provider count yet: keep a margin.
  const highWater = limit * highWaterMargin;
  const overflow = reason !== undefined;
  if (!overflow && raw * context.calibration <= highWater) {
    return finishPlan(
      state,
      { messages: sent, raw, messagesGrow: fromTranscript, reduced: true },
      { limit, overflow },
    );
  }
  return reduce(state, config, ledger, {
    messages,
    sent,
    raw,
    toolTokens,
    limit,
    highWater,
    reason: reason ?? 'high_water',
    overflow,
  });
}

/** What a reduction starts from: the call's messages, their estimate and the limit. */
interface ReductionRequest {
  readonly messages: readonly ChatMessage[];
  readonly sent: readonly ChatMessage[];
  readonly raw: number;
  readonly toolTokens: number;
  readonly limit: number;
  /** The estimate (calibrated) past which a call is reduced. */
  readonly highWater: number;
  readonly reason: ReductionReason;
  readonly overflow: boolean;
}

/**
 * The reduction of `applyContextWindow`, when the estimate passed the limit or the provider refused
 * the call. Masking needs no await, so it answers at once; a summary or a custom strategy is awaited.
 */
function reduce(
  state: RunState,
  config: RunConfig,
  ledger: ContextLedger,
  request: ReductionRequest,
): ContextPlan | Promise<ContextPlan> {
  const strategy = config.contextWindow!.strategy;
  if (typeof strategy === 'function') {
    return reduceWithStrategy(state, config, ledger, request).then((reduced) =>
      finishPlan(state, { ...reduced, messagesGrow: false, reduced: true }, request),
    );
  }
  if (strategy === 'summarize' && request.messages === state.messages) {
    return reduceBySummary(state, config, ledger, request);
  }
  return maskedPlan(state, config, ledger, request, false);
}

async function reduceBySummary(
  state: RunState,
  config: RunConfig,
  ledger: ContextLedger,
  request: ReductionRequest,
): Promise<ContextPlan> {
  const context = state.contextWindow!;
  const target = Math.floor(request.limit * config.contextWindow!.lowWaterMark);
  const summarized = await summarizeOldestTurns(state, config, ledger, {
    reason: request.reason,
    excess: request.raw - target / context.calibration,
    before: Math.round(request.raw * context.calibration),
    limit: request.limit,
  });
  return maskedPlan(state, config, ledger, request, summarized);
}

/**
 * Masks the oldest tool results down to the low-water mark (unless a summary already reduced what
 * is sent) and plans the call with the new sent view.
 */
function maskedPlan(
  state: RunState,
  config: RunConfig,
  ledger: ContextLedger,
  request: ReductionRequest,
  summarized: boolean,
): ContextPlan {
  const messages = request.messages;
  const fromTranscript = messages === state.messages;
  let reduced = !request.overflow || summarized;
  if (!summarized && maskOldest(state, config.contextWindow!, ledger, request)) reduced = true;
  const sent = fromTranscript ? ledger.view(state.contextWindow!.summary) : maskedCopy(messages, ledger);
  const raw = rawTokens(state, ledger, sent, fromTranscript) + request.toolTokens;
  return finishPlan(state, { messages: sent, raw, messagesGrow: fromTranscript, reduced }, request);
}

/**
 * Warns when the call is still over the limit (unless the provider refused it, when the retry tells),
 * and keeps its estimate to calibrate against its usage.
 */
function finishPlan(
  state: RunState,
  plan: {
    readonly messages: readonly ChatMessage[];
    readonly raw: number;
    readonly messagesGrow: boolean;
    readonly reduced: boolean;
  },
  request: { readonly limit: number; readonly overflow: boolean },
): ContextPlan {
  const context = state.contextWindow!;
  const limit = request.limit;
  const tokens = Math.round(plan.raw * context.calibration);
  if (tokens > limit && !request.overflow) {
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
  if (ledger.maskedCount === 0) return messages;
  return messages.map((message) =>
    message.role === 'tool' && ledger.isMasked(message.tool_call_id)
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
