import type { ChatMessage, ToolCall } from '../model/messages.js';
import type {
  JsonSchema,
  ModelResponse,
  ModelToolDefinition,
  ResponseFormat,
  ToolChoice,
} from '../model/model-adapter.js';
import type { ToolCallOutcome } from '../tools/tool-call-outcome.js';
import type { ContextProviderSpec, ExplorationInput } from '../flows/context/context-schemas.js';
import type { ExplorationOutput } from '../flows/context/call-exploration-llm.js';
import type { FulfillContextOutput } from '../flows/context/fulfill-context-requests.js';
import type { FulfillContextInput } from '../flows/context/context-schemas.js';

/**
 * What the workflow needs to know of a model adapter that lives on the worker: the fields of
 * `ModelAdapter` besides its methods. Plain JSON.
 */
export interface AdapterDescription {
  /** The adapter's key in `createTemporalActivities({ adapters })`. */
  readonly name: string;
  readonly provider?: string;
  readonly model?: string;
  readonly contextWindowTokens?: number;
  readonly providerDataKey?: string;
  readonly supportsResponseFormat?: boolean;
}

/**
 * A tool as the workflow sees it: its definition without its code. `needsApproval` is `'per_call'`
 * when the tool decides per call (a function): the workflow then asks the `toolNeedsApproval` activity.
 */
export interface ToolDescription {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly strict?: boolean;
  readonly timeoutMs?: number;
  readonly needsApproval?: boolean | 'per_call';
}

/** What the `describeAgent` activity returns: the adapter and the tools, as plain JSON. */
export interface AgentDescription {
  readonly adapter: AdapterDescription;
  readonly tools: readonly ToolDescription[];
}

/** Input of the `describeAgent` activity. */
export interface DescribeAgentInput {
  /** Which adapter, by its key in `adapters`. @default the first key */
  readonly adapter?: string;
}

/** Input of the `callModel` activity: one model call, as `ModelAdapter.call` takes it, in plain JSON. */
export interface CallModelInput {
  /** Which adapter, by its key in `adapters`. @default the first key */
  readonly adapter?: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ModelToolDefinition[];
  readonly toolChoice?: ToolChoice;
  readonly responseFormat?: ResponseFormat;
}

/** The ids and caller data a tool receives in its context, in plain JSON (no signal). */
export interface ToolCallContext {
  readonly runId: string;
  readonly requestId: string;
  readonly turnIndex: number;
  /** The caller's `context` data, which must be plain JSON to cross into the activity. */
  readonly context?: { readonly [key: string]: unknown };
}

/** Input of the `callTool` activity: one tool call and its context. */
export interface CallToolInput extends ToolCallContext {
  readonly toolCall: ToolCall;
}

/** Input of the `toolNeedsApproval` activity: a call to a tool whose `needsApproval` is a function. */
export interface ToolNeedsApprovalInput extends ToolCallContext {
  readonly toolName: string;
  readonly toolCallId: string;
  /** The call's parsed arguments. */
  readonly input: unknown;
}

/**
 * Input of the `callExplorationLlm` activity: `ExplorationInput`, where `providers` defaults to the
 * specs of the worker's `contextProviders`.
 */
export type ExplorationActivityInput = Omit<ExplorationInput, 'providers'> & {
  readonly providers?: ContextProviderSpec[];
  /** Which adapter, by its key in `adapters`. @default `explorationAdapter`, else the first key */
  readonly adapter?: string;
  /** Stamped on the call's trace events as `parentRunId`. */
  readonly parentRunId?: string;
};

/**
 * The activities `createTemporalActivities` returns, by name: register them on a worker and call
 * them from a workflow through `proxyActivities<TemporalActivities>()` (the workflow entry does).
 */
export interface TemporalActivities {
  /** The adapter's description and the tools' definitions, for the workflow. */
  describeAgent(input?: DescribeAgentInput): Promise<AgentDescription>;
  /** One model call; resolves to the adapter's `ModelResponse`. */
  callModel(input: CallModelInput): Promise<ModelResponse>;
  /** One tool call, run as the loop runs it; resolves to its outcome (errors included, as data). */
  callTool(input: CallToolInput): Promise<ToolCallOutcome>;
  /** Asks a tool whose `needsApproval` is a function whether this call waits for a person. */
  toolNeedsApproval(input: ToolNeedsApprovalInput): Promise<boolean>;
  /** The context-request loop's step 1 (see `callExplorationLlm` in `tool-orchestrator/explore`). */
  callExplorationLlm(input: ExplorationActivityInput): Promise<ExplorationOutput>;
  /** The context-request loop's step 2 (see `fulfillContextRequests` in `tool-orchestrator/explore`). */
  fulfillContextRequests(input: FulfillContextInput): Promise<FulfillContextOutput>;
}
