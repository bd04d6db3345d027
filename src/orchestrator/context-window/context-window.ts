import type { ContextLengthError } from '../../errors/context-length-error.js';
import type { ChatMessage, ToolMessage } from '../../model/messages.js';
import type { ModelToolDefinition } from '../../model/model-adapter.js';
import type { Usage } from '../../model/usage.js';
import type { ToolCallReference } from '../../tracing/trace-events.js';
import type { ContextPlan, ContextRequest, ContextWindowSetup } from './context-request.js';
import type { ContextStrategy } from './context-window-options.js';
import {
  contextWindowJson,
  createContextWindowState,
  restoreContextWindowState,
} from './context-window-state.js';
import type { ContextWindowState, ReductionReason } from './context-window-state.js';
import { learnFromRefusal, learnFromUsage } from './calibration.js';
import { runCustomStrategy } from './custom-strategy.js';
import { toolsTokens } from './estimate-tokens.js';
import { maskOldest, toolCallBefore } from './mask-observations.js';
import { SentViews, summaryInView } from './sent-view.js';
import type { SummaryInView } from './sent-view.js';
import { summarizeOldestTurns } from './summarize-turns.js';

/** A reduction starts when the estimate passes this fraction of the limit. */
const highWaterMargin = 0.95;

/** What a call would send and its estimate before calibration, tool definitions included. */
interface Estimate {
  readonly messages: readonly ChatMessage[];
  readonly raw: number;
}

/**
 * One run's context window. Before each model call the run asks it for the messages to send
 * (`plan`): it builds them from the transcript with the reductions made so far (masked results,
 * the summary), and when their estimate passes the high-water mark it reduces down to the
 * low-water mark with the run's strategy and traces `context_compacted`. Earlier reductions stay
 * in force, so the sent prefix changes only at a reduction; the transcript itself is never
 * changed. After a provider's context-length refusal it reduces further (`recover`), and the
 * provider's reported prompt tokens correct its estimates (`record`). What it has done is plain
 * JSON (`save`, `ContextWindow.restore`).
 */
export class ContextWindow {
  readonly #setup: ContextWindowSetup;
  readonly #state: ContextWindowState;
  readonly #masked: Set<string>;
  readonly #views: SentViews;
  #summary: SummaryInView | undefined;
  #tools: readonly ModelToolDefinition[] | undefined;
  #toolsTokens = 0;

  constructor(
    setup: ContextWindowSetup,
    state: ContextWindowState = createContextWindowState(setup.options.maxTokens),
  ) {
    this.#setup = setup;
    this.#state = state;
    this.#masked = new Set(state.maskedToolCallIds);
    this.#views = new SentViews(setup.options.countTokens);
    this.#summary = summaryInView(state.summary);
  }

  /**
   * The window of a resumed run, from what its checkpoint stored (`save()`): the same results
   * masked and the same summary, so it sends the same prefix. A state that is missing or not the
   * window's starts afresh; a stored window larger than the option's is cut to it.
   */
  static restore(saved: unknown, setup: ContextWindowSetup): ContextWindow {
    return new ContextWindow(setup, restoreContextWindowState(saved, setup.options.maxTokens));
  }

  /** The estimated context size of each model call so far, in tokens (`result.contextTokens`). */
  get contextTokens(): readonly number[] {
    return this.#state.contextTokens;
  }

  /** What a checkpoint stores as `strategyState.contextWindow`: plain JSON. */
  save(): ReturnType<typeof contextWindowJson> {
    return contextWindowJson(this.#state);
  }

  /**
   * The messages the call sends and their estimate: reduced first when the estimate passes the
   * high-water mark. Warns (`context_over_limit`) when even the reduction leaves it over the limit.
   *
   * @throws {InvalidArgumentError} when a custom strategy breaks the pairing of a call and its results.
   * @throws {AbortedError} when the run's signal aborts a summary call or a custom strategy.
   */
  async plan(request: ContextRequest): Promise<ContextPlan> {
    const estimate = this.#estimate(request);
    if (estimate.raw * this.#state.calibration <= this.#limit * highWaterMargin) {
      return this.#finish(estimate, 'high_water');
    }
    const reduced = await this.#reduce(request, estimate, 'high_water');
    return this.#finish(reduced ?? estimate, 'high_water');
  }

  /**
   * After the provider refused the call as too long: learns the window it named (when smaller)
   * and that the estimate fell short, and reduces as far as it may (only the latest turn's results
   * kept). Resolves to what to send on the one retry, or `undefined` when nothing more can be
   * taken out.
   */
  async recover(error: ContextLengthError, request: ContextRequest): Promise<ContextPlan | undefined> {
    learnFromRefusal(this.#state, error);
    const reduced = await this.#reduce(request, this.#estimate(request), 'overflow');
    return reduced === undefined ? undefined : this.#finish(reduced, 'overflow');
  }

  /**
   * After a call: records the context size it sent (`tokens`, from its plan), and the provider's
   * prompt tokens correct the estimates of the calls that follow.
   */
  record(tokens: number, usage: Usage | undefined): void {
    learnFromUsage(this.#state, tokens, usage);
  }

  /** The tokens the messages may take: the window less the reserve for the answer. */
  get #limit(): number {
    const maxTokens = this.#state.maxTokens;
    return maxTokens - Math.min(this.#setup.options.reserveOutputTokens, Math.floor(maxTokens / 2));
  }

  #estimate(request: ContextRequest): Estimate {
    const fromTranscript = request.messages === request.transcript;
    const view = this.#views.build(request.messages, {
      masked: this.#masked,
      summary: fromTranscript ? this.#summary : undefined,
    });
    if (request.tools !== this.#tools) {
      this.#tools = request.tools;
      this.#toolsTokens = toolsTokens(request.tools, this.#setup.options.countTokens);
    }
    return { messages: view.messages, raw: view.tokens + this.#toolsTokens };
  }

  /** Keeps the estimate to calibrate against the call's usage, and warns when it is over the limit. */
  #finish(estimate: Estimate, reason: ReductionReason): ContextPlan {
    const state = this.#state;
    const tokens = this.#calibrated(estimate);
    const limit = this.#limit;
    // After a refusal the retry tells whether it fits.
    if (tokens > limit && reason === 'high_water') {
      this.#setup.trace.emit('warning', {
        code: 'context_over_limit',
        message: `The call sends about ${tokens} tokens, over the context window's limit of ${limit} (maxTokens ${state.maxTokens} less reserveOutputTokens) even after reducing: the most recent messages alone are that large. Lower keepRecent or raise maxTokens.`,
      });
    }
    state.pendingEstimate = estimate.raw;
    return { messages: estimate.messages, tokens };
  }

  /** Reduces with the run's strategy; `undefined` when nothing could be taken out. */
  async #reduce(
    request: ContextRequest,
    estimate: Estimate,
    reason: ReductionReason,
  ): Promise<Estimate | undefined> {
    const strategy = this.#setup.options.strategy;
    if (typeof strategy === 'function') return this.#reduceWith(strategy, request, estimate, reason);
    if (strategy === 'summarize' && request.messages === request.transcript) {
      const summarized = await this.#summarize(request, estimate, reason);
      if (summarized !== undefined) return summarized;
    }
    return this.#mask(request, estimate, reason);
  }

  async #reduceWith(
    strategy: ContextStrategy,
    request: ContextRequest,
    estimate: Estimate,
    reason: ReductionReason,
  ): Promise<Estimate> {
    const limit = this.#limit;
    const signal = this.#setup.signal;
    const messages = await runCustomStrategy(strategy, estimate.messages, {
      tokens: this.#calibrated(estimate),
      limit,
      target: Math.floor(limit * this.#setup.options.lowWaterMark),
      reason,
      turn: request.turn,
      ...(signal === undefined ? {} : { signal }),
    });
    let raw = this.#toolsTokens;
    for (const message of messages) raw += this.#views.count(message);
    const after = { messages, raw };
    this.#setup.trace.emit('context_compacted', {
      strategy: 'custom',
      reason,
      tokensBefore: this.#calibrated(estimate),
      tokensAfter: this.#calibrated(after),
      limit,
      maskedToolCalls: [],
      removedMessageCount: Math.max(0, estimate.messages.length - messages.length),
    });
    return after;
  }

  /** The `'summarize'` strategy; `undefined` when there was nothing to summarize or the call failed. */
  async #summarize(
    request: ContextRequest,
    estimate: Estimate,
    reason: ReductionReason,
  ): Promise<Estimate | undefined> {
    const { options, adapter, trace, now, signal } = this.#setup;
    const target = Math.floor(this.#limit * options.lowWaterMark);
    const written = await summarizeOldestTurns({
      transcript: request.transcript,
      previous: this.#state.summary,
      reason,
      keepRecent: options.keepRecent,
      excess: estimate.raw - target / this.#state.calibration,
      count: (message) => this.#views.count(message),
      adapter,
      signal,
      trace,
      now,
      countUsage: request.countUsage,
    });
    if (written === undefined) return undefined;
    const summary = written.summary;
    this.#state.summary = summary;
    this.#summary = summaryInView(summary);
    const after = this.#estimate(request);
    this.#setup.trace.emit('context_compacted', {
      strategy: 'summarize',
      reason,
      tokensBefore: this.#calibrated(estimate),
      tokensAfter: this.#calibrated(after),
      limit: this.#limit,
      maskedToolCalls: [],
      removedMessageCount: summary.end - summary.start,
      summary: summary.content,
      ...(written.usage === undefined ? {} : { usage: written.usage }),
      durationMs: written.durationMs,
    });
    return after;
  }

  /** The `'mask_observations'` strategy; `undefined` when there was nothing to mask. */
  #mask(request: ContextRequest, estimate: Estimate, reason: ReductionReason): Estimate | undefined {
    const calibration = this.#state.calibration;
    const source = request.messages;
    const indexes = maskOldest({
      messages: source,
      masked: this.#masked,
      summary: source === request.transcript ? this.#state.summary : undefined,
      keepRecent: this.#setup.options.keepRecent,
      saving: (index) => this.#views.saving(source, index),
      reason,
      tokens: estimate.raw,
      target: Math.floor(this.#limit * this.#setup.options.lowWaterMark) / calibration,
      highWater: (this.#limit * highWaterMargin) / calibration,
    });
    if (indexes.length === 0) return undefined;
    const maskedToolCalls = indexes.map((index): ToolCallReference => {
      const id = (source[index] as ToolMessage).tool_call_id;
      this.#state.maskedToolCallIds.push(id);
      this.#masked.add(id);
      return { id, name: toolCallBefore(source, index, id)?.function.name ?? '' };
    });
    const after = this.#estimate(request);
    this.#setup.trace.emit('context_compacted', {
      strategy: 'mask_observations',
      reason,
      tokensBefore: this.#calibrated(estimate),
      tokensAfter: this.#calibrated(after),
      limit: this.#limit,
      maskedToolCalls,
      removedMessageCount: 0,
    });
    return after;
  }

  /** An estimate corrected by the provider's counts so far, in tokens. */
  #calibrated(estimate: Estimate): number {
    return Math.round(estimate.raw * this.#state.calibration);
  }
}
