import type { JsonSchema } from '../model/model-adapter.js';
import type { CallingRun } from './calling-run.js';
import { describeThrown } from '../errors/describe-value.js';
import { ToolDefinitionError } from '../errors/tool-definition-error.js';
import { compileSchema, isZodSchema } from './schema.js';
import type { CompiledSchema } from './schema.js';
import { checkToolAnnotations } from './tool-annotations.js';
import type { ToolAnnotations } from './tool-annotations.js';

/** What every tool receives besides its arguments. `Context` is the caller's own data. */
export type ToolExecutionContext<Context extends object = Record<string, unknown>> = Context & {
  /** The caller's request id from the `context` option, or one generated for the run. */
  readonly requestId: string;
  /** The run this call belongs to. */
  readonly runId: string;
  /** Zero-based index of the model turn that asked for this call. */
  readonly turnIndex: number;
  /** The id of this tool call (made unique within the turn). */
  readonly toolCallId: string;
  /** Aborted when the run is aborted or the tool's timeout passes. */
  readonly signal: AbortSignal;
  /** The run that made this call, for a tool that runs an agent of its own (see {@link CallingRun}). */
  readonly callingRun?: CallingRun;
};

/** Infers a tool's input type from a zod schema; a plain JSON Schema gives `any`. */
export type InferInput<Parameters> = Parameters extends { _output: infer Output }
  ? Output
  : Parameters extends { _zod: { output: infer Output } }
    ? Output
    : // eslint-disable-next-line @typescript-eslint/no-explicit-any
      any;

/** What `defineTool` takes. */
export interface ToolConfig<Parameters, Output, Context extends object = Record<string, unknown>> {
  /** The name the model calls the tool by: letters, digits, `_` and `-`, at most 64 characters. */
  readonly name: string;
  /** What the tool does, written for the model. */
  readonly description: string;
  /** A zod 3 or zod 4 schema, or a plain JSON Schema object (validated with `@cfworker/json-schema`). */
  readonly parameters: Parameters;
  /** Runs the tool. A thrown error becomes an `{"error": ...}` tool result the model can act on. */
  readonly execute: (
    input: InferInput<Parameters>,
    context: ToolExecutionContext<Context>,
  ) => Output | Promise<Output>;
  /** Milliseconds before the call is abandoned with a timeout result. @default the runner's `defaultTimeoutMs` */
  readonly timeoutMs?: number;
  /** Ask the provider for strict schema adherence (adapters convert the schema). @default false */
  readonly strict?: boolean;
  /**
   * Whether a call must wait for a person's yes before it runs: `true`, or a function of the
   * parsed arguments and the call's context, asked once per call. A run with such a call ends with
   * `stopReason: 'awaiting_approval'`; `orchestrator.resume(state, { approvals })` goes on.
   * @default false
   */
  readonly needsApproval?: NeedsApproval<InferInput<Parameters>, Context>;
  /**
   * What the tool does, as hints for hosts: `readOnlyHint`, `destructiveHint`, `idempotentHint`,
   * `openWorldHint` and a `title` (MCP's `ToolAnnotations`). Every MCP server built from the tool
   * (`createMcpServer`, `serveMcp`) publishes them. @default none (MCP then assumes a tool may
   * change and destroy things)
   */
  readonly annotations?: ToolAnnotations;
}

/** `defineTool`'s `needsApproval`: always, never, or decided per call. */
export type NeedsApproval<Input = unknown, Context extends object = Record<string, unknown>> =
  boolean | ((input: Input, context: ToolExecutionContext<Context>) => boolean | Promise<boolean>);

/** A tool ready for a registry: the config plus its compiled schema. */
export interface Tool<Input = unknown, Output = unknown, Context extends object = Record<string, unknown>> {
  readonly name: string;
  readonly description: string;
  readonly parameters: unknown;
  /** The JSON Schema the model sees. */
  readonly inputSchema: JsonSchema;
  readonly timeoutMs?: number;
  readonly strict?: boolean;
  /** Whether a call waits for a person's decision before it runs (see `ToolConfig.needsApproval`). */
  readonly needsApproval?: NeedsApproval<Input, Context>;
  /** Hints about what the tool does (see `ToolConfig.annotations`), frozen. */
  readonly annotations?: ToolAnnotations;
  /** @internal compiled validator */
  readonly schema: CompiledSchema<Input>;
  readonly execute: (input: Input, context: ToolExecutionContext<Context>) => Output | Promise<Output>;
}

/** Maps tool names to tools. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ToolRegistry = { readonly [name: string]: Tool<any, any, any> };

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Defines a tool: validates the config and compiles its schema once, up front.
 *
 * @throws {ToolDefinitionError} when the name, description, execute, schema or annotations are unusable.
 * @example
 * const add = defineTool({
 *   name: 'add',
 *   description: 'Add two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 */
export function defineTool<Parameters, Output, Context extends object = Record<string, unknown>>(
  config: ToolConfig<Parameters, Output, Context>,
): Tool<InferInput<Parameters>, Output, Context> {
  const name = typeof config?.name === 'string' ? config.name : String(config?.name);
  if (!toolNamePattern.test(name)) {
    throw new ToolDefinitionError({
      toolName: name,
      message:
        'the name must be 1-64 characters of letters, digits, "_" or "-" (what OpenAI-style APIs accept).',
    });
  }
  if (typeof config.description !== 'string') {
    throw new ToolDefinitionError({
      toolName: name,
      message: 'description must be a string that tells the model what the tool does.',
    });
  }
  if (typeof config.execute !== 'function') {
    throw new ToolDefinitionError({
      toolName: name,
      message: 'execute must be a function (input, context) => result.',
    });
  }
  const parameters = config.parameters as unknown;
  if (
    !isZodSchema(parameters) &&
    (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters))
  ) {
    throw new ToolDefinitionError({
      toolName: name,
      message: `parameters must be a zod schema or a JSON Schema object; got ${parameters === null ? 'null' : typeof parameters}.`,
    });
  }
  if (config.timeoutMs !== undefined && !(Number.isFinite(config.timeoutMs) && config.timeoutMs > 0)) {
    throw new ToolDefinitionError({
      toolName: name,
      message: `timeoutMs must be a positive number of milliseconds; got ${String(config.timeoutMs)}.`,
    });
  }
  const needsApproval = config.needsApproval as unknown;
  if (
    needsApproval !== undefined &&
    typeof needsApproval !== 'boolean' &&
    typeof needsApproval !== 'function'
  ) {
    throw new ToolDefinitionError({
      toolName: name,
      message: `needsApproval must be true, false or a function (input, context) => boolean; got ${needsApproval === null ? 'null' : typeof needsApproval}.`,
    });
  }
  const annotations =
    config.annotations === undefined ? undefined : checkToolAnnotations(name, config.annotations);
  let schema: CompiledSchema<InferInput<Parameters>>;
  try {
    schema = compileSchema(parameters);
  } catch (error) {
    throw new ToolDefinitionError({
      toolName: name,
      message: `its parameters schema could not be compiled: ${describeThrown(error)}`,
      cause: error,
    });
  }
  return {
    name,
    description: config.description,
    parameters,
    inputSchema: schema.jsonSchema,
    ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
    ...(config.strict === undefined ? {} : { strict: config.strict }),
    ...(config.needsApproval === undefined ? {} : { needsApproval: config.needsApproval }),
    ...(annotations === undefined ? {} : { annotations }),
    schema,
    execute: config.execute,
  };
}
