import { proxyActivities, uuid4 } from '@temporalio/workflow';
import type { ActivityOptions } from '@temporalio/workflow';
import type { ModelAdapter } from '../../model/model-adapter.js';
import type { ToolRegistry } from '../../tools/define-tool.js';
import type { TemporalActivities } from '../activity-types.js';
import { createActivityAdapter } from './activity-adapter.js';
import { ActivityToolRunner } from './activity-tool-runner.js';
import { createActivityTools } from './activity-tools.js';

/**
 * The activity options used when none are given: ten minutes per attempt, a heartbeat timeout of
 * one minute (the activities heartbeat every 20 seconds, so a dead worker is noticed within a
 * minute), and Temporal's default retry policy (errors the same input would repeat are
 * non-retryable).
 */
export const defaultActivityOptions: ActivityOptions = {
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
};

/** Options of {@link loadActivityAgent}. */
export interface ActivityAgentOptions {
  /** Which of the worker's adapters, by its key in `createTemporalActivities({ adapters })`. @default the first */
  readonly adapter?: string;
  /** Timeouts and retries of every activity. @default {@link defaultActivityOptions} */
  readonly activityOptions?: ActivityOptions;
  /** Replaces `activityOptions` for the model calls. */
  readonly modelActivityOptions?: ActivityOptions;
  /** Replaces `activityOptions` for the tool calls. */
  readonly toolActivityOptions?: ActivityOptions;
  /** The activities to call. @default `proxyActivities` with the options above */
  readonly activities?: TemporalActivities;
  /** The run's clock. @default `Date.now`, which Temporal makes deterministic in a workflow */
  readonly now?: () => number;
  /** The run's id generator. @default `uuid4` of `@temporalio/workflow`, deterministic on replay */
  readonly generateId?: () => string;
}

/** The orchestrator's options that make it run on activities, deterministically. */
export interface ActivityAgentRunOptions {
  readonly toolRunner: ActivityToolRunner;
  readonly now: () => number;
  readonly generateId: () => string;
}

/** What {@link loadActivityAgent} resolves to: `new ToolOrchestrator(adapter, tools, { ...options })`. */
export interface ActivityAgent {
  readonly adapter: ModelAdapter;
  readonly tools: ToolRegistry;
  readonly options: ActivityAgentRunOptions;
}

/**
 * Loads, in a workflow, what a `ToolOrchestrator` needs to run there: asks the worker for its
 * adapter's description and its tools' definitions (the `describeAgent` activity, recorded in
 * history), and returns an adapter whose calls are `callModel` activities, a tool registry of
 * the worker's definitions and a runner whose calls are `callTool` activities, with a clock and
 * id generator that replay identically.
 *
 * @example
 * const agent = await loadActivityAgent({ adapter: 'openai' });
 * const orchestrator = new ToolOrchestrator(agent.adapter, agent.tools, { ...agent.options, maxTurns: 8 });
 * const result = await runInWorkflow(orchestrator, [{ role: 'user', content: question }]);
 */
export async function loadActivityAgent(options: ActivityAgentOptions = {}): Promise<ActivityAgent> {
  const base = options.activityOptions ?? defaultActivityOptions;
  const activities = options.activities;
  const describe = activities ?? proxyActivities<TemporalActivities>(base);
  const models = activities ?? proxyActivities<TemporalActivities>(options.modelActivityOptions ?? base);
  const tools = activities ?? proxyActivities<TemporalActivities>(options.toolActivityOptions ?? base);
  const description = await describe.describeAgent(
    options.adapter === undefined ? {} : { adapter: options.adapter },
  );
  const registry = createActivityTools(description.tools, describe);
  return {
    adapter: createActivityAdapter(description.adapter, models),
    tools: registry,
    options: {
      toolRunner: new ActivityToolRunner(registry, tools),
      now: options.now ?? (() => Date.now()),
      generateId: options.generateId ?? uuid4,
    },
  };
}
