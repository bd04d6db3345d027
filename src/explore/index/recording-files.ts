import type { ParsedFile } from './code-symbol.js';

/**
 * The parsed files of a question's snapshot by path, noting each lookup of a file the snapshot
 * left out (`onMiss`), so the index can parse it and ask again rather than answer without it.
 */
export class RecordingFiles extends Map<string, ParsedFile> {
  readonly #onMiss: (path: string) => void;

  constructor(files: readonly ParsedFile[], onMiss: (path: string) => void) {
    super(files.map((file) => [file.path, file]));
    this.#onMiss = onMiss;
  }

  override get(path: string): ParsedFile | undefined {
    const file = super.get(path);
    if (file === undefined) this.#onMiss(path);
    return file;
  }
}
