/**
 * Everything the root entry `tool-orchestrator` exports but `FileCheckpointStore`, shared by its
 * two builds: `src/index.ts` for Node (and Bun and Deno, which match the package's `node` export
 * condition) and `src/neutral.ts` for browsers, edge and worker runtimes. Nothing here may import
 * a Node built-in or a provider SDK: `test/contract/runtime-neutral-root.test.ts` bundles it for them.
 *
 * This is the root's one export list: what a user calls, implements or names in a type. Helpers the
 * package uses itself stay in their modules; `test/contract/entry-exports.test.ts` pins the list.
 */
export { ToolOrchestrator } from './orchestrator/tool-orchestrator.js';
export type {
  OnCutShort,
  ResumeOptions,
  RunOptions,
  RunResult,
  ToolOrchestratorOptions,
} from './orchestrator/orchestrator-options.js';
export type { RunStream } from './orchestrator/run-stream.js';
export type {
  InferSchema,
  OutputOf,
  OutputOption,
  OutputOptions,
} from './orchestrator/output/output-options.js';
export type { AgentToolOptions } from './orchestrator/agent-tool.js';
export { handoff } from './orchestrator/handoffs/handoff.js';
export type {
  Handoff,
  HandoffAgent,
  HandoffEntry,
  HandoffInputFilter,
  HandoffOptions,
  HandoffsOption,
} from './orchestrator/handoffs/handoff.js';
export type { CallingRun, PausedRun, PausedRunResume } from './tools/calling-run.js';
export type {
  PrepareTurn,
  PrepareTurnHook,
  PrepareTurnInfo,
  RepairToolCall,
  RepairToolCallInfo,
  ToolCallProblem,
} from './orchestrator/turn-hooks.js';
export type { LoopGuardAction, LoopGuardOptions } from './orchestrator/loop-guard.js';
export type {
  GuardrailOptions,
  GuardrailRunInfo,
  GuardrailVerdict,
  InputGuardrail,
  InputGuardrailInfo,
  OutputGuardrail,
  OutputGuardrailInfo,
  ToolGuardrailVerdict,
  ToolInputGuardrail,
  ToolInputGuardrailInfo,
  ToolOutputGuardrail,
  ToolOutputGuardrailInfo,
} from './orchestrator/guardrails/guardrail-options.js';
export type { ModelPricing, RunBudget } from './orchestrator/budget.js';
export type {
  ContextStrategy,
  ContextStrategyInfo,
  ContextStrategyOption,
  ContextWindowOptions,
} from './orchestrator/context-window/context-window-options.js';
export { estimateTokens } from './orchestrator/context-window/estimate-tokens.js';
export { toolCalled, turnCountIs } from './orchestrator/stop-conditions.js';
export type { StopCondition, StopConditionState } from './orchestrator/stop-conditions.js';

export { defineTool } from './tools/define-tool.js';
export type {
  NeedsApproval,
  Tool,
  ToolConfig,
  ToolExecutionContext,
  ToolRegistry,
} from './tools/define-tool.js';
export type { ToolAnnotations } from './tools/tool-annotations.js';
export { toolContent } from './tools/tool-content.js';
export type { ToolContent } from './tools/tool-content.js';
export { ToolRunner } from './tools/tool-runner.js';
export type { ExecuteToolCallsOptions, ToolBatchContext, ToolRunnerOptions } from './tools/tool-runner.js';
export type { ToolCallOutcome, ToolCallRefusal, ToolErrorCode } from './tools/tool-call-outcome.js';
export type { SchemaIssue } from './tools/schema.js';

export type {
  AssistantMessage,
  ChatMessage,
  ChatRole,
  ContentPart,
  FilePart,
  ImagePart,
  JsonObject,
  MessageContent,
  ProviderData,
  ReasoningPart,
  SystemMessage,
  TextPart,
  ToolCall,
  ToolMessage,
  UserMessage,
} from './model/messages.js';
export type {
  FinishReason,
  JsonSchema,
  ModelAdapter,
  ModelCallOptions,
  ModelResponse,
  ModelStreamEvent,
  ModelToolDefinition,
  ModelWarning,
  ResponseFormat,
  ToolChoice,
} from './model/model-adapter.js';
export { addUsage, emptyUsage } from './model/usage.js';
export type { Usage } from './model/usage.js';

export type {
  BudgetLimit,
  GuardrailKind,
  StopReason,
  ToolCallReference,
  TraceContent,
  TraceContentPart,
  TraceEmitter,
  TraceEvent,
  TraceEventData,
  TraceEventOf,
  TraceEventType,
  TraceSink,
} from './tracing/trace-events.js';

export type {
  AgentPathStep,
  ApprovalDecision,
  CurrentTurnState,
  JsonValue,
  PendingApproval,
  RecordedToolOutcome,
  RunState,
  RunStateResult,
  RunStateStopReason,
  ToolCallRecord,
} from './durable/run-state.js';
export type { FingerprintChange, RunFingerprint } from './durable/run-fingerprint.js';
export { validateRunState } from './durable/validate-run-state.js';
export type { CheckpointStore } from './durable/checkpoint-store.js';
export { MemoryCheckpointStore } from './durable/memory-checkpoint-store.js';
export type { FileCheckpointStoreOptions } from './durable/file-checkpoint-store.js';

export { ToolOrchestratorError } from './errors/tool-orchestrator-error.js';
export type {
  ToolOrchestratorErrorCode,
  ToolOrchestratorErrorOptions,
} from './errors/tool-orchestrator-error.js';
export { InvalidArgumentError } from './errors/invalid-argument-error.js';
export type { InvalidArgumentErrorOptions } from './errors/invalid-argument-error.js';
export { ToolDefinitionError } from './errors/tool-definition-error.js';
export type { ToolDefinitionErrorOptions } from './errors/tool-definition-error.js';
export { MaxTurnsExceededError } from './errors/max-turns-exceeded-error.js';
export { StructuredOutputError } from './errors/structured-output-error.js';
export type { StructuredOutputErrorOptions } from './errors/structured-output-error.js';
export type { MaxTurnsExceededErrorOptions } from './errors/max-turns-exceeded-error.js';
export { BudgetExceededError } from './errors/budget-exceeded-error.js';
export type { BudgetExceededErrorOptions } from './errors/budget-exceeded-error.js';
export { LoopDetectedError } from './errors/loop-detected-error.js';
export type { LoopDetectedErrorOptions } from './errors/loop-detected-error.js';
export { GuardrailTrippedError } from './errors/guardrail-tripped-error.js';
export type { GuardrailTrippedErrorOptions } from './errors/guardrail-tripped-error.js';
export { AbortedError } from './errors/aborted-error.js';
export { ModelProviderError } from './errors/model-provider-error.js';
export type { ModelProviderErrorCode, ModelProviderErrorOptions } from './errors/model-provider-error.js';
export { AuthenticationError } from './errors/authentication-error.js';
export { InsufficientBalanceError } from './errors/insufficient-balance-error.js';
export { ContextLengthError } from './errors/context-length-error.js';
export type { ContextLengthErrorOptions } from './errors/context-length-error.js';
export { RateLimitError } from './errors/rate-limit-error.js';
export { InvalidRequestError } from './errors/invalid-request-error.js';
export { ServerError } from './errors/server-error.js';
export { StreamError } from './errors/stream-error.js';
export { EmptyResponseError } from './errors/empty-response-error.js';
export { InsufficientSystemResourceError } from './errors/insufficient-system-resource-error.js';
export { ConnectionError } from './errors/connection-error.js';
export type { ConnectionErrorOptions } from './errors/connection-error.js';
export { UnexpectedResponseError } from './errors/unexpected-response-error.js';
export { MissingApiKeyError } from './errors/missing-api-key-error.js';
export type { MissingApiKeyErrorOptions } from './errors/missing-api-key-error.js';
export { MissingDependencyError } from './errors/missing-dependency-error.js';
export type { MissingDependencyErrorOptions } from './errors/missing-dependency-error.js';
export { ResumeMismatchError } from './errors/resume-mismatch-error.js';
export type { ResumeMismatchErrorOptions } from './errors/resume-mismatch-error.js';
export { InvalidRunStateError } from './errors/invalid-run-state-error.js';
export type { InvalidRunStateErrorOptions } from './errors/invalid-run-state-error.js';
export { UnsupportedRuntimeError } from './errors/unsupported-runtime-error.js';
export type { UnsupportedRuntimeErrorOptions } from './errors/unsupported-runtime-error.js';
