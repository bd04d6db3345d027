import type { Sinks, WorkflowInfo } from '@temporalio/workflow';
import type { TraceEvent } from '../tracing/trace-events.js';

/**
 * The Temporal sink through which a workflow's trace events leave the workflow sandbox: the
 * workflow calls it (see `runInWorkflow`), the worker hands each event to a trace emitter.
 */
export interface TraceSinks extends Sinks {
  readonly toolOrchestrator: {
    /** One trace event of a run in the workflow. */
    event(event: TraceEvent): void;
  };
}

/**
 * What the worker's `sinks` option takes for {@link TraceSinks}, as `@temporalio/worker` types it
 * (a type alias, so it fits that option's index signature).
 */
export type InjectedTraceSinks = {
  readonly toolOrchestrator: {
    readonly event: {
      readonly fn: (workflowInfo: WorkflowInfo, event: TraceEvent) => void | Promise<void>;
      readonly callDuringReplay: false;
    };
  };
};
