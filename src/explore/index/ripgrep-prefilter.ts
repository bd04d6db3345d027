import { privateKeyKeyword } from '../sandbox/private-key-blocks.js';
import { defaultExcludedNames } from '../sandbox/sandbox-defaults.js';
import { findRipgrepCandidates, isRipgrepAvailable } from '../tools/ripgrep-candidates.js';
import { SearchStoppedError } from '../tools/run-search.js';
import { sourceExtensions } from './languages.js';

/** How long one ripgrep run may take before the index reads the files itself. */
const timeoutMs = 30_000;

/** The JS/TS file extensions, as ripgrep globs. */
const scriptGlobs = ['*.ts', '*.tsx', '*.mts', '*.cts', '*.js', '*.jsx', '*.mjs', '*.cjs'];
/** The extensions of every file the index reads, as case-insensitive ripgrep globs (`--glob` matches case-sensitively). */
const sourceGlobs = sourceExtensions.map(
  (extension) =>
    `*${[...extension].map((character) => (/[a-z]/.test(character) ? `[${character}${character.toUpperCase()}]` : character)).join('')}`,
);

/**
 * A line that starts an ES module statement, in PCRE2: `mayDeclareGlobals`'s pattern. PCRE2 sees
 * fewer line starts (after `\n` only) and, with Unicode on, fewer word boundaries than JavaScript
 * does, so it matches in no file the JavaScript pattern does not: every file it does not match
 * stays a candidate.
 */
const moduleStatement = String.raw`^[ \t]*(?:import|export)\b(?![ \t]*\()`;
/**
 * What makes a module declare names outside itself, loosened (no word boundaries) so it matches
 * wherever `mayDeclareGlobals`'s patterns do; and a private key block, whose redaction can hide a
 * module statement from the text the index reads.
 */
const outsideDeclarations = [
  String.raw`declare[ \t]+(?:global|module[ \t]*['"])`,
  '/// <reference',
  privateKeyKeyword,
];

/**
 * The text prefilter's two questions asked of ripgrep, over files on disk not read into this
 * process: which files may mention a word, and which JS/TS files may declare globals. Each answer
 * is a superset of what the files' texts give (ripgrep sees the bytes before the private key
 * redaction), so a caller reads the candidates and decides on their texts; `null` when ripgrep
 * failed or ran out of time, so the caller reads every file instead.
 */
export class RipgrepPrefilter {
  readonly #command: string;
  readonly #root: string;

  /** `command` is the `rg` executable (a name looked up on `PATH`, or a path); `root` the real path of the repository root. */
  constructor(command: string, root: string) {
    this.#command = command;
    this.#root = root;
  }

  /** Whether the command runs as ripgrep (asked once per command and process). */
  available(): Promise<boolean> {
    return isRipgrepAvailable(this.#command);
  }

  /** The files among `files` whose bytes hold one of `words` (or a private key block, whose redaction marker is text too). */
  filesMentioning(
    files: readonly string[],
    words: readonly string[],
    signal?: AbortSignal,
  ): Promise<Set<string> | null> {
    return this.#candidates(files, [...words, privateKeyKeyword], 'fixed-strings', signal, sourceGlobs);
  }

  /** The JS/TS files among `scripts` that may declare globals (`mayDeclareGlobals`), and perhaps others. */
  async mayDeclareGlobals(scripts: readonly string[], signal?: AbortSignal): Promise<Set<string> | null> {
    const [modules, outside] = await Promise.all([
      this.#candidates(scripts, [moduleStatement], 'pcre2', signal, scriptGlobs),
      this.#candidates(scripts, outsideDeclarations, 'regex', signal, scriptGlobs),
    ]);
    if (modules === null || outside === null) return null;
    return new Set(scripts.filter((path) => !modules.has(path) || outside.has(path)));
  }

  async #candidates(
    files: readonly string[],
    patterns: readonly string[],
    syntax: 'fixed-strings' | 'regex' | 'pcre2',
    signal: AbortSignal | undefined,
    globs?: readonly string[],
  ): Promise<Set<string> | null> {
    if (files.length === 0) return new Set();
    try {
      const found = await findRipgrepCandidates({
        command: this.#command,
        root: this.#root,
        start: '.',
        files,
        excludedNames: defaultExcludedNames,
        literals: patterns,
        syntax,
        ...(globs === undefined ? {} : { globs }),
        ignoreCase: false,
        timeoutMs,
        signal,
      });
      return found === null ? null : new Set([...found].map((index) => files[index] ?? ''));
    } catch (error) {
      signal?.throwIfAborted();
      if (error instanceof SearchStoppedError) return null;
      throw error;
    }
  }
}
