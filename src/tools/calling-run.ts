import type { TraceEvent } from '../tracing/trace-events.js';

/**
 * The run that made a tool call, as the tool sees it: a tool that runs an agent of its own
 * (`orchestrator.asTool()`) hands it the nested run's events. Absent when the tool is called
 * outside a run (a custom runner, a test calling `execute` directly).
 */
export interface CallingRun {
  /**
   * Delivers an event of a run nested in this call (stamped with its own `runId`, `parentRunId`
   * and `parentToolCallId`) to the calling run's `traces`, its listeners, `stream()` and sinks; a
   * nested `llm_call`'s usage counts in the calling run's `usage` and budget.
   */
  emit(event: TraceEvent): void;
}
