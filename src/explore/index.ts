export { Sandbox, formatBytes } from './sandbox/sandbox.js';
export type {
  SandboxOptions,
  ListFilesOptions,
  FileListing,
  TextFile,
  FileStats,
} from './sandbox/sandbox.js';
export {
  defaultSandboxLimits,
  defaultDenyPatterns,
  defaultExcludedNames,
  maxSandboxPathLength,
} from './sandbox/sandbox-defaults.js';
export type { SandboxLimits } from './sandbox/sandbox-defaults.js';
export type { LineWindow, WindowLine } from './sandbox/read-line-window.js';
export { SandboxError } from './errors/sandbox-error.js';
export type { SandboxErrorOptions } from './errors/sandbox-error.js';
export { FileReadError } from './errors/file-read-error.js';
export type { FileReadErrorCode, FileReadErrorOptions } from './errors/file-read-error.js';
export { defaultCodeToolLimits, resolveCodeToolLimits } from './code-tool-limits.js';
export type { CodeToolLimits, CodeToolFactoryOptions } from './code-tool-limits.js';
export { createCodeTools, codeToolNames } from './create-code-tools.js';
export type { CreateCodeToolsOptions, CodeToolContext } from './create-code-tools.js';
export { createListFilesTool, defaultListFilesMaxResults } from './tools/list-files.js';
export { createReadFileTool, defaultReadWindowLines } from './tools/read-file.js';
export { createSearchTextTool, defaultSearchMaxResults } from './tools/search-text.js';
export { createGitLogTool } from './tools/git-log.js';
export { createGitDiffTool } from './tools/git-diff.js';
export { CodeIndex } from './index/code-index.js';
export type { CodeIndexOptions, FileSymbols, QueryOptions } from './index/code-index.js';
export type { CodeIndexSandbox } from './index/code-index-sandbox.js';
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
export type { FileImportGraph, ImportGraphSummary, ImportEdge } from './index/import-graph.js';
export type { RepoMap, RepoMapOptions } from './index/repo-map.js';
export { estimateTokens } from './index/repo-map.js';
export type { FileStructure, OutlineEntry } from './index/structure.js';
export type { CodeIntelligenceToolOptions } from './index/code-intelligence-tool-options.js';
export { createGetSymbolsTool } from './tools/get-symbols.js';
export { createGetStructureTool } from './tools/get-structure.js';
export { createGetImportsTool } from './tools/get-imports.js';
export { createGetDefinitionTool } from './tools/get-definition.js';
export { createGetReferencesTool, maxReferencesShown } from './tools/get-references.js';
export { createImportGraphTool } from './tools/import-graph.js';
export { createRepoMapTool } from './tools/repo-map.js';

// Exploration flows: src/flows/index.ts holds their explicit export list, so it is written once.
export * from '../flows/index.js';
