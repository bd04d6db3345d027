import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { ModelAdapter } from '../../model/model-adapter.js';
import type { StructuredOutputMode } from '../shared/structured-output-mode.js';
import { callExplorationLlm } from './call-exploration-llm.js';
import type { ContextProviderRegistry } from './context-provider.js';
import { contextProviderSpecs } from './context-provider.js';
import type { ContextRequest, ContextResult } from './context-schemas.js';
import { runContextRounds } from './context-rounds.js';
import { fulfillContextRequests } from './fulfill-context-requests.js';

const defaultTask = 'Gather the context needed for the work described in the context below.';

/** Options of {@link exploreContext}. */
export interface ExploreContextOptions {
  readonly adapter: ModelAdapter;
  /** The providers the model may ask, e.g. `createContextProviders({ root })` plus your own. */
  readonly providers: ContextProviderRegistry;
  /** What the context is for, as the model should read it. @default a request to gather what `initialContext` describes */
  readonly task?: string;
  /** Context known up front (a ticket, a diff). @default '' */
  readonly initialContext?: string;
  /** Rounds of request-and-fulfil; 0 disables exploration. @default 10 */
  readonly maxRounds?: number;
  /** Put the `discover_context` result for `targetFiles` (targets, their imports and importers) in up front. @default false */
  readonly includeDeps?: boolean;
  /** The files the task is about, for `includeDeps`. */
  readonly targetFiles?: readonly string[];
  /** Characters the accumulated context may hold; results past it are cut and marked. @default 60_000 */
  readonly maxContextChars?: number;
  /** Characters one result may hold. @default 20_000 */
  readonly maxResultChars?: number;
  /**
   * @deprecated Ignored: each round's answer is the call's typed `output`, native structured
   * output when the adapter has it, else the `ExplorationResponse` tool.
   */
  readonly structuredOutput?: StructuredOutputMode;
  /** One repair call for an invalid `ExplorationResponse`. @default true */
  readonly repair?: boolean;
  readonly signal?: AbortSignal;
}

/** What {@link exploreContext} resolves to. */
export interface ExploreContextResult {
  /** The accumulated context text: the initial context, then every result under a header. */
  readonly context: string;
  /** Rounds in which the model was called. */
  readonly rounds: number;
  /** Every request the model made, repeats included, in order. */
  readonly requests: ContextRequest[];
  /** Every result, in order; budget cuts are marked `truncated`. */
  readonly results: ContextResult[];
  /** True when the model said it was ready (an empty `requests`), false when rounds ran out. */
  readonly ready: boolean;
}

/**
 * The context-request loop: each round the model sees the context and the provider menu and
 * asks for more (`callExplorationLlm`), the requests are fulfilled (`fulfillContextRequests`)
 * and the results accumulated, until it asks for nothing or `maxRounds` is reached. The same
 * two functions can run as workflow activities, with this loop as the workflow.
 *
 * @throws {StructuredOutputError} when the model's answer stays invalid after the repair call.
 */
export async function exploreContext(options: ExploreContextOptions): Promise<ExploreContextResult> {
  const maxRounds = options.maxRounds ?? 10;
  if (!Number.isInteger(maxRounds) || maxRounds < 0) {
    throw new InvalidArgumentError({
      argument: 'maxRounds',
      value: maxRounds,
      message: 'must be an integer >= 0 (0 disables exploration).',
    });
  }
  const dependencies = {
    providers: options.providers,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  const providers = contextProviderSpecs(options.providers);
  return runContextRounds(
    {
      initialContext: options.initialContext ?? '',
      maxRounds,
      targetFiles: options.includeDeps === true ? (options.targetFiles ?? []) : [],
      maxContextChars: options.maxContextChars ?? 60_000,
      maxResultChars: options.maxResultChars ?? 20_000,
    },
    {
      ask: async (context, round) => {
        const { response } = await callExplorationLlm(
          {
            task: options.task ?? defaultTask,
            context,
            providers,
            round,
            maxRounds,
            ...(options.structuredOutput === undefined ? {} : { structuredOutput: options.structuredOutput }),
            ...(options.repair === undefined ? {} : { repair: options.repair }),
          },
          { adapter: options.adapter, ...(options.signal === undefined ? {} : { signal: options.signal }) },
        );
        return response.requests;
      },
      fulfill: (input) => fulfillContextRequests(input, dependencies),
    },
  );
}
