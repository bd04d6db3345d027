import type * as engineModule from './code-index-engine.js';

/** The TypeScript-backed half of the code index: parsing, the language service, definitions, references. */
export type CodeIndexEngine = typeof engineModule;

let loading: Promise<CodeIndexEngine> | undefined;

/**
 * Loads the code index engine (and with it the TypeScript compiler, ~300 ms) on first call and
 * returns the same promise afterwards, so importing `tool-orchestrator/explore` stays cheap
 * for callers that never query the index. A failed load is retried on the next call.
 */
export function loadCodeIndexEngine(): Promise<CodeIndexEngine> {
  if (loading === undefined) {
    loading = import('./code-index-engine.js');
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}
