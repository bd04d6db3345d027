import ts from 'typescript';
import type { IndexLanguageServiceHost } from './language-service-host.js';

// The parts of the code index that run the TypeScript compiler. Only `loadCodeIndexEngine`
// imports this module (dynamically), so `typescript` loads on the first code intelligence query.
export { parseFile } from './parse-file.js';
export { IndexLanguageServiceHost } from './language-service-host.js';
export { findDefinitions } from './definitions.js';
export { findReferences } from './references.js';

/** A long-lived language service over the host's files, sharing the host's document registry. */
export function createIndexLanguageService(host: IndexLanguageServiceHost): ts.LanguageService {
  return ts.createLanguageService(host, host.registry);
}
