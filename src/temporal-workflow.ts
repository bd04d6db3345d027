// `tool-orchestrator/temporal/workflow` (inside Temporal's workflow sandbox): the loop's adapter and
// tool runner whose calls are the activities of `tool-orchestrator/temporal`, the helpers that run
// it with approvals and queryable traces, and two ready workflows. Imports `@temporalio/workflow`
// and the core only: no Node module, no activity code.
export { createActivityAdapter } from './temporal/workflow/activity-adapter.js';
export { ActivityToolRunner } from './temporal/workflow/activity-tool-runner.js';
export { createActivityTools } from './temporal/workflow/activity-tools.js';
export { defaultActivityOptions, loadActivityAgent } from './temporal/workflow/load-activity-agent.js';
export type {
  ActivityAgent,
  ActivityAgentOptions,
  ActivityAgentRunOptions,
} from './temporal/workflow/load-activity-agent.js';
export { runInWorkflow } from './temporal/workflow/run-in-workflow.js';
export {
  approveToolCallsSignal,
  pendingApprovalsQuery,
  traceEventsQuery,
} from './temporal/workflow/workflow-handlers.js';
export type { ApprovalDecisions } from './temporal/workflow/workflow-handlers.js';
export { agentWorkflow } from './temporal/workflow/agent-workflow.js';
export type { AgentWorkflowInput } from './temporal/workflow/agent-workflow.js';
export { exploreContextWorkflow } from './temporal/workflow/explore-context-workflow.js';
export type { ExploreContextWorkflowInput } from './temporal/workflow/explore-context-workflow.js';
export type { TraceSinks } from './temporal/trace-sinks.js';
export type {
  AdapterDescription,
  AgentDescription,
  TemporalActivities,
  ToolDescription,
} from './temporal/activity-types.js';
