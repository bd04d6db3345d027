import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { wordPieces, wordsOf } from '../../../../src/explore/index/cache/word-set.js';

const fixtures = fileURLToPath(new URL('../../../fixtures/code-index', import.meta.url));

/** Whether `text` spells `name` as a whole token: not preceded or followed by an identifier character. */
function spellsAsToken(text: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `(?<![\\p{ID_Continue}$\\u200c\\u200d])${escaped}(?![\\p{ID_Continue}$\\u200c\\u200d])`,
    'u',
  ).test(text);
}

/** What the snapshot prefilter answers for a file of `words`: it holds every piece of the name. */
function snapshotMatches(words: ReadonlySet<string>, name: string): boolean {
  const pieces = wordPieces(name);
  return pieces.length === 0 || pieces.every((piece) => words.has(piece));
}

describe('the word runs of the snapshot prefilter', () => {
  it('splits names into the pieces a text keeps whole', () => {
    expect(wordPieces('AstroError')).toEqual(['AstroError']);
    expect(wordPieces('#count')).toEqual(['count']);
    expect(wordPieces('aria-label')).toEqual(['aria', 'label']);
    expect(wordPieces('$store')).toEqual(['$store']);
    expect(wordPieces('naïve')).toEqual(['na', 've']);
    expect(wordPieces('日本')).toEqual([]);
    expect(wordsOf("obj['handler'] + <Button />; naïve")).toEqual(['obj', 'handler', 'Button', 'na', 've']);
  });

  it('never drops a fixture file that spells a name as a whole token (the simple reference)', async () => {
    const entries = await readdir(fixtures, { recursive: true, withFileTypes: true });
    const texts = await Promise.all(
      entries
        .filter((entry) => entry.isFile())
        .map((entry) => readFile(join(entry.parentPath, entry.name), 'utf8')),
    );
    const extra = ["const naïve = 1; obj['aria-label']; this.#count; <Button/>; 日本.x; $store"];
    let checked = 0;
    for (const text of [...texts, ...extra]) {
      const words = new Set(wordsOf(text));
      const names = new Set([
        ...(text.match(/[#$\p{ID_Start}][\p{ID_Continue}$-]*/gu) ?? []).slice(0, 200),
        'aria-label',
        '日本',
      ]);
      for (const name of names) {
        if (spellsAsToken(text, name)) {
          expect(snapshotMatches(words, name), name).toBe(true);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
