/**
 * `tool-orchestrator/explore` (Node only): the read-only code-exploration tool pack
 * (`createCodeTools`, the `Sandbox` it reads through, the `CodeIndex` behind the code
 * intelligence tools) and the exploration flows built on it (docs/exploration-tools.md,
 * docs/exploration.md). This is the entry's one export list: what those pages show users calling,
 * and every type their signatures name. `test/contract/entry-exports.test.ts` pins it.
 */

// The sandbox every tool reads through.
export { Sandbox } from './sandbox/sandbox.js';
export type {
  SandboxOptions,
  ListFilesOptions,
  FileListing,
  TextFile,
  FileStats,
} from './sandbox/sandbox.js';
export { defaultDenyPatterns, maxSandboxPathLength } from './sandbox/sandbox-defaults.js';
export type { SandboxLimits } from './sandbox/sandbox-defaults.js';
export type { LineWindow, WindowLine } from './sandbox/read-line-window.js';
export type { GitRepository } from './sandbox/git-repository.js';
export { SandboxError } from './errors/sandbox-error.js';
export type { SandboxErrorOptions } from './errors/sandbox-error.js';
export { FileReadError } from './errors/file-read-error.js';
export type { FileReadErrorCode, FileReadErrorOptions } from './errors/file-read-error.js';

// The tool pack, and what a tool of your own for it takes.
export { createCodeTools } from './create-code-tools.js';
export type { CreateCodeToolsOptions } from './create-code-tools.js';
export { resolveCodeToolLimits } from './code-tool-limits.js';
export type { CodeToolLimits, CodeToolFactoryOptions } from './code-tool-limits.js';

// The code index behind the code intelligence tools.
export { CodeIndex } from './index/code-index.js';
export type { CodeIndexOptions, FileSymbols, QueryOptions } from './index/code-index.js';
export type { CodeIndexSandbox } from './index/code-index-sandbox.js';
export { defaultCacheDirectory, defaultCacheMaxBytes } from './index/cache/parse-cache-options.js';
export type { ParseCacheOptions } from './index/cache/parse-cache-options.js';
export { CodeIndexError } from './index/code-index-error.js';
export type { CodeIndexErrorOptions } from './index/code-index-error.js';
export type { CodeSymbol, SymbolKind, ImportRecord, ExportRecord, ParsedFile } from './index/code-symbol.js';
export type { DefinitionLocation } from './index/index-context.js';
export type {
  ReferencesResult,
  FileReferences,
  ReferenceLocation,
  FindReferencesOptions,
} from './index/references.js';
export type { FileImportGraph, ImportGraphSummary } from './index/import-graph.js';
export type { RepoMap, RepoMapOptions } from './index/repo-map.js';
export type { FileStructure, OutlineEntry, OutlineMember } from './index/structure.js';

// Flow 1: a model roams the repository with the tools, then summarises.
export { ExplorationOrchestrator } from '../flows/exploration/exploration-orchestrator.js';
export type {
  ExplorationOrchestratorOptions,
  ExplorationLogger,
} from '../flows/exploration/exploration-orchestrator.js';
export { explorationSystemPromptTemplate } from '../flows/exploration/exploration-system-prompt.js';

// Flow 2: the context-request loop, its steps and its providers.
export {
  ContextProviderSpec,
  ContextRequest,
  ExplorationResponse,
  ContextResult,
  FulfillContextInput,
  ExplorationInput,
  contextRequestKey,
} from '../flows/context/context-schemas.js';
export { defineContextProvider } from '../flows/context/context-provider.js';
export type {
  ContextProvider,
  ContextProviderContext,
  ContextProviderRegistry,
} from '../flows/context/context-provider.js';
export { callExplorationLlm } from '../flows/context/call-exploration-llm.js';
export type {
  CallExplorationLlmDependencies,
  ExplorationOutput,
} from '../flows/context/call-exploration-llm.js';
export { fulfillContextRequests } from '../flows/context/fulfill-context-requests.js';
export type {
  FulfillContextDependencies,
  FulfillContextOutput,
} from '../flows/context/fulfill-context-requests.js';
export { exploreContext } from '../flows/context/explore-context.js';
export type { ExploreContextOptions, ExploreContextResult } from '../flows/context/explore-context.js';
export { generateWithContext } from '../flows/context/generate-with-context.js';
export type { GenerateWithContextOptions } from '../flows/context/generate-with-context.js';
export { createContextProviders } from '../flows/context/create-context-providers.js';
export type { CreateContextProvidersOptions } from '../flows/context/create-context-providers.js';
export type { CommandSpec } from '../flows/context/providers/command-provider.js';
export type { Playbook } from '../flows/context/providers/history-providers.js';
export type { RunHistoryStore, RunRecord } from '../flows/context/providers/run-history-store.js';
export { JsonLinesRunStore } from '../flows/context/providers/json-lines-run-store.js';
export type { StructuredOutputMode } from '../flows/shared/structured-output-mode.js';

// Flow 3: the explorer subagent and its report.
export { runExplorer } from '../flows/explorer/run-explorer.js';
export type { RunExplorerOptions } from '../flows/explorer/run-explorer.js';
export { createExploreCodebaseTool } from '../flows/explorer/create-explore-codebase-tool.js';
export type { ExploreCodebaseToolOptions } from '../flows/explorer/create-explore-codebase-tool.js';
export { ExplorerReportSchema } from '../flows/explorer/explorer-report-schema.js';
export type {
  ExplorerReport,
  ExplorerFinding,
  ExplorerEvidence,
} from '../flows/explorer/explorer-report-schema.js';
export { explorerDepthTurns } from '../flows/explorer/explorer-depth.js';
export type { ExplorerDepth } from '../flows/explorer/explorer-depth.js';
export { recommendedNextStep } from '../flows/explorer/recommended-next-step.js';
export type {
  ExplorerNextStep,
  RecommendedNextStepOptions,
} from '../flows/explorer/recommended-next-step.js';

// The flows' errors.
export {
  exploreEvalSuite,
  explorerFilePrecision,
  explorerFileRecall,
} from '../evals/presets/explore/explore-suite.js';
export type {
  ExploreEvalSuite,
  ExploreEvalSuiteOptions,
  ExploreExpectation,
} from '../evals/presets/explore/explore-suite.js';
export { exploreQuestions } from '../evals/presets/explore/explore-questions.js';
export type { ExploreQuestion } from '../evals/presets/explore/explore-questions.js';
export { resolveExploreRepository } from '../evals/presets/explore/explore-repositories.js';
export type {
  ExploreFixtureName,
  ExploreRepositoryLocation,
  ExploreRepositoryName,
  ResolveExploreRepositoryOptions,
} from '../evals/presets/explore/explore-repositories.js';
export { scoreExplorerFiles } from '../evals/presets/explore/score-explorer-files.js';
export type {
  ExplorerFilesScore,
  ScoreExplorerFilesOptions,
} from '../evals/presets/explore/score-explorer-files.js';
export { StructuredOutputError } from '../errors/structured-output-error.js';
export type { StructuredOutputErrorOptions } from '../errors/structured-output-error.js';
export { ExplorerTimeoutError } from '../flows/errors/explorer-timeout-error.js';
export type { ExplorerTimeoutErrorOptions } from '../flows/errors/explorer-timeout-error.js';
