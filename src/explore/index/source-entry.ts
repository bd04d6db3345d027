/**
 * What is known of one source file at one version: its text (read by this process), its record in
 * the snapshot, or neither yet (`unread`: ripgrep named it no candidate; it is read later). An
 * entry read and found unreadable has neither and counts as no file. Entries are updated in place
 * when read, so every map holding one sees it.
 */
export interface SourceEntry {
  readonly version: string;
  text: string | undefined;
  /** Not read yet: ripgrep found it mentions none of the words asked so far and declares no globals. */
  unread: boolean;
  /** Its ordinal in the loaded snapshot, when trusted from it rather than read. */
  readonly ordinal: number | undefined;
  mayDeclareGlobals: boolean;
  /** When the text was read (epoch ms); the snapshot's save time for a trusted entry. */
  readAt: number;
  key: string | undefined;
  keyedAt: number;
  words: readonly string[] | undefined;
}

/** An entry at `version`, not read yet. */
export function unreadEntry(version: string): SourceEntry {
  return {
    version,
    text: undefined,
    unread: true,
    ordinal: undefined,
    mayDeclareGlobals: false,
    readAt: 0,
    key: undefined,
    keyedAt: 0,
    words: undefined,
  };
}
