import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pages = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'));

/** The relative Markdown links of a file, without their `#anchor`. */
function relativeLinks(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!.split('#')[0]!)
    .filter((target) => target !== '' && !/^[a-z]+:/.test(target));
}

describe('the docs index (issue 17 item 13)', () => {
  it('the README links docs/README.md, which links every page of docs/', () => {
    expect(relativeLinks('README.md')).toContain('docs/README.md');
    const indexed = new Set(relativeLinks('docs/README.md').map((target) => target.replace(/^\.\//, '')));
    for (const page of pages.filter((name) => name !== 'README.md')) expect(indexed, page).toContain(page);
  });

  it('every relative link in the README and docs/ points at a file that exists', () => {
    for (const file of ['README.md', ...pages.map((page) => `docs/${page}`)]) {
      for (const target of relativeLinks(file)) {
        expect(existsSync(join(root, dirname(file), target)), `${file} -> ${target}`).toBe(true);
      }
    }
  });
});
