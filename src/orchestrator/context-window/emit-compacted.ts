import type { Usage } from '../../model/usage.js';
import type { ToolCallReference } from '../../tracing/trace-events.js';
import type { RunState } from '../run-state.js';

/** Why the context is reduced: the next call would pass the limit, or the provider refused it as too long. */
export type ReductionReason = 'high_water' | 'overflow';

/** Traces one reduction as `context_compacted`; `rawAfter` is calibrated to the provider's count here. */
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
