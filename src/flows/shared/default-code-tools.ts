import { createCodeTools } from '../../explore/create-code-tools.js';
import type { Sandbox } from '../../explore/sandbox/sandbox.js';
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
 * The code tools the flows use when the caller passes none: every tool of the pack
 * (`createCodeTools({ root })`), or, given a `sandbox`, `read_file` and `search_text` over it.
 * Flows pick the tools they need by name, and skip names the registry does not hold.
 */
export function createDefaultCodeTools(options: DefaultCodeToolsOptions): ToolRegistry {
  if (options.sandbox === undefined) return createCodeTools({ root: options.root });
  return {
    read_file: createReadFileTool({ sandbox: options.sandbox }),
    search_text: createSearchTextTool({ sandbox: options.sandbox }),
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
