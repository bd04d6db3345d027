// The public API of the exploration flows, re-exported by the `tool-orchestrator/explore` entry.
export { ExplorationOrchestrator, maxStepsSummaryRequest } from './exploration/exploration-orchestrator.js';
export type {
  ExplorationOrchestratorOptions,
  ExplorationLogger,
} from './exploration/exploration-orchestrator.js';
export {
  explorationSystemPrompt,
  explorationSystemPromptTemplate,
  explorationToolNames,
} from './exploration/exploration-system-prompt.js';
export {
  createFinishExplorationTool,
  finishExplorationToolName,
} from './exploration/finish-exploration-tool.js';

export {
  ContextProviderSpec,
  ContextRequest,
  ExplorationResponse,
  ContextResult,
  FulfillContextInput,
  ExplorationInput,
  contextRequestKey,
} from './context/context-schemas.js';
export { defineContextProvider, contextProviderSpecs } from './context/context-provider.js';
export type {
  ContextProvider,
  ContextProviderContext,
  ContextProviderRegistry,
} from './context/context-provider.js';
export { callExplorationLlm } from './context/call-exploration-llm.js';
export type { CallExplorationLlmDependencies, ExplorationOutput } from './context/call-exploration-llm.js';
export { fulfillContextRequests } from './context/fulfill-context-requests.js';
export type { FulfillContextDependencies, FulfillContextOutput } from './context/fulfill-context-requests.js';
export { exploreContext } from './context/explore-context.js';
export type { ExploreContextOptions, ExploreContextResult } from './context/explore-context.js';
export { generateWithContext } from './context/generate-with-context.js';
export type { GenerateWithContextOptions } from './context/generate-with-context.js';
export { createContextProviders } from './context/create-context-providers.js';
export type { CreateContextProvidersOptions } from './context/create-context-providers.js';
export type { CommandSpec } from './context/providers/command-provider.js';
export type { Playbook } from './context/providers/history-providers.js';
export type { RunHistoryStore, RunRecord } from './context/providers/run-history-store.js';
export { JsonLinesRunStore } from './context/providers/json-lines-run-store.js';

export { runExplorer } from './explorer/run-explorer.js';
export type { RunExplorerOptions } from './explorer/run-explorer.js';
export { createExploreCodebaseTool } from './explorer/create-explore-codebase-tool.js';
export type { ExploreCodebaseToolOptions } from './explorer/create-explore-codebase-tool.js';
export { ExplorerReportSchema } from './explorer/explorer-report-schema.js';
export type { ExplorerReport, ExplorerFinding } from './explorer/explorer-report-schema.js';
export { explorerDepthTurns } from './explorer/explorer-depth.js';
export type { ExplorerDepth } from './explorer/explorer-depth.js';
export { recommendedNextStep } from './explorer/recommended-next-step.js';
export type { ExplorerNextStep, RecommendedNextStepOptions } from './explorer/recommended-next-step.js';

export { generateStructured, readStructured } from './shared/generate-structured.js';
export type {
  StructuredOutputMode,
  GenerateStructuredOptions,
  StructuredResult,
} from './shared/generate-structured.js';
export { parseJsonOutput } from './shared/parse-json-output.js';
export type { ParseJsonOutputOptions, ParsedJsonOutput } from './shared/parse-json-output.js';
export { StructuredOutputError } from './errors/structured-output-error.js';
export type { StructuredOutputErrorOptions } from './errors/structured-output-error.js';
export { ExplorerTimeoutError } from './errors/explorer-timeout-error.js';
export type { ExplorerTimeoutErrorOptions } from './errors/explorer-timeout-error.js';
