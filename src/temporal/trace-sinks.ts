import type { TraceEvent } from '../tracing/trace-events.js';

/**
 * The Temporal sink through which a workflow's trace events leave the workflow sandbox: the
 * workflow calls it (see `runInWorkflow`), the worker hands each event to a trace emitter.
 */
export type TraceSinks = {
  readonly toolOrchestrator: {
    /** One trace event of a run in the workflow. */
    readonly event: (event: TraceEvent) => void;
  };
};

/**
 * The fields of Temporal's `WorkflowInfo` a trace emitter is most likely to want; the worker passes
 * the whole `WorkflowInfo`. Declared here so these declarations need no `@temporalio/*` types.
 */
export interface TraceWorkflowInfo {
  readonly workflowId: string;
  readonly runId: string;
  readonly workflowType: string;
  readonly taskQueue: string;
}

/**
 * What the worker's `sinks` option takes for {@link TraceSinks}, as `@temporalio/worker` types it
 * (a type alias, so it fits that option's index signature).
 */
export type InjectedTraceSinks = {
  readonly toolOrchestrator: {
    readonly event: {
      readonly fn: (workflowInfo: TraceWorkflowInfo, event: TraceEvent) => void | Promise<void>;
      readonly callDuringReplay: false;
    };
  };
};
