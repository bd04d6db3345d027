// The compiler-free half of the code index's queries, loaded on the first query (see
// `loadCodeIndexQueries`) so importing `tool-orchestrator/explore` stays cheap.
export { parseFile } from './parse-file.js';
export { findDefinitions } from './definitions.js';
export { findReferences } from './references.js';
export { cachedParser } from './cache/cached-parser.js';
