import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type {
  JsonSchema,
  ModelAdapter,
  ModelToolDefinition,
  ResponseFormat,
} from '../../model/model-adapter.js';
import type { ToolRegistry } from '../../tools/define-tool.js';
import { compileSchema, isZodSchema } from '../../tools/schema.js';
import type { ValidationOutcome } from '../../tools/schema.js';

/**
 * A typed final output with its settings: the schema, and how the model is asked for it.
 *
 * @example
 * const orchestrator = new ToolOrchestrator(adapter, tools, {
 *   output: { schema: z.object({ city: z.string(), celsius: z.number() }), name: 'weather' },
 * });
 */
export interface OutputOptions<Schema = unknown> {
  /** A zod 3 or zod 4 schema, or a JSON Schema object (validated with `@cfworker/json-schema`). */
  readonly schema: Schema;
  /**
   * The output's name: the name of the native format, or of the final-answer tool. Letters,
   * digits, `_` and `-`, at most 64 characters; not a tool of the registry. @default 'final_answer'
   */
  readonly name?: string;
  /** What the output is, for the model. @default 'The final answer, as the schema describes it.' */
  readonly description?: string;
  /** Asks for strict schema adherence where the provider offers it (see `ResponseFormat.strict`). @default false */
  readonly strict?: boolean;
  /**
   * `'native'`: the provider's structured output (`ModelCallOptions.responseFormat`); `'tool'`: a
   * final-answer tool the model calls with the output as its arguments; `'auto'`: native when the
   * adapter's `supportsResponseFormat` is true, else the tool. @default 'auto'
   */
  readonly mode?: 'auto' | 'native' | 'tool';
  /**
   * One repair call when an answer misses the schema, showing the model what is wrong. `false`:
   * the first answer that misses it throws `StructuredOutputError` (in tool mode, an answer in
   * text that is not the output counts as one). @default true
   */
  readonly repair?: boolean;
}

/** The `output` option: a schema, or {@link OutputOptions}. */
export type OutputOption<Schema = unknown> = Schema | OutputOptions<Schema>;

/** The type of a schema's values: a zod schema's output type; `unknown` for a JSON Schema. */
export type InferSchema<Schema> = Schema extends { readonly _zod: { readonly output: infer Output } }
  ? Output
  : Schema extends { readonly _output: infer Output }
    ? Output
    : unknown;

/** The type of `result.output` for an output schema (`unknown` without one: `output` is then absent). */
export type OutputOf<Schema> = [Schema] extends [undefined] ? unknown : InferSchema<Schema>;

/** An `output` option resolved for a run. */
export interface ResolvedOutput {
  readonly mode: 'native' | 'tool';
  readonly name: string;
  /** The format sent with every model call in native mode. */
  readonly responseFormat: ResponseFormat;
  /** The final-answer tool the model sees in tool mode. */
  readonly tool: ModelToolDefinition;
  /** True when the schema is not an object schema: the model answers `{ "value": ... }`, unwrapped here. */
  readonly wrapped: boolean;
  /** Whether an answer that misses the schema gets one repair call. */
  readonly repair: boolean;
  validate(value: unknown): ValidationOutcome<unknown>;
}

const defaultName = 'final_answer';
const defaultDescription = 'The final answer, as the schema describes it.';
const namePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Resolves an `output` option for an adapter and a registry, or `undefined` when there is none.
 *
 * @throws {InvalidArgumentError} for a value that is neither a schema nor output options, a bad
 * `name`, `mode`, `strict` or `repair`, a name a tool already has, or `mode: 'native'` with an adapter
 * without native structured output.
 */
export function resolveOutput(
  argument: string,
  option: unknown,
  adapter: ModelAdapter,
  registry: ToolRegistry,
): ResolvedOutput | undefined {
  if (option === undefined) return undefined;
  const settings = outputSettings(argument, option);
  const compiled = compileOutputSchema(`${argument}${settings === option ? '.schema' : ''}`, settings.schema);
  const name = settings.name ?? defaultName;
  if (typeof name !== 'string' || !namePattern.test(name)) {
    throw new InvalidArgumentError({
      argument: `${argument}.name`,
      value: name,
      message: 'must be letters, digits, _ and -, at most 64 characters.',
    });
  }
  const mode = settings.mode ?? 'auto';
  if (mode !== 'auto' && mode !== 'native' && mode !== 'tool') {
    throw new InvalidArgumentError({
      argument: `${argument}.mode`,
      value: mode,
      message: "must be 'auto', 'native' or 'tool'.",
    });
  }
  if (settings.strict !== undefined && typeof settings.strict !== 'boolean') {
    throw new InvalidArgumentError({
      argument: `${argument}.strict`,
      value: settings.strict,
      message: 'must be a boolean.',
    });
  }
  if (settings.repair !== undefined && typeof settings.repair !== 'boolean') {
    throw new InvalidArgumentError({
      argument: `${argument}.repair`,
      value: settings.repair,
      message: 'must be a boolean.',
    });
  }
  const native = adapter.supportsResponseFormat === true;
  if (mode === 'native' && !native) {
    throw new InvalidArgumentError({
      argument: `${argument}.mode`,
      value: mode,
      message: `asks for native structured output, which the adapter (${adapter.provider ?? 'custom'}) does not offer (its supportsResponseFormat is not true). Use mode 'auto' or 'tool'.`,
    });
  }
  const resolvedMode = mode === 'tool' || !native ? 'tool' : 'native';
  if (resolvedMode === 'tool' && Object.hasOwn(registry, name)) {
    throw new InvalidArgumentError({
      argument: `${argument}.name`,
      value: name,
      message:
        'is the name of a tool of the registry; the final-answer tool needs a name of its own. Set output.name.',
    });
  }
  const description = settings.description ?? defaultDescription;
  const wrapped = compiled.jsonSchema['type'] !== 'object';
  const schema: JsonSchema = wrapped
    ? { type: 'object', properties: { value: compiled.jsonSchema }, required: ['value'] }
    : compiled.jsonSchema;
  const strict = settings.strict ?? false;
  return {
    mode: resolvedMode,
    name,
    responseFormat: { type: 'json_schema', name, description, schema, strict },
    tool: { type: 'function', function: { name, description, parameters: schema, strict } },
    wrapped,
    repair: settings.repair ?? true,
    validate: (value) => compiled.validate(value),
  };
}

/** The option as output options: a schema given alone becomes `{ schema }`. */
function outputSettings(argument: string, option: unknown): OutputOptions {
  if (isZodSchema(option)) return { schema: option };
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw new InvalidArgumentError({
      argument,
      value: option,
      message:
        'must be a zod schema, a JSON Schema object, or { schema, name?, description?, strict?, mode?, repair? }.',
    });
  }
  return 'schema' in option ? (option as OutputOptions) : { schema: option };
}

function compileOutputSchema(argument: string, schema: unknown): ReturnType<typeof compileSchema<unknown>> {
  if (!isZodSchema(schema) && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) {
    throw new InvalidArgumentError({
      argument,
      value: schema,
      message: 'must be a zod schema or a JSON Schema object.',
    });
  }
  return compileSchema<unknown>(schema);
}
