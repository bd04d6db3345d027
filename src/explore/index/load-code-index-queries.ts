import type * as queriesModule from './code-index-queries.js';

/** Parsing, definitions and references, without the TypeScript compiler (which they load only for JS/TS files). */
export type CodeIndexQueries = typeof queriesModule;

let loading: Promise<CodeIndexQueries> | undefined;

/** Loads the query modules on first call and returns the same promise afterwards; a failed load is retried. */
export function loadCodeIndexQueries(): Promise<CodeIndexQueries> {
  loading ??= import('./code-index-queries.js');
  loading.catch(() => (loading = undefined));
  return loading;
}
