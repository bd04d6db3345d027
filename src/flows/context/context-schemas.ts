import { z } from 'zod';

// The exported schemas are declared as `z.ZodType<...>` of the types below, not inferred: an
// inferred zod 4 type names zod 4 internals, which an app on zod 3.25 cannot type-check. Both
// zod versions read `z.ZodType<Output>` alike.

/** What the model sees of one context provider: its name, what it gives, and a JSON Schema of its parameters. */
export interface ContextProviderSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One request of the model for more context. */
export interface ContextRequest {
  /** The provider name, from the menu. */
  provider: string;
  /** The provider's parameters. */
  params: Record<string, unknown>;
  /** Why this context is needed. */
  reason: string;
}

/** The model's answer in one round: what it wants next. An empty `requests` list means it is ready. */
export interface ExplorationResponse {
  requests: ContextRequest[];
}

interface ContextResultBase {
  provider: string;
  params: Record<string, unknown>;
  /** True when the content was cut (by the provider's cap or the context budget). */
  truncated: boolean;
}

/** What fulfilling one request produced: `content` when `ok`, else an `error` for the model. */
export type ContextResult =
  (ContextResultBase & { ok: true; content: string }) | (ContextResultBase & { ok: false; error: string });

/** The serialisable input of {@link fulfillContextRequests}: a {@link FulfillContextInput} with its defaults. */
interface ParsedFulfillContextInput {
  requests: ContextRequest[];
  fulfilledKeys: string[];
  maxResultChars: number;
}

/** The serialisable input of {@link fulfillContextRequests}. */
export interface FulfillContextInput {
  /** The requests; `params` defaults to `{}`. */
  requests: (Omit<ContextRequest, 'params'> & { params?: Record<string, unknown> | undefined })[];
  /** Keys (see `contextRequestKey`) of requests already fulfilled in earlier rounds; they are skipped. @default [] */
  fulfilledKeys?: string[] | undefined;
  /** Characters one result may hold before it is cut and marked truncated. @default 20000 */
  maxResultChars?: number | undefined;
}

/** The serialisable input of {@link callExplorationLlm}, with its defaults. */
interface ParsedExplorationInput {
  task: string;
  context: string;
  providers: ContextProviderSpec[];
  round: number;
  maxRounds: number;
  structuredOutput: 'json_schema' | 'json_object' | 'none';
  repair: boolean;
}

/** The serialisable input of {@link callExplorationLlm}. */
export interface ExplorationInput {
  /** What the context is for. */
  task: string;
  /** The context accumulated so far, as text. */
  context: string;
  providers: ContextProviderSpec[];
  /** One-based round number, shown to the model. */
  round: number;
  /** The round limit, shown to the model. */
  maxRounds: number;
  /**
   * @deprecated Ignored: the answer is the call's typed `output`, native structured output when
   * the adapter has it, else the `ExplorationResponse` tool. Still accepted, so stored inputs parse.
   */
  structuredOutput?: 'json_schema' | 'json_object' | 'none' | undefined;
  /** One repair call for an answer that misses the schema. @default true */
  repair?: boolean | undefined;
}

/** Parameters of a request: a JSON object the provider validates. */
const ParamsSchema = z.record(z.string(), z.unknown());

/** @see {@link ContextProviderSpec} */
export const ContextProviderSpec: z.ZodType<ContextProviderSpec> = z.object({
  name: z.string(),
  description: z.string(),
  parameters: ParamsSchema,
});

/** @see {@link ContextRequest} */
export const ContextRequest: z.ZodType<ContextRequest> = z.object({
  provider: z.string().describe('The provider name, from the menu.'),
  params: ParamsSchema.default({}).describe("The provider's parameters."),
  reason: z.string().describe('Why this context is needed.'),
});

/** @see {@link ExplorationResponse} */
export const ExplorationResponse: z.ZodType<ExplorationResponse> = z.object({
  requests: z.array(ContextRequest),
});

const resultBase = {
  provider: z.string(),
  params: ParamsSchema,
  truncated: z.boolean(),
};

/** @see {@link ContextResult} */
export const ContextResult: z.ZodType<ContextResult> = z.discriminatedUnion('ok', [
  z.object({ ...resultBase, ok: z.literal(true), content: z.string() }),
  z.object({ ...resultBase, ok: z.literal(false), error: z.string() }),
]);

/** Parses a {@link FulfillContextInput}, filling in its defaults. */
export const FulfillContextInput: z.ZodType<ParsedFulfillContextInput> = z.object({
  requests: z.array(ContextRequest),
  fulfilledKeys: z.array(z.string()).default([]),
  maxResultChars: z.number().int().positive().default(20_000),
});

/** Parses an {@link ExplorationInput}, filling in its defaults. */
export const ExplorationInput: z.ZodType<ParsedExplorationInput> = z.object({
  task: z.string(),
  context: z.string(),
  providers: z.array(ContextProviderSpec),
  round: z.number().int().min(1),
  maxRounds: z.number().int().min(1),
  structuredOutput: z.enum(['json_schema', 'json_object', 'none']).default('json_object'),
  repair: z.boolean().default(true),
});

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
