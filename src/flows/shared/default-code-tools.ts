import { Sandbox } from '../../explore/sandbox/sandbox.js';
import { createListFilesTool } from '../../explore/tools/list-files.js';
import { createReadFileTool } from '../../explore/tools/read-file.js';
import { createSearchTextTool } from '../../explore/tools/search-text.js';
import type { ToolRegistry } from '../../tools/define-tool.js';

/** Options of {@link createDefaultCodeTools}. */
export interface DefaultCodeToolsOptions {
  /** The repository root the tools read inside. */
  readonly root: string;
  /** A sandbox to share; one is created over `root` when left out. */
  readonly sandbox?: Sandbox;
}

/**
 * The code tools the flows use when the caller passes none: the tool pack's `list_files`,
 * `read_file` and `search_text` over one sandbox. Flows pick the tools they need by name
 * from this registry (or from the caller's `tools`), and skip names it does not hold.
 */
export function createDefaultCodeTools(options: DefaultCodeToolsOptions): ToolRegistry {
  const sandbox = options.sandbox ?? new Sandbox({ root: options.root });
  return {
    list_files: createListFilesTool({ sandbox }),
    read_file: createReadFileTool({ sandbox }),
    search_text: createSearchTextTool({ sandbox }),
  };
}

/** The entries of `registry` whose names are in `names`, in that order; missing names are skipped. */
export function pickTools(registry: ToolRegistry, names: readonly string[]): ToolRegistry {
  const picked: Record<string, ToolRegistry[string]> = {};
  for (const name of names) {
    const tool = Object.hasOwn(registry, name) ? registry[name] : undefined;
    if (tool !== undefined) picked[name] = tool;
  }
  return picked;
}
