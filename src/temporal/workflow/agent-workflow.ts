import type { ActivityOptions } from '@temporalio/workflow';
import type { ChatMessage } from '../../model/messages.js';
import type { RunResult } from '../../orchestrator/orchestrator-options.js';
import { ToolOrchestrator } from '../../orchestrator/tool-orchestrator.js';
import { loadActivityAgent } from './load-activity-agent.js';
import { runInWorkflow } from './run-in-workflow.js';

/** Input of {@link agentWorkflow}: plain JSON, as a Temporal client passes it. */
export interface AgentWorkflowInput {
  readonly messages: readonly ChatMessage[];
  readonly systemPrompt?: string;
  /** Which of the worker's adapters. @default the first */
  readonly adapter?: string;
  /** The most model calls. @default 10 */
  readonly maxTurns?: number;
  /** Handed to every tool in its context; plain JSON. */
  readonly context?: { readonly [key: string]: unknown };
  /** Timeouts and retries of every activity. @default `defaultActivityOptions` */
  readonly activityOptions?: ActivityOptions;
}

/**
 * A ready workflow: the tool-calling loop on the worker's adapter and tools, model and tool calls
 * as activities, approvals through `approveToolCallsSignal`, trace events through
 * `traceEventsQuery` and the worker's trace sink. Export it from your workflows file
 * (`export { agentWorkflow } from 'tool-orchestrator/temporal/workflow'`) and start it by name.
 */
export async function agentWorkflow(input: AgentWorkflowInput): Promise<RunResult> {
  const agent = await loadActivityAgent({
    ...(input.adapter === undefined ? {} : { adapter: input.adapter }),
    ...(input.activityOptions === undefined ? {} : { activityOptions: input.activityOptions }),
  });
  const orchestrator = new ToolOrchestrator(agent.adapter, agent.tools, {
    ...agent.options,
    ...(input.maxTurns === undefined ? {} : { maxTurns: input.maxTurns }),
    ...(input.context === undefined ? {} : { context: input.context }),
  });
  return runInWorkflow(orchestrator, input.messages, input.systemPrompt);
}
