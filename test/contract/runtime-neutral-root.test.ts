import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dist = new URL('../../dist/', import.meta.url);
const importPattern =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every module specifier the bundle for `entry` loads, following its local chunks. */
function specifiersOf(entry: string): Set<string> {
  const found = new Set<string>();
  const visited = new Set<string>();
  const visit = (file: string): void => {
    if (visited.has(file)) return;
    visited.add(file);
    const code = readFileSync(new URL(file, dist), 'utf8');
    for (const match of code.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2] ?? match[3]!;
      if (specifier.startsWith('./')) visit(specifier.slice(2));
      else found.add(specifier);
    }
  };
  visit(entry);
  return found;
}

describe('the root entry is runtime-neutral', () => {
  for (const file of ['index.js', 'index.cjs', 'testing.js']) {
    it(`${file} imports nothing Node-only and no provider SDK`, () => {
      const specifiers = [...specifiersOf(file)];
      const nodeOnly = specifiers.filter(
        (specifier) =>
          specifier.startsWith('node:') ||
          ['fs', 'path', 'child_process', 'os', 'worker_threads', 'typescript'].includes(specifier),
      );
      expect(nodeOnly).toEqual([]);
      expect(
        specifiers.filter((specifier) => specifier === 'openai' || specifier.startsWith('openai/')),
      ).toEqual([]);
    });
  }

  it('does import the runtime dependencies it declares (the scan works)', () => {
    expect([...specifiersOf('index.js')]).toEqual(
      expect.arrayContaining(['eventemitter3', '@cfworker/json-schema']),
    );
  });
});
