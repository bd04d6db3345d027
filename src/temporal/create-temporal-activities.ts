import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { callExplorationLlm } from '../flows/context/call-exploration-llm.js';
import { contextProviderSpecs } from '../flows/context/context-provider.js';
import type { ContextProviderRegistry } from '../flows/context/context-provider.js';
import { fulfillContextRequests } from '../flows/context/fulfill-context-requests.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import type { Tool, ToolRegistry } from '../tools/define-tool.js';
import { ToolRunner } from '../tools/tool-runner.js';
import type { TraceEmitter } from '../tracing/trace-events.js';
import { activityFailureOf } from './activity-failure.js';
import type {
  AdapterDescription,
  TemporalActivities,
  ToolCallContext,
  ToolDescription,
} from './activity-types.js';
import { withHeartbeats } from './with-heartbeats.js';

/** Options of {@link createTemporalActivities}. */
export interface TemporalActivitiesOptions {
  /**
   * The model adapters the workflows may call, by a name the workflow picks them with (the first
   * one is the default). Their own retries add to the activity's: consider `maxRetries: 0` on the
   * client and a retry policy on the activity.
   */
  readonly adapters: { readonly [name: string]: ModelAdapter };
  /** The tools `callTool` runs; their definitions reach the workflow through `describeAgent`. @default none */
  readonly tools?: ToolRegistry;
  /** The providers `fulfillContextRequests` asks, e.g. `createContextProviders({ root })`. @default none */
  readonly contextProviders?: ContextProviderRegistry;
  /** The adapter `callExplorationLlm` uses when its input names none. @default the first adapter */
  readonly explorationAdapter?: string;
  /** Receives the trace of each `callExplorationLlm` call (a run of its own). @default none */
  readonly traceEmitter?: TraceEmitter;
  /** Milliseconds before a tool call without its own `timeoutMs` times out. @default no timeout */
  readonly toolTimeoutMs?: number;
  /** Tool message content longer than this is cut with a marker, as the loop's runner does. @default 100_000 */
  readonly maxToolResultChars?: number;
  /** Milliseconds between heartbeats. @default a third of the activity's heartbeat timeout, else 5000 */
  readonly heartbeatIntervalMs?: number;
}

/**
 * The loop's model and tool calls, and the context-request loop's two steps, as Temporal
 * activities: plain functions whose inputs and outputs are plain JSON. Each heartbeats while it
 * runs, takes the activity's cancellation as its `AbortSignal`, and fails with a non-retryable
 * `ApplicationFailure` for errors the same input would repeat (a provider's retryable errors stay
 * retryable). Register them on a worker; the workflow side (`tool-orchestrator/temporal/workflow`)
 * calls them.
 *
 * @throws {InvalidArgumentError} when `adapters` is empty or holds something that is not an adapter.
 * @example
 * const worker = await Worker.create({
 *   workflowsPath: require.resolve('./workflows'),
 *   activities: createTemporalActivities({ adapters: { openai: new OpenAIAdapter({ model: 'gpt-4o' }) }, tools: { add } }),
 *   taskQueue: 'agents',
 * });
 */
export function createTemporalActivities(options: TemporalActivitiesOptions): TemporalActivities {
  const adapters = checkAdapters(options.adapters);
  const tools: ToolRegistry = options.tools ?? {};
  const runner = new ToolRunner(tools, {
    ...(options.toolTimeoutMs === undefined ? {} : { defaultTimeoutMs: options.toolTimeoutMs }),
    ...(options.maxToolResultChars === undefined ? {} : { maxResultChars: options.maxToolResultChars }),
  });
  const interval = options.heartbeatIntervalMs;
  const adapterNamed = (name: string | undefined): [string, ModelAdapter] => {
    const key = name ?? Object.keys(adapters)[0]!;
    const adapter = Object.hasOwn(adapters, key) ? adapters[key] : undefined;
    if (adapter === undefined) {
      throw new InvalidArgumentError({
        argument: 'adapter',
        value: name,
        message: `names no adapter of createTemporalActivities; pass one of: ${Object.keys(adapters).join(', ')}.`,
      });
    }
    return [key, adapter];
  };
  // Every activity heartbeats and maps its failure the same way.
  const activity = <Result>(work: (signal: AbortSignal) => Promise<Result>): Promise<Result> =>
    withHeartbeats(async (signal) => {
      try {
        const result = await work(signal);
        signal.throwIfAborted();
        return result;
      } catch (error) {
        throw activityFailureOf(error, signal);
      }
    }, interval);

  return {
    describeAgent: (input = {}) =>
      activity(async () => {
        const [name, adapter] = adapterNamed(input.adapter);
        return { adapter: describeAdapter(name, adapter), tools: Object.values(tools).map(describeTool) };
      }),
    callModel: (input) =>
      activity(async (signal) => {
        const [, adapter] = adapterNamed(input.adapter);
        return adapter.call(input.messages, input.tools, {
          signal,
          ...(input.toolChoice === undefined ? {} : { toolChoice: input.toolChoice }),
          ...(input.responseFormat === undefined ? {} : { responseFormat: input.responseFormat }),
        });
      }),
    callTool: (input) =>
      activity(async (signal) => {
        const [outcome] = await runner.executeToolCalls(tools, [input.toolCall], {
          ...toolContextOf(input),
          signal,
        });
        return outcome!;
      }),
    toolNeedsApproval: (input) =>
      activity(async (signal) => {
        const tool = Object.hasOwn(tools, input.toolName) ? tools[input.toolName] : undefined;
        const needsApproval = tool?.needsApproval;
        if (typeof needsApproval !== 'function') return needsApproval === true;
        return needsApproval(input.input, {
          ...toolContextOf(input),
          toolCallId: input.toolCallId,
          signal,
        });
      }),
    callExplorationLlm: (input) =>
      activity(async (signal) => {
        const { adapter: adapterName, parentRunId, providers, ...rest } = input;
        const [, adapter] = adapterNamed(adapterName ?? options.explorationAdapter);
        return callExplorationLlm(
          { ...rest, providers: providers ?? contextProviderSpecs(options.contextProviders ?? {}) },
          {
            adapter,
            signal,
            ...(options.traceEmitter === undefined ? {} : { traceEmitter: options.traceEmitter }),
            ...(parentRunId === undefined ? {} : { parentRunId }),
          },
        );
      }),
    fulfillContextRequests: (input) =>
      activity(async (signal) => {
        if (options.contextProviders === undefined) {
          throw new InvalidArgumentError({
            argument: 'contextProviders',
            value: undefined,
            message:
              'fulfillContextRequests needs providers: pass createTemporalActivities({ contextProviders: createContextProviders({ root }) }).',
          });
        }
        return fulfillContextRequests(input, { providers: options.contextProviders, signal });
      }),
  };
}

function checkAdapters(adapters: unknown): { readonly [name: string]: ModelAdapter } {
  const entries = typeof adapters === 'object' && adapters !== null ? Object.entries(adapters) : [];
  const bad = entries.find(([, adapter]) => typeof (adapter as Partial<ModelAdapter>)?.call !== 'function');
  if (entries.length === 0 || bad !== undefined) {
    throw new InvalidArgumentError({
      argument: bad === undefined ? 'adapters' : `adapters.${bad[0]}`,
      value: bad === undefined ? adapters : bad[1],
      message: 'must be an object of model adapters by name, e.g. { openai: new OpenAIAdapter({ model }) }.',
    });
  }
  return adapters as { readonly [name: string]: ModelAdapter };
}

/** The tool's context as the loop gives it: the caller's data, then the run's ids over it. */
function toolContextOf(input: ToolCallContext): Record<string, unknown> & {
  runId: string;
  requestId: string;
  turnIndex: number;
} {
  return { ...input.context, runId: input.runId, requestId: input.requestId, turnIndex: input.turnIndex };
}

function describeAdapter(name: string, adapter: ModelAdapter): AdapterDescription {
  return {
    name,
    ...(adapter.provider === undefined ? {} : { provider: adapter.provider }),
    ...(adapter.model === undefined ? {} : { model: adapter.model }),
    ...(adapter.contextWindowTokens === undefined
      ? {}
      : { contextWindowTokens: adapter.contextWindowTokens }),
    ...(adapter.providerDataKey === undefined ? {} : { providerDataKey: adapter.providerDataKey }),
    ...(adapter.supportsResponseFormat === undefined
      ? {}
      : { supportsResponseFormat: adapter.supportsResponseFormat }),
  };
}

function describeTool(tool: Tool): ToolDescription {
  const needsApproval = tool.needsApproval;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.strict === undefined ? {} : { strict: tool.strict }),
    ...(tool.timeoutMs === undefined ? {} : { timeoutMs: tool.timeoutMs }),
    ...(needsApproval === undefined
      ? {}
      : { needsApproval: typeof needsApproval === 'function' ? 'per_call' : needsApproval }),
  };
}
