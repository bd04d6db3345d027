import { optionalDependency } from '../../shared/optional-dependency.js';
import type * as engineModule from './code-index-engine.js';

/** The TypeScript-backed half of the code index: JS/TS parsing, the language service, JS/TS definitions and references. */
export type CodeIndexEngine = typeof engineModule;

/**
 * The TypeScript versions the index works with (checked with 5.3.3, 5.9.3 and 6.0.3): 5.3
 * brought `JSDocParsingMode`; 7, the native port, has no compiler API.
 */
export const typescriptVersionRange = '>=5.3.0 <7';

/**
 * Loads the code index engine (and with it the TypeScript compiler, ~300 ms) on first call and
 * returns the same promise afterwards, so importing `tool-orchestrator/explore` stays cheap
 * for callers that never query the index, and a repo without JS/TS files never loads it.
 * `typescript` is an optional peer dependency: when it is missing (or a version without the
 * compiler API), this rejects with a `MissingDependencyError` naming the install command. A
 * failed load is retried on the next call.
 */
export const loadCodeIndexEngine: () => Promise<CodeIndexEngine> = optionalDependency({
  packageName: 'typescript',
  versionRange: typescriptVersionRange,
  installCommand: 'npm install typescript@5',
  neededFor:
    'The code intelligence tools (get_symbols, get_structure, get_imports, get_definition, get_references, import_graph, repo_map) and CodeIndex',
  version: async () => (await import('./typescript-version.js')).typescriptVersion,
  acceptsVersion: (version) => {
    const [major = 0, minor = 0] = version.split('.').map(Number);
    return major === 6 || (major === 5 && minor >= 3);
  },
  load: () => import('./code-index-engine.js'),
});
