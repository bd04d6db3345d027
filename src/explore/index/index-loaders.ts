import { preloadTypeScript } from './cache/compiler-code-cache.js';
import { parseCacheFor } from './cache/parse-cache.js';
import type { ResolvedParseCacheOptions } from './cache/parse-cache-options.js';
import { isScriptFile } from './languages.js';
import { loadCodeIndexEngine } from './load-code-index-engine.js';
import type { CodeIndexEngine } from './load-code-index-engine.js';
import { loadCodeIndexQueries } from './load-code-index-queries.js';
import type { SourceParser } from './file-source.js';

/** How one code index loads the compiler and its parser. */
export interface IndexLoaders {
  /** Loads the compiler (from the cache's code cache when there is a cache, see `preloadTypeScript`) and the engine. */
  readonly loadEngine: () => Promise<CodeIndexEngine>;
  /** The parser of source files, through the on-disk parse cache when there is one; a JS/TS file loads the compiler through `loadEngine` first. */
  readonly loadParser: () => Promise<SourceParser>;
}

/** The loaders of a code index with the cache `cache` (`undefined`: no cache). */
export function indexLoaders(cache: ResolvedParseCacheOptions | undefined): IndexLoaders {
  let compiler: Promise<unknown> | undefined;
  const loadEngine = async (): Promise<CodeIndexEngine> => {
    compiler ??=
      cache === undefined
        ? Promise.resolve()
        : preloadTypeScript(cache.directory, (bytes) => parseCacheFor(cache).written(bytes));
    await compiler;
    return loadCodeIndexEngine();
  };
  let parser: Promise<SourceParser> | undefined;
  const loadParser = (): Promise<SourceParser> => {
    parser ??= loadCodeIndexQueries().then(({ parseFile, cachedParser }): SourceParser => {
      const parse = async (path: string, text: string): ReturnType<typeof parseFile> => {
        if (isScriptFile(path)) await loadEngine();
        return parseFile(path, text);
      };
      return cache === undefined
        ? async (source) => parse(source.path, await source.text())
        : cachedParser(parse, cache);
    });
    parser.catch(() => (parser = undefined));
    return parser;
  };
  return { loadEngine, loadParser };
}
