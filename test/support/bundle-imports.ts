import { readFileSync } from 'node:fs';

const dist = new URL('../../dist/', import.meta.url);
const importPattern =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every module specifier the bundle for `entry` (a file in dist/) loads, following its local chunks. */
export function specifiersOf(entry: string): Set<string> {
  const found = new Set<string>();
  const visited = new Set<string>();
  const visit = (file: string): void => {
    if (visited.has(file)) return;
    visited.add(file);
    const code = readFileSync(new URL(file, dist), 'utf8');
    for (const match of code.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2] ?? match[3]!;
      // Relative to the importing file: an entry in a folder (`temporal/workflow.js`) loads `../chunk-*.js`.
      if (specifier.startsWith('./') || specifier.startsWith('../'))
        visit(new URL(specifier, new URL(file, dist)).href.slice(dist.href.length));
      else found.add(specifier);
    }
  };
  visit(entry);
  return found;
}
