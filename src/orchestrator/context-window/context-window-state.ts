/** Why the context is reduced: the next call would pass the limit, or the provider refused it as too long. */
export type ReductionReason = 'high_water' | 'overflow';

/**
 * The summary that stands in for transcript messages `start` to `end` (exclusive) in what is sent
 * (the `'summarize'` strategy).
 */
// A type, not an interface, so it is assignable to a checkpoint's JSON.
export type ContextSummary = {
  readonly content: string;
  readonly start: number;
  readonly end: number;
};

/**
 * What a run's context window keeps between calls: plain JSON, so a checkpointed run can store it
 * beside the full transcript and resume with the same reductions (and the same sent prefix).
 * Token counts are not kept: they are derived from the transcript again after a resume.
 */
export interface ContextWindowState {
  /** The window in force: the option's, or smaller when a provider's error named a smaller one. */
  maxTokens: number;
  /** Tool calls whose results are sent as a placeholder (`'mask_observations'`), oldest first. */
  maskedToolCallIds: string[];
  /** What `'summarize'` replaced, once it has. */
  summary: ContextSummary | undefined;
  /** The provider's prompt tokens over our estimate, from the last call that reported usage. */
  calibration: number;
  /** The estimate (before calibration) of the call in flight, to calibrate against its usage. */
  pendingEstimate: number;
  /** The estimated context size of each model call, in tokens. */
  contextTokens: number[];
}

/** A fresh state for a run with a context window of `maxTokens`. */
export function createContextWindowState(maxTokens: number): ContextWindowState {
  return {
    maxTokens,
    maskedToolCallIds: [],
    summary: undefined,
    calibration: 1,
    pendingEstimate: 0,
    contextTokens: [],
  };
}

/** The state as a checkpoint stores it (`strategyState.contextWindow`): JSON, `null` for no summary. */
export function contextWindowJson(state: ContextWindowState): {
  readonly maxTokens: number;
  readonly maskedToolCallIds: readonly string[];
  readonly summary: ContextSummary | null;
  readonly calibration: number;
  readonly pendingEstimate: number;
  readonly contextTokens: readonly number[];
} {
  return {
    maxTokens: state.maxTokens,
    maskedToolCallIds: state.maskedToolCallIds.slice(),
    summary: state.summary ?? null,
    calibration: state.calibration,
    pendingEstimate: state.pendingEstimate,
    contextTokens: state.contextTokens.slice(),
  };
}

/**
 * The state of a resumed run: what its checkpoint stored (so the same results stay masked and the
 * sent prefix is the same), or a fresh one when it was saved without a context window.
 */
export function restoreContextWindowState(saved: unknown, maxTokens: number): ContextWindowState {
  const fresh = createContextWindowState(maxTokens);
  if (typeof saved !== 'object' || saved === null) return fresh;
  const stored = saved as Partial<ReturnType<typeof contextWindowJson>>;
  const numbers = (value: unknown): number[] =>
    Array.isArray(value) ? value.filter((item): item is number => typeof item === 'number') : [];
  const summary = stored.summary;
  return {
    maxTokens: typeof stored.maxTokens === 'number' ? Math.min(stored.maxTokens, maxTokens) : maxTokens,
    maskedToolCallIds: Array.isArray(stored.maskedToolCallIds)
      ? stored.maskedToolCallIds.filter((id): id is string => typeof id === 'string')
      : [],
    summary:
      summary != null &&
      typeof summary.content === 'string' &&
      Number.isInteger(summary.start) &&
      Number.isInteger(summary.end) &&
      summary.start >= 0 &&
      summary.start < summary.end
        ? { content: summary.content, start: summary.start, end: summary.end }
        : undefined,
    calibration: typeof stored.calibration === 'number' && stored.calibration > 0 ? stored.calibration : 1,
    pendingEstimate: typeof stored.pendingEstimate === 'number' ? stored.pendingEstimate : 0,
    contextTokens: numbers(stored.contextTokens),
  };
}
