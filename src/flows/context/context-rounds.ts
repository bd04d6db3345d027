import { accumulateContext } from './accumulate-context.js';
import type { AccumulatedContext } from './accumulate-context.js';
import type { ContextRequest, FulfillContextInput } from './context-schemas.js';
import type { ExploreContextResult } from './explore-context.js';
import type { FulfillContextOutput } from './fulfill-context-requests.js';

/** The context-request loop's settings, defaults applied and checked. */
export interface ContextRoundsOptions {
  readonly initialContext: string;
  readonly maxRounds: number;
  /** The files whose `discover_context` result goes in up front; none for no such step. */
  readonly targetFiles: readonly string[];
  readonly maxContextChars: number;
  readonly maxResultChars: number;
}

/** The loop's two steps, as the caller runs them: in process (`exploreContext`) or as activities (`exploreContextWorkflow`). */
export interface ContextRoundSteps {
  /** Step 1: the model's requests in round `round`, given the context so far; none means ready. */
  ask(context: string, round: number): Promise<readonly ContextRequest[]>;
  /** Step 2: runs requests through their providers (`fulfillContextRequests`). */
  fulfill(input: FulfillContextInput): Promise<FulfillContextOutput>;
}

/**
 * Rounds of request-and-fulfil, shared by `exploreContext` and its Temporal workflow: the
 * `discover_context` result for the target files first (when there are any), then each round asks
 * the model and fulfils what it asked for, until it asks for nothing or `maxRounds` is reached.
 */
export async function runContextRounds(
  options: ContextRoundsOptions,
  steps: ContextRoundSteps,
): Promise<ExploreContextResult> {
  const { maxRounds, maxContextChars, maxResultChars } = options;
  let accumulated: AccumulatedContext = { text: options.initialContext, results: [] };
  let fulfilledKeys: string[] = [];
  const requests: ContextRequest[] = [];
  if (options.targetFiles.length > 0) {
    const discovered = await steps.fulfill({
      requests: [
        {
          provider: 'discover_context',
          params: { target_files: [...options.targetFiles] },
          reason: 'includeDeps',
        },
      ],
      maxResultChars: maxContextChars,
    });
    fulfilledKeys = discovered.fulfilledKeys;
    accumulated = accumulateContext(accumulated, discovered.results, maxContextChars);
  }
  let rounds = 0;
  let ready = maxRounds === 0;
  while (rounds < maxRounds) {
    rounds += 1;
    const asked = await steps.ask(accumulated.text, rounds);
    requests.push(...asked);
    if (asked.length === 0) {
      ready = true;
      break;
    }
    const fulfilled = await steps.fulfill({ requests: [...asked], fulfilledKeys, maxResultChars });
    fulfilledKeys = [...fulfilledKeys, ...fulfilled.fulfilledKeys];
    accumulated = accumulateContext(accumulated, fulfilled.results, maxContextChars);
  }
  return { context: accumulated.text, rounds, requests, results: accumulated.results, ready };
}
