import ts from 'typescript';
import type { ScriptNavigation } from './index-context.js';
import type { IndexLanguageServiceHost } from './language-service-host.js';
import type { ScriptContext } from './script-context.js';
import { followUsesInFile, scriptDeclared } from './script-definitions.js';
import { scriptReferences } from './script-references.js';

// The parts of the code index that run the TypeScript compiler. Only `loadCodeIndexEngine`
// imports this module (dynamically), so `typescript` loads on the first JS/TS file the index
// parses, and never for a repo without JS/TS files.
export { parseScript } from './parse-script.js';
export { IndexLanguageServiceHost } from './language-service-host.js';

/** A long-lived language service over the host's files, sharing the host's document registry. */
export function createIndexLanguageService(host: IndexLanguageServiceHost): ts.LanguageService {
  return ts.createLanguageService(host, host.registry);
}

/** Definitions and references of JS/TS declarations through the compiler, over one index snapshot. */
export function createScriptNavigation(context: ScriptContext): ScriptNavigation {
  return {
    declared: (file, symbol, followImports) => scriptDeclared(context, file, symbol, followImports),
    followUses: (path, name, firstOnly) => followUsesInFile(context, path, name, firstOnly),
    references: (names, definitions) => scriptReferences(context, names, definitions),
  };
}
