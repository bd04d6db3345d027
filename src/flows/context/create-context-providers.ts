import { CodeIndex } from '../../explore/index/code-index.js';
import { Sandbox } from '../../explore/sandbox/sandbox.js';
import type { ToolRegistry } from '../../tools/define-tool.js';
import { createCodeTools } from '../../explore/create-code-tools.js';
import type { ContextProviderRegistry } from './context-provider.js';
import { createCodeToolProviders } from './providers/code-tool-providers.js';
import { createCommandProvider } from './providers/command-provider.js';
import type { CommandSpec } from './providers/command-provider.js';
import { createDiscoverContextProvider } from './providers/discover-context-provider.js';
import { createPastRunsProvider, createPlaybooksProvider } from './providers/history-providers.js';
import type { Playbook } from './providers/history-providers.js';
import { createIndexProviders } from './providers/index-providers.js';
import type { RunHistoryStore } from './providers/run-history-store.js';

/** Options of {@link createContextProviders}. */
export interface CreateContextProvidersOptions {
  /** The repository root every provider is confined to. */
  readonly root: string;
  /** Commands for `run_tests` and `lint_check`; each provider exists only when its command is set. */
  readonly commands?: { readonly run_tests?: CommandSpec; readonly lint_check?: CommandSpec };
  /** Enables `past_runs`. */
  readonly runStore?: RunHistoryStore;
  /** Enables `playbooks`. */
  readonly playbooks?: readonly Playbook[];
  /** A code index to share. @default a new `CodeIndex` over `root` */
  readonly index?: CodeIndex;
  /** The code tools behind `read_file`, `search_code`, `git_log`, `git_diff`. @default `createCodeTools({ root })` */
  readonly tools?: ToolRegistry;
}

/**
 * The built-in provider registry: `read_file`, `search_code`, `symbol_list`, `import_graph`,
 * `git_log`, `git_diff`, `repo_map` and `discover_context` always; `run_tests`, `lint_check`,
 * `past_runs` and `playbooks` when configured. Add your own by spreading:
 * `{ ...createContextProviders({ root }), ticket }`.
 *
 * @example
 * const providers = createContextProviders({
 *   root: '.',
 *   commands: { run_tests: { command: 'npx', args: ['vitest', 'run'], markerFlag: '-t' } },
 *   runStore: new JsonLinesRunStore('.agent/runs.jsonl'),
 * });
 */
export function createContextProviders(options: CreateContextProvidersOptions): ContextProviderRegistry {
  const sandbox = new Sandbox({ root: options.root });
  const index = options.index ?? new CodeIndex({ sandbox });
  const tools = options.tools ?? createCodeTools({ root: options.root, index });
  const providers: ContextProviderRegistry = {
    ...createCodeToolProviders(tools),
    ...createIndexProviders(index),
    discover_context: createDiscoverContextProvider({ index, sandbox }),
  };
  const extra: Record<string, ContextProviderRegistry[string]> = {};
  if (options.commands?.run_tests !== undefined) {
    extra.run_tests = createCommandProvider({ kind: 'run_tests', spec: options.commands.run_tests, sandbox });
  }
  if (options.commands?.lint_check !== undefined) {
    extra.lint_check = createCommandProvider({
      kind: 'lint_check',
      spec: options.commands.lint_check,
      sandbox,
    });
  }
  if (options.runStore !== undefined) extra.past_runs = createPastRunsProvider(options.runStore);
  if (options.playbooks !== undefined) extra.playbooks = createPlaybooksProvider(options.playbooks);
  return { ...providers, ...extra };
}
