import type { ParsedFile } from './code-symbol.js';

/** Parses one file's text (`parseFile`); `undefined` for files in no supported language. */
export type FileParser = (path: string, text: string) => Promise<ParsedFile | undefined>;

/** A file to parse: its path, what is already known of its current version, and how to get its text. */
export interface FileSource {
  readonly path: string;
  /** The parse cache's key of this version's text, when known: a cached parse is found without reading the file. */
  readonly key?: string;
  /** The text: the one already read when there is one, else read through the sandbox (once). */
  text(): Promise<string>;
  /** Told the key of the text once it is computed from it. */
  keyed?(key: string): void;
}

/** Parses one file from its source (`parseFile` over `source.text()`, or a cache in front of it). */
export type SourceParser = (source: FileSource) => Promise<ParsedFile | undefined>;

/** What the index already holds of a file at a version (its text, its content key), so parsing it need not read it again. */
export interface KnownSources {
  /** The text and key known for `path` at `version`, or `undefined`. */
  sourceOf(path: string, version: string): { readonly text?: string; readonly key?: string } | undefined;
  /** Records the key computed from the text of `path` at `version`. */
  keyed(path: string, version: string, key: string): void;
}
