import { accessSync, constants, statSync } from 'node:fs';
import type { Tool, ToolRegistry } from '../tools/define-tool.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { Sandbox } from './sandbox/sandbox.js';
import type { CodeToolFactoryOptions, CodeToolLimits } from './code-tool-limits.js';
import { createListFilesTool } from './tools/list-files.js';
import { createReadFileTool } from './tools/read-file.js';
import { createSearchTextTool } from './tools/search-text.js';
import { createGitLogTool } from './tools/git-log.js';
import { createGitDiffTool } from './tools/git-diff.js';
import { withCodeIndex } from './index/code-intelligence-tool-options.js';
import type { CodeIndex } from './index/code-index.js';
import type { ParseCacheOptions } from './index/cache/parse-cache-options.js';
import { createGetSymbolsTool } from './tools/get-symbols.js';
import { createGetStructureTool } from './tools/get-structure.js';
import { createGetImportsTool } from './tools/get-imports.js';
import { createGetDefinitionTool } from './tools/get-definition.js';
import { createGetReferencesTool } from './tools/get-references.js';
import { createImportGraphTool } from './tools/import-graph.js';
import { createRepoMapTool } from './tools/repo-map.js';

/** Options of {@link createCodeTools}. */
export interface CreateCodeToolsOptions {
  /** The repository root every tool is confined to. */
  readonly root: string;
  /** Globs; when given, only matching files are listed, searched and read. */
  readonly include?: readonly string[];
  /** Extra globs to hide. */
  readonly exclude?: readonly string[];
  /**
   * Secret-file globs that can never be read, listed, searched or diffed (a folder's pattern
   * covers all below it; case-insensitive). Replaces the defaults: to let one file through,
   * pass `defaultDenyPatterns.filter((pattern) => pattern !== '.npmrc')`.
   * @default `defaultDenyPatterns` (environment files, keys, SSH, GnuPG, password, registry, cloud and infrastructure credentials, `.git`)
   */
  readonly deny?: readonly string[];
  /** Names of the tools to include. @default every tool of the pack */
  readonly tools?: readonly string[];
  /** Size, count, output and time caps. @default each field's default in `CodeToolLimits` */
  readonly limits?: Partial<CodeToolLimits>;
  /** A prebuilt code index for the code intelligence tools, shared between registries. @default built lazily */
  readonly index?: CodeIndex;
  /**
   * The code index's on-disk parse cache (see `CodeIndexOptions.cache`): `false` turns it off,
   * `{ directory, maxBytes }` moves or caps it. Ignored when `index` is given.
   * @default on, in the user cache folder, capped at 256 MiB
   */
  readonly cache?: boolean | ParseCacheOptions;
  /**
   * How the code index learns of edits (see `CodeIndexOptions.watch`): `true` watches the listed
   * folders with `fs.watch` and stats only the files their events name, falling back to stat'ing
   * where watching fails; `false` stats every listed file on each question. Ignored when `index`
   * is given.
   * @default true
   */
  readonly watch?: boolean;
  /**
   * Let `git_log` and `git_diff` run on a repository whose git data lies outside the folder
   * holding `.git` (a linked worktree, a submodule checkout, alternates): see `SandboxOptions`.
   * @default false
   */
  readonly allowExternalGitDir?: boolean;
  /**
   * How `search_text` may use ripgrep: `true` runs `rg` from `PATH` when it is there, `false`
   * never runs it, a path is the `rg` executable to run. Ripgrep only picks which visible files
   * can match, so answers are the same with or without it; it is never downloaded. Given, it is
   * also the code index's `ripgrep` (see `CodeIndexOptions.ripgrep`, which is on by default).
   * @default false for `search_text` (the built-in search, with its cached listing, measured faster)
   */
  readonly ripgrep?: boolean | string;
}

/** What a tool factory of the pack receives. */
export interface CodeToolContext extends CodeToolFactoryOptions {
  readonly index?: CodeIndex;
  readonly cache?: boolean | ParseCacheOptions;
  readonly watch?: boolean;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type CodeToolFactory = (context: CodeToolContext) => Tool<any, any, any>;

/** Every tool of the pack, by the name the model calls it. */
const factories: Readonly<Record<string, CodeToolFactory>> = {
  list_files: createListFilesTool,
  read_file: createReadFileTool,
  search_text: createSearchTextTool,
  git_log: createGitLogTool,
  git_diff: createGitDiffTool,
  // Code intelligence: one CodeIndex per sandbox, shared by these tools.
  get_symbols: withCodeIndex(createGetSymbolsTool),
  get_structure: withCodeIndex(createGetStructureTool),
  get_imports: withCodeIndex(createGetImportsTool),
  get_definition: withCodeIndex(createGetDefinitionTool),
  get_references: withCodeIndex(createGetReferencesTool),
  import_graph: withCodeIndex(createImportGraphTool),
  repo_map: withCodeIndex(createRepoMapTool),
};

/** The names of every tool `createCodeTools` can build, in registry order. */
export const codeToolNames: readonly string[] = Object.freeze(Object.keys(factories));

/**
 * Builds the code-exploration tool pack over one {@link Sandbox}: a `ToolRegistry` ready
 * for the orchestrator. Every tool is read-only and caps its output.
 *
 * @throws {InvalidArgumentError} when `root` is not a directory or `tools` names an unknown tool.
 * @example
 * const tools = createCodeTools({ root: process.cwd(), tools: ['list_files', 'read_file', 'search_text'] });
 */
export function createCodeTools(options: CreateCodeToolsOptions): ToolRegistry {
  const selected = options.tools ?? codeToolNames;
  const unknown = selected.filter((name) => !Object.hasOwn(factories, name));
  if (unknown.length > 0) {
    throw new InvalidArgumentError({
      argument: 'tools',
      value: unknown,
      message: `unknown tool name(s) ${unknown.map((name) => `"${name}"`).join(', ')}; valid names are ${codeToolNames.join(', ')}.`,
    });
  }
  const sandbox = new Sandbox({
    root: options.root,
    ...(options.include === undefined ? {} : { include: options.include }),
    ...(options.exclude === undefined ? {} : { exclude: options.exclude }),
    ...(options.deny === undefined ? {} : { deny: options.deny }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.allowExternalGitDir === undefined
      ? {}
      : { allowExternalGitDir: options.allowExternalGitDir }),
  });
  if (typeof options.ripgrep === 'string') assertExecutable(options.ripgrep);
  const context: CodeToolContext = {
    sandbox,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.ripgrep === undefined ? {} : { ripgrep: options.ripgrep }),
    ...(options.index === undefined ? {} : { index: options.index }),
    ...(options.cache === undefined ? {} : { cache: options.cache }),
    ...(options.watch === undefined ? {} : { watch: options.watch }),
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const registry: Record<string, Tool<any, any, any>> = {};
  for (const name of selected) {
    const factory = factories[name];
    if (factory !== undefined) registry[name] = factory(context);
  }
  return registry;
}

function assertExecutable(path: string): void {
  try {
    if (!statSync(path).isFile()) throw new Error('not a file');
    accessSync(path, constants.X_OK);
  } catch {
    throw new InvalidArgumentError({
      argument: 'ripgrep',
      value: path,
      message:
        'must be the path of an executable rg file; pass true to use rg from PATH when it is there, or false for the built-in search.',
    });
  }
}
