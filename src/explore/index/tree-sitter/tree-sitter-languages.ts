import type { ParsedFile } from '../code-symbol.js';
import { parseWithFallback } from '../fallback-symbols.js';
import type { LanguageSpec } from './language-spec.js';
import { c, cpp } from './languages/c.js';
import { go } from './languages/go.js';
import { java } from './languages/java.js';
import { python } from './languages/python.js';
import { rust } from './languages/rust.js';
import type { PreparedLanguage } from './parse-with-tree-sitter.js';
import { parseWithTreeSitter, prepareLanguage } from './parse-with-tree-sitter.js';
import { loadGrammar } from './tree-sitter-runtime.js';

/** The languages parsed by tree-sitter grammars, by the index's language name. */
export const treeSitterLanguages: Readonly<Record<string, LanguageSpec>> = { python, go, rust, java, c, cpp };

const prepared = new Map<string, Promise<PreparedLanguage>>();

/** The languages whose grammar has been asked for so far (loaded or failed), in order. */
export function requestedGrammars(): string[] {
  return [...prepared.keys()].map((key) => key.slice(0, key.indexOf('\n')));
}

// A `.h` file is C unless it reads as C++ (a class, a namespace, a template, access labels).
const cppHeader =
  /^\s*(?:class\s+\w+[^;]*\{|namespace\s+[\w:]*\s*\{|template\s*<)|^\s*(?:public|private|protected)\s*:/m;

function specFor(
  specs: Readonly<Record<string, LanguageSpec>>,
  language: string,
  path: string,
  text: string,
): LanguageSpec | undefined {
  if (language === 'c' && path.endsWith('.h') && cppHeader.test(text)) return specs['cpp'];
  return specs[language];
}

function prepare(spec: LanguageSpec): Promise<PreparedLanguage> {
  const key = `${spec.language}\n${spec.grammarPackage}/${spec.wasmFile}`;
  let loading = prepared.get(key);
  if (loading === undefined) {
    loading = loadGrammar(spec.grammarPackage, spec.wasmFile).then((grammar) =>
      prepareLanguage(spec, grammar),
    );
    // A failure is remembered too: every file of the language falls back, with the reason.
    loading.catch(() => undefined);
    prepared.set(key, loading);
  }
  return loading;
}

/**
 * Parses a file of a tree-sitter language with its grammar (loaded on the first file of the
 * language). When the grammar package is missing, cannot load, or its tags query does not
 * compile, or the parse throws, the file gets the pattern fallback with a `notice` saying why:
 * one bad grammar or query never takes a tool down.
 */
export async function parseWithGrammar(
  language: string,
  path: string,
  text: string,
  specs: Readonly<Record<string, LanguageSpec>> = treeSitterLanguages,
): Promise<ParsedFile | undefined> {
  const spec = specFor(specs, language, path, text);
  if (spec === undefined) return undefined;
  let reason: string;
  try {
    const ready = await prepare(spec);
    const parsed = parseWithTreeSitter(ready, path, text);
    if (parsed !== undefined) return parsed;
    reason = ready.tags().notice ?? `the ${spec.language} tags query did not compile`;
  } catch (error) {
    // A grammar that is missing or does not load, or a parse that throws (a WebAssembly trap).
    reason = `${spec.grammarPackage}: ${(error as Error).message}`;
  }
  return {
    ...parseWithFallback(path, text, language),
    notice: `${reason}; symbols found by pattern instead (approximate)`,
  };
}
