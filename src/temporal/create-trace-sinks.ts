import type { TraceEvent } from '../tracing/trace-events.js';
import type { InjectedTraceSinks, TraceWorkflowInfo } from './trace-sinks.js';

/**
 * The worker's `sinks` option that hands the trace events of runs inside workflows to a trace
 * emitter (a JSONL file, OpenTelemetry, any `TraceEmitter`; it also receives the workflow's
 * `WorkflowInfo`), as they happen and once: not again
 * when Temporal replays a workflow's history. A failing emitter is logged by the worker and never
 * fails the workflow.
 *
 * @example
 * const worker = await Worker.create({ ...options, sinks: createTraceSinks(jsonlTraceEmitter('traces.jsonl')) });
 */
export function createTraceSinks(
  traceEmitter: (event: TraceEvent, workflowInfo: TraceWorkflowInfo) => void | Promise<void>,
): InjectedTraceSinks {
  return {
    toolOrchestrator: {
      event: {
        fn: (workflowInfo, event) => traceEmitter(event, workflowInfo),
        callDuringReplay: false,
      },
    },
  };
}
