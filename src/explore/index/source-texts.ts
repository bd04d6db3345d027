import type { CodeIndexSandbox } from './code-index-sandbox.js';
import { isScriptFile } from './languages.js';

const readConcurrency = 64;

/** A line that starts an ES module statement (`import x`, `export`), not a dynamic `import(...)`. */
const moduleStatement = /^[ \t]*(?:import|export)\b(?![ \t]*\()/m;
/** A module's additions to the global scope or to another module: `declare global`, `declare module 'name'`. */
const ambientDeclaration = /\bdeclare[ \t]+(?:global\b|module[ \t]*['"])/;

interface CachedText {
  readonly version: string;
  readonly text: string;
}

/**
 * Whether a JS/TS file may declare names outside its own module scope: a script without ES
 * module statements (its top-level declarations are globals; a CommonJS file counts too, which
 * only errs on the safe side), a `declare global`, a `declare module 'name'`, a triple-slash
 * reference. A program made of a question's files plus every such file resolves
 * names in those files as the whole repository's program does.
 */
export function mayDeclareGlobals(text: string): boolean {
  return !moduleStatement.test(text) || ambientDeclaration.test(text) || text.includes('/// <reference');
}

/**
 * The text of every source file, read once per version, so a question finds the few files
 * that mention a name without parsing the repository: the text prefilter of the code index.
 * A file that cannot be read (binary, too large, gone) is left out, as the parser leaves it out.
 */
export class SourceTexts {
  readonly #sandbox: CodeIndexSandbox;
  readonly #maxFileBytes: number;
  #texts = new Map<string, CachedText>();
  #globals: readonly string[] = [];

  constructor(options: { readonly sandbox: CodeIndexSandbox; readonly maxFileBytes: number }) {
    this.#sandbox = options.sandbox;
    this.#maxFileBytes = options.maxFileBytes;
  }

  /**
   * Reads the files whose version changed since the last call and forgets those no longer listed.
   * `versions` maps each source file to its `mtimeMs:size`.
   */
  async update(versions: ReadonlyMap<string, string>, signal?: AbortSignal): Promise<void> {
    const texts = new Map<string, CachedText>();
    const stale: string[] = [];
    for (const [path, version] of versions) {
      const cached = this.#texts.get(path);
      if (cached?.version === version) texts.set(path, cached);
      else stale.push(path);
    }
    if (stale.length === 0 && texts.size === this.#texts.size) return;
    for (let start = 0; start < stale.length; start += readConcurrency) {
      signal?.throwIfAborted();
      const batch = stale.slice(start, start + readConcurrency);
      await Promise.all(
        batch.map(async (path) => {
          try {
            const { text } = await this.#sandbox.readText(path, { maxBytes: this.#maxFileBytes });
            texts.set(path, { version: versions.get(path) ?? '', text });
          } catch {
            // Unreadable: the parser skips it too.
          }
        }),
      );
    }
    this.#texts = texts;
    this.#globals = [...texts]
      .filter(([path, { text }]) => isScriptFile(path) && mayDeclareGlobals(text))
      .map(([path]) => path);
  }

  /** The files among `paths` whose text contains any of `words`, in the order of `paths`. */
  containing(paths: Iterable<string>, words: readonly string[]): string[] {
    const found: string[] = [];
    for (const path of paths) {
      const text = this.#texts.get(path)?.text;
      if (text !== undefined && words.some((word) => text.includes(word))) found.push(path);
    }
    return found;
  }

  /** The JS/TS files that may declare globals (see {@link mayDeclareGlobals}), as of the last `update`. */
  globalScriptFiles(): readonly string[] {
    return this.#globals;
  }
}
