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
