// `tool-orchestrator/temporal` (Node, the worker's side): the loop's model and tool calls and the
// context-request loop's steps as Temporal activities, and the sink for workflows' trace events.
// Loads the optional peers `@temporalio/activity` and `@temporalio/common`. Workflow code imports
// `tool-orchestrator/temporal/workflow` instead, which never loads this.
export { createTemporalActivities } from './temporal/create-temporal-activities.js';
export type { TemporalActivitiesOptions } from './temporal/create-temporal-activities.js';
export { createTraceSinks } from './temporal/create-trace-sinks.js';
export type { InjectedTraceSinks, TraceSinks, TraceWorkflowInfo } from './temporal/trace-sinks.js';
export type {
  AdapterDescription,
  AgentDescription,
  CallModelInput,
  CallToolInput,
  DescribeAgentInput,
  ExplorationActivityInput,
  TemporalActivities,
  ToolCallContext,
  ToolDescription,
  ToolNeedsApprovalInput,
} from './temporal/activity-types.js';
