import { z } from 'zod';

/** Parameters of a request: a JSON object the provider validates. */
const ParamsSchema = z.record(z.string(), z.unknown());

/** What the model sees of one context provider: its name, what it gives, and a JSON Schema of its parameters. */
export const ContextProviderSpec = z.object({
  name: z.string(),
  description: z.string(),
  parameters: ParamsSchema,
});
/** @see {@link ContextProviderSpec} */
export type ContextProviderSpec = z.infer<typeof ContextProviderSpec>;

/** One request of the model for more context. */
export const ContextRequest = z.object({
  provider: z.string().describe('The provider name, from the menu.'),
  params: ParamsSchema.default({}).describe("The provider's parameters."),
  reason: z.string().describe('Why this context is needed.'),
});
/** @see {@link ContextRequest} */
export type ContextRequest = z.infer<typeof ContextRequest>;

/** The model's answer in one round: what it wants next. An empty `requests` list means it is ready. */
export const ExplorationResponse = z.object({ requests: z.array(ContextRequest) });
/** @see {@link ExplorationResponse} */
export type ExplorationResponse = z.infer<typeof ExplorationResponse>;

const resultBase = {
  provider: z.string(),
  params: ParamsSchema,
  /** True when the content was cut (by the provider's cap or the context budget). */
  truncated: z.boolean(),
};

/** What fulfilling one request produced: `content` when `ok`, else an `error` for the model. */
export const ContextResult = z.discriminatedUnion('ok', [
  z.object({ ...resultBase, ok: z.literal(true), content: z.string() }),
  z.object({ ...resultBase, ok: z.literal(false), error: z.string() }),
]);
/** @see {@link ContextResult} */
export type ContextResult = z.infer<typeof ContextResult>;

/** The serialisable input of {@link fulfillContextRequests}. */
export const FulfillContextInput = z.object({
  requests: z.array(ContextRequest),
  /** Keys (see `contextRequestKey`) of requests already fulfilled in earlier rounds; they are skipped. */
  fulfilledKeys: z.array(z.string()).default([]),
  /** Characters one result may hold before it is cut and marked truncated. */
  maxResultChars: z.number().int().positive().default(20_000),
});
/** @see {@link FulfillContextInput} */
export type FulfillContextInput = z.input<typeof FulfillContextInput>;

/** The serialisable input of {@link callExplorationLlm}. */
export const ExplorationInput = z.object({
  /** What the context is for. */
  task: z.string(),
  /** The context accumulated so far, as text. */
  context: z.string(),
  providers: z.array(ContextProviderSpec),
  /** One-based round number, and the limit, shown to the model. */
  round: z.number().int().min(1),
  maxRounds: z.number().int().min(1),
  structuredOutput: z.enum(['json_schema', 'json_object', 'none']).default('json_object'),
  repair: z.boolean().default(true),
});
/** @see {@link ExplorationInput} */
export type ExplorationInput = z.input<typeof ExplorationInput>;

/** A stable key of a request (provider plus params, keys sorted), used to de-duplicate across rounds. */
export function contextRequestKey(request: Pick<ContextRequest, 'provider' | 'params'>): string {
  return `${request.provider}:${stableStringify(request.params)}`;
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, entry]) => entry !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${stableStringify(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
