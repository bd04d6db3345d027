import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { ActivityOptions } from '@temporalio/workflow';
import { runContextRounds } from '../../flows/context/context-rounds.js';
import type { ExploreContextResult } from '../../flows/context/explore-context.js';
import type { TemporalActivities } from '../activity-types.js';
import { defaultActivityOptions } from './load-activity-agent.js';

const defaultTask = 'Gather the context needed for the work described in the context below.';

/** Input of {@link exploreContextWorkflow}: `exploreContext`'s options that are plain JSON. */
export interface ExploreContextWorkflowInput {
  /** What the context is for, as the model should read it. @default a request to gather what `initialContext` describes */
  readonly task?: string;
  /** Context known up front (a ticket, a diff). @default '' */
  readonly initialContext?: string;
  /** Rounds of request-and-fulfil; 0 disables exploration. @default 10 */
  readonly maxRounds?: number;
  /** Put the `discover_context` result for `targetFiles` in up front. @default false */
  readonly includeDeps?: boolean;
  /** The files the task is about, for `includeDeps`. */
  readonly targetFiles?: readonly string[];
  /** Characters the accumulated context may hold. @default 60_000 */
  readonly maxContextChars?: number;
  /** Characters one result may hold. @default 20_000 */
  readonly maxResultChars?: number;
  /** One repair call for an invalid `ExplorationResponse`. @default true */
  readonly repair?: boolean;
  /** Which of the worker's adapters. @default the worker's `explorationAdapter`, else the first */
  readonly adapter?: string;
  /** Timeouts and retries of both activities. @default `defaultActivityOptions` */
  readonly activityOptions?: ActivityOptions;
}

/**
 * The context-request loop as a workflow: each round is a `callExplorationLlm` activity (the model
 * asks for context from the worker's `contextProviders`) and a `fulfillContextRequests` activity,
 * until the model asks for nothing or `maxRounds` is reached. Resolves to what `exploreContext`
 * resolves to. Export it from your workflows file and start it by name.
 *
 * @throws a non-retryable `ApplicationFailure` of type `InvalidArgumentError`, failing the
 * workflow, for a `maxRounds` that is not an integer >= 0.
 */
export async function exploreContextWorkflow(
  input: ExploreContextWorkflowInput = {},
): Promise<ExploreContextResult> {
  const maxRounds = input.maxRounds ?? 10;
  if (!Number.isInteger(maxRounds) || maxRounds < 0) {
    throw ApplicationFailure.nonRetryable(
      `Invalid maxRounds (${String(maxRounds)}): must be an integer >= 0 (0 disables exploration).`,
      'InvalidArgumentError',
    );
  }
  const activities = proxyActivities<TemporalActivities>(input.activityOptions ?? defaultActivityOptions);
  return runContextRounds(
    {
      initialContext: input.initialContext ?? '',
      maxRounds,
      targetFiles: input.includeDeps === true ? (input.targetFiles ?? []) : [],
      maxContextChars: input.maxContextChars ?? 60_000,
      maxResultChars: input.maxResultChars ?? 20_000,
    },
    {
      ask: async (context, round) => {
        const { response } = await activities.callExplorationLlm({
          task: input.task ?? defaultTask,
          context,
          round,
          maxRounds,
          ...(input.repair === undefined ? {} : { repair: input.repair }),
          ...(input.adapter === undefined ? {} : { adapter: input.adapter }),
        });
        return response.requests;
      },
      fulfill: (request) => activities.fulfillContextRequests(request),
    },
  );
}
