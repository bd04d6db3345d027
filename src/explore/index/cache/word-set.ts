/**
 * Runs of ASCII letters, digits, `_` and `$`. Every other character, non-ASCII letters included,
 * splits a run: a narrower class than JavaScript's identifiers only cuts names into more pieces,
 * so a name spelled out in a text always leaves each of its pieces there as a whole run.
 */
const wordPattern = /[\w$]+/g;

/** The distinct word runs of a text (see {@link wordPieces}), in order of first appearance. */
export function wordsOf(text: string): string[] {
  return [...new Set(text.match(wordPattern))];
}

/**
 * The word runs a name is made of: `AstroError` → `['AstroError']`, `#size` → `['size']`,
 * `aria-label` → `['aria', 'label']`, `日本` → `[]`. A text that spells the name as a whole token
 * (an identifier, a property in quotes, a JSX tag) holds every piece as one of its own runs, so
 * a file whose runs lack a piece cannot mention the name; a name of no pieces rules out no file.
 */
export function wordPieces(name: string): string[] {
  return name.match(wordPattern) ?? [];
}
