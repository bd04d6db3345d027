import type { ProjectFiles } from './project-files.js';
import type { ScriptProgram, WarmStep } from './script-program.js';
import type { SourceTexts } from './source-texts.js';

/** A warming slice: parse for this long, or, once all is parsed, add this many files to the program (binding them). */
const warmSlice = { maxMilliseconds: 25, maxFiles: 400 };
/** Files a warming slice parses for the index's own view (symbols, imports), once the program holds every file. */
const warmParseFiles = 16;

/** What one slice of a code index's warming reads and grows. */
export interface IndexWarmingParts {
  readonly files: ProjectFiles;
  readonly texts: SourceTexts;
  readonly program: ScriptProgram;
  /** Makes the language service, with no question's files yet: for a process whose questions read no program. */
  readonly startProgram: () => Promise<void>;
}

/**
 * The steps of a code index's warming (see `ProgramWarming`), a slice at a time: the texts
 * ripgrep left unread first (`SourceTexts.readSome`), then the program's (`ScriptProgram.warmStep`);
 * once it holds every JS/TS file, the index's own parse (symbols, imports) of the source files not
 * parsed yet, so a question about a new name finds its files parsed. Each version is tried once.
 */
export class IndexWarmStep {
  readonly #parts: IndexWarmingParts;
  /** Versions of files warming has parsed (or failed to): each is tried once. */
  readonly #tried = new Set<string>();

  constructor(parts: IndexWarmingParts) {
    this.#parts = parts;
  }

  /** Runs one slice and says what it did and what is left. */
  async step(): Promise<WarmStep> {
    const { files, texts, program } = this.#parts;
    // First the texts ripgrep let a question skip: later questions and the next snapshot need them.
    const read = texts.readSome(warmSlice.maxMilliseconds);
    if (read > 0) return { parsed: read, added: 0, remaining: texts.unreadCount };
    // A process whose questions so far read no program (the repo map, the import graph) starts it here.
    if (!program.started && files.scriptFiles().length > 0) await this.#parts.startProgram();
    const grown = program.warmStep(warmSlice);
    if (grown.parsed > 0 || grown.added > 0 || grown.remaining > 0) return grown;
    const unparsed = [...files.versions()]
      .filter(([path, version]) => !files.hasParse(path) && !this.#tried.has(`${version}:${path}`))
      .map(([path]) => path);
    const batch = unparsed.slice(0, warmParseFiles);
    for (const path of batch) this.#tried.add(`${files.versionOf(path) ?? ''}:${path}`);
    await files.parseSome(batch);
    return { parsed: batch.length, added: 0, remaining: unparsed.length - batch.length };
  }
}
