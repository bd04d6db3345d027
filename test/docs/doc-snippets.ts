import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** One ```ts block of the docs: a whole module. */
export interface Snippet {
  readonly document: string;
  /** The line of the block's first code line, one-based. */
  readonly line: number;
  readonly code: string;
  /**
   * Set when the line before the fence is `<!-- docs-test: no-run (why) -->`: the block is
   * type-checked but not run. Holds the text between the parentheses, empty when none was given.
   */
  readonly noRunReason?: string;
  /** A `<!-- docs-test: ... -->` line before the fence that is not a well-formed no-run marker. */
  readonly badMarker?: string;
}

const markerPattern = /^<!--\s*docs-test:(.*?)-->\s*$/;
const noRunPattern = /^\s*no-run\s*(?:\((.*)\))?\s*$/;

/** The documents whose code blocks are checked: README.md and every docs/*.md. */
export function documentsOf(root: string): string[] {
  return [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `docs/${name}`),
  ];
}

/**
 * Every ```ts (or ```typescript) block of `documents`, read from `root`, with its no-run marker
 * when the nearest non-blank line before the fence is one. Shell and text blocks are not code.
 */
export function findSnippets(root: string, documents: readonly string[] = documentsOf(root)): Snippet[] {
  const found: Snippet[] = [];
  for (const document of documents) {
    const lines = readFileSync(join(root, document), 'utf8').split('\n');
    for (let index = 0; index < lines.length; index++) {
      if (!/^```(ts|typescript)\s*$/.test(lines[index]!)) continue;
      const start = index + 1;
      let end = start;
      while (end < lines.length && !lines[end]!.startsWith('```')) end++;
      let before = index - 1;
      while (before >= 0 && lines[before]!.trim() === '') before--;
      found.push({
        document,
        line: start + 1,
        code: lines.slice(start, end).join('\n'),
        ...markerFields(before >= 0 ? lines[before]! : ''),
      });
      index = end;
    }
  }
  return found;
}

function markerFields(line: string): Pick<Snippet, 'noRunReason' | 'badMarker'> {
  const marker = markerPattern.exec(line.trim());
  if (marker === null) return {};
  const noRun = noRunPattern.exec(marker[1]!);
  if (noRun === null) return { badMarker: line.trim() };
  return { noRunReason: (noRun[1] ?? '').trim() };
}

/** `document:line`, how a failure names a block. */
export function snippetName(snippet: Pick<Snippet, 'document' | 'line'>): string {
  return `${snippet.document}:${snippet.line}`;
}
