import type { ZodType } from 'zod';
import { jsonSchemaOf } from '../shared/flow-schemas.js';
import type { ContextProviderSpec } from './context-schemas.js';

/** What a provider receives besides its parameters. */
export interface ContextProviderContext {
  /** Aborted when the loop is aborted. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * A source of context the model can ask for: `fulfill` turns validated parameters into text.
 * A thrown error becomes a `ContextResult` with `ok: false`; the loop goes on.
 */
export interface ContextProvider<Params = Record<string, unknown>> {
  readonly name: string;
  /** What it gives, written for the model. */
  readonly description: string;
  /** A zod schema of the parameters. */
  readonly parameters: ZodType<Params>;
  fulfill(params: Params, context: ContextProviderContext): Promise<string> | string;
}

/** Providers by name. Callers add their own next to the built-ins: `{ ...builtIns, my_provider }`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ContextProviderRegistry = { readonly [name: string]: ContextProvider<any> };

/**
 * Defines a provider with its parameter type inferred from the schema.
 *
 * @example
 * const tickets = defineContextProvider({
 *   name: 'ticket',
 *   description: 'The text of an issue-tracker ticket.',
 *   parameters: z.object({ id: z.string() }),
 *   fulfill: async ({ id }) => (await tracker.get(id)).body,
 * });
 */
export function defineContextProvider<Params>(provider: ContextProvider<Params>): ContextProvider<Params> {
  return provider;
}

/** The menu entries the model sees, one per provider, with each schema as JSON Schema. */
export function contextProviderSpecs(providers: ContextProviderRegistry): ContextProviderSpec[] {
  return Object.entries(providers).map(([name, provider]) => ({
    name,
    description: provider.description,
    parameters: jsonSchemaOf(provider.parameters) as Record<string, unknown>,
  }));
}
