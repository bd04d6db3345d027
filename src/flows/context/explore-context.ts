import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { ModelAdapter } from '../../model/model-adapter.js';
import type { StructuredOutputMode } from '../shared/structured-output-mode.js';
import { accumulateContext } from './accumulate-context.js';
import type { AccumulatedContext } from './accumulate-context.js';
import { callExplorationLlm } from './call-exploration-llm.js';
import type { ContextProviderRegistry } from './context-provider.js';
import { contextProviderSpecs } from './context-provider.js';
import type { ContextRequest, ContextResult } from './context-schemas.js';
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
  const maxContextChars = options.maxContextChars ?? 60_000;
  const dependencies = {
    providers: options.providers,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  const maxResultChars = options.maxResultChars ?? 20_000;
  let accumulated: AccumulatedContext = { text: options.initialContext ?? '', results: [] };
  let fulfilledKeys: string[] = [];
  const requests: ContextRequest[] = [];
  if (options.includeDeps === true && (options.targetFiles?.length ?? 0) > 0) {
    const discovered = await fulfillContextRequests(
      {
        requests: [
          {
            provider: 'discover_context',
            params: { target_files: [...(options.targetFiles ?? [])] },
            reason: 'includeDeps',
          },
        ],
        maxResultChars: maxContextChars,
      },
      dependencies,
    );
    fulfilledKeys = discovered.fulfilledKeys;
    accumulated = accumulateContext(accumulated, discovered.results, maxContextChars);
  }
  const providers = contextProviderSpecs(options.providers);
  let rounds = 0;
  let ready = maxRounds === 0;
  while (rounds < maxRounds) {
    rounds += 1;
    const { response } = await callExplorationLlm(
      {
        task: options.task ?? defaultTask,
        context: accumulated.text,
        providers,
        round: rounds,
        maxRounds,
        ...(options.structuredOutput === undefined ? {} : { structuredOutput: options.structuredOutput }),
        ...(options.repair === undefined ? {} : { repair: options.repair }),
      },
      { adapter: options.adapter, ...(options.signal === undefined ? {} : { signal: options.signal }) },
    );
    requests.push(...response.requests);
    if (response.requests.length === 0) {
      ready = true;
      break;
    }
    const fulfilled = await fulfillContextRequests(
      { requests: response.requests, fulfilledKeys, maxResultChars },
      dependencies,
    );
    fulfilledKeys = [...fulfilledKeys, ...fulfilled.fulfilledKeys];
    accumulated = accumulateContext(accumulated, fulfilled.results, maxContextChars);
  }
  return { context: accumulated.text, rounds, requests, results: accumulated.results, ready };
}
