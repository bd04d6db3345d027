import { requireHere } from '../../../shared/require-here.js';
import type * as WebTreeSitterModule from 'web-tree-sitter';
import type { Language, Parser, Query } from 'web-tree-sitter';
import { MissingDependencyError } from '../../../errors/missing-dependency-error.js';
import { optionalDependency } from '../../../shared/optional-dependency.js';

type WebTreeSitter = typeof WebTreeSitterModule;

/** A grammar ready to parse: its language, a parser set to it, and its compiled queries. */
export interface LoadedGrammar {
  readonly language: Language;
  readonly parser: Parser;
  readonly runtime: WebTreeSitter;
}

/** What the grammar packages are for, in a {@link MissingDependencyError}'s message. */
const neededFor =
  'Exact symbols, imports and references of Python, Go, Rust, Java, C and C++ in the code intelligence tools';

const importRuntime = optionalDependency<WebTreeSitter>({
  packageName: 'web-tree-sitter',
  versionRange: '^0.27.0',
  installCommand: 'npm install web-tree-sitter@0.27',
  neededFor,
  load: () => import('web-tree-sitter'),
});

let runtimeLoading: Promise<WebTreeSitter> | undefined;
const grammars = new Map<string, Promise<LoadedGrammar>>();

/** Loads `web-tree-sitter` and its WebAssembly runtime once; a {@link MissingDependencyError} when it is not installed. */
function loadRuntime(): Promise<WebTreeSitter> {
  runtimeLoading ??= (async () => {
    const runtime = await importRuntime();
    await runtime.Parser.init();
    return runtime;
  })();
  runtimeLoading.catch(() => (runtimeLoading = undefined));
  return runtimeLoading;
}

/**
 * Loads a grammar (`tree-sitter-python/tree-sitter-python.wasm`) the first time a file of its
 * language is met, and the same one after. Nothing is downloaded: the `.wasm` ships in the
 * grammar's npm package. A missing package (the grammar's or `web-tree-sitter`) rejects with a
 * {@link MissingDependencyError} naming the install command; a grammar the runtime cannot load
 * with an error saying so.
 */
export function loadGrammar(grammarPackage: string, wasmFile: string): Promise<LoadedGrammar> {
  const key = `${grammarPackage}/${wasmFile}`;
  let loading = grammars.get(key);
  if (loading === undefined) {
    loading = (async () => {
      const runtime = await loadRuntime();
      let wasmPath: string;
      try {
        wasmPath = requireHere().resolve(`${grammarPackage}/${wasmFile}`);
      } catch (error) {
        throw new MissingDependencyError({
          packageName: grammarPackage,
          versionRange: '>=0.23.0',
          installCommand: `npm install ${grammarPackage}`,
          neededFor,
          cause: error,
        });
      }
      try {
        const language = await runtime.Language.load(wasmPath);
        const parser = new runtime.Parser();
        parser.setLanguage(language);
        return { language, parser, runtime };
      } catch (error) {
        throw new Error(
          `the grammar in "${grammarPackage}" could not be loaded by web-tree-sitter (${(error as Error).message}); install a version built for web-tree-sitter 0.25 or later`,
          { cause: error },
        );
      }
    })();
    grammars.set(key, loading);
  }
  return loading;
}

/** A query compiled pattern by pattern: one pattern a grammar does not know drops that pattern, not the query. */
export interface CompiledQuery {
  readonly query: Query | undefined;
  /** The patterns left out, with the compiler's reason. */
  readonly dropped: readonly string[];
}

/**
 * Compiles a tags query for a grammar. When the whole query does not compile (a node type the
 * grammar version renamed: aider's "query drift"), each top-level pattern is tried alone and
 * the ones that fail are dropped and reported.
 */
export function compileQuery(grammar: LoadedGrammar, source: string): CompiledQuery {
  const { Query } = grammar.runtime;
  try {
    return { query: new Query(grammar.language, source), dropped: [] };
  } catch {
    const kept: string[] = [];
    const dropped: string[] = [];
    for (const pattern of splitPatterns(source)) {
      try {
        new Query(grammar.language, pattern).delete();
        kept.push(pattern);
      } catch (error) {
        dropped.push(`${pattern.split('\n')[0]?.trim() ?? pattern}: ${(error as Error).message}`);
      }
    }
    if (kept.length === 0) return { query: undefined, dropped };
    return { query: new Query(grammar.language, kept.join('\n')), dropped };
  }
}

/** The top-level S-expression patterns of a query source, with their trailing predicates. */
export function splitPatterns(source: string): string[] {
  const patterns: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  const lines = source.split('\n').filter((line) => !line.trimStart().startsWith(';'));
  const text = lines.join('\n');
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') inString = false;
      continue;
    }
    if (character === '"') inString = true;
    else if (character === '(' || character === '[') {
      if (depth === 0 && start === -1) start = index;
      depth += 1;
    } else if (character === ')' || character === ']') {
      depth -= 1;
      if (depth === 0) {
        // Captures after the closing paren (`) @definition.function`) belong to the pattern.
        const rest = /^(\s*@[\w.]+)*/.exec(text.slice(index + 1))?.[0] ?? '';
        patterns.push(text.slice(start, index + 1 + rest.length));
        index += rest.length;
        start = -1;
      }
    }
  }
  return patterns;
}
