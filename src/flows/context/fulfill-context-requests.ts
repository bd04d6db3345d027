import { describeThrown } from '../../errors/describe-value.js';
import { issueText } from '../../tools/schema.js';
import { validateWith } from '../shared/flow-schemas.js';
import type { ContextProviderRegistry } from './context-provider.js';
import { FulfillContextInput, contextRequestKey } from './context-schemas.js';
import type { ContextRequest, ContextResult } from './context-schemas.js';

/** What {@link fulfillContextRequests} needs besides its serialisable input. */
export interface FulfillContextDependencies {
  readonly providers: ContextProviderRegistry;
  readonly signal?: AbortSignal;
}

/** The serialisable output of {@link fulfillContextRequests}. */
export interface FulfillContextOutput {
  /** One result per new request, in request order. */
  readonly results: ContextResult[];
  /** Keys of the requests fulfilled now; add them to `fulfilledKeys` next round. */
  readonly fulfilledKeys: string[];
  /** Requests skipped as repeats of earlier (or same-round) ones. */
  readonly duplicates: ContextRequest[];
}

/**
 * One round, step 2: runs each request through its provider. An unknown provider, bad
 * params or a failing provider becomes a result with `ok: false` and an error the model can
 * act on; nothing throws for the model's fault. Repeated requests are skipped.
 */
export async function fulfillContextRequests(
  input: FulfillContextInput,
  dependencies: FulfillContextDependencies,
): Promise<FulfillContextOutput> {
  const parsed = FulfillContextInput.parse(input);
  const seen = new Set(parsed.fulfilledKeys);
  const results: ContextResult[] = [];
  const fulfilledKeys: string[] = [];
  const duplicates: ContextRequest[] = [];
  for (const request of parsed.requests) {
    const key = contextRequestKey(request);
    if (seen.has(key)) {
      duplicates.push(request);
      continue;
    }
    seen.add(key);
    fulfilledKeys.push(key);
    results.push(await fulfillOne(request, dependencies, parsed.maxResultChars));
  }
  return { results, fulfilledKeys, duplicates };
}

async function fulfillOne(
  request: ContextRequest,
  dependencies: FulfillContextDependencies,
  maxResultChars: number,
): Promise<ContextResult> {
  const { provider: name, params } = request;
  const fail = (error: string): ContextResult => ({
    provider: name,
    params,
    ok: false,
    error,
    truncated: false,
  });
  const provider = Object.hasOwn(dependencies.providers, name) ? dependencies.providers[name] : undefined;
  if (provider === undefined) {
    return fail(
      `Unknown provider "${name}". Available providers: ${Object.keys(dependencies.providers).join(', ') || '(none)'}.`,
    );
  }
  const validated = validateWith(provider.parameters, params);
  if (!validated.ok)
    return fail(
      `Invalid params for "${name}": ${validated.issues.map(issueText).join('; ')}. Fix them to match its schema.`,
    );
  try {
    dependencies.signal?.throwIfAborted();
    const content = await provider.fulfill(validated.value, { signal: dependencies.signal });
    if (content.length <= maxResultChars)
      return { provider: name, params, ok: true, content, truncated: false };
    const cut = `${content.slice(0, maxResultChars)}\n[truncated: ${content.length - maxResultChars} more characters; ask for a narrower range]`;
    return { provider: name, params, ok: true, content: cut, truncated: true };
  } catch (error) {
    return fail(`Provider "${name}" failed: ${describeThrown(error)}`);
  }
}
