/**
 * Scores the code index against the TypeScript LanguageService oracle on any JS/TS repository:
 *
 *   npx tsx test/support/measure-accuracy.ts <repository> [symbols=150] [misses shown=20]
 *
 * Prints definitions (asked in the declaring file and from a use in another file), reference
 * recall and precision, and import edges, then the first misses.
 */
import { measureAccuracy } from './language-service-oracle.js';

const [root, symbols = '150', shown = '20'] = process.argv.slice(2);
if (root === undefined) {
  console.error('usage: npx tsx test/support/measure-accuracy.ts <repository> [symbols] [misses shown]');
  process.exit(2);
}
const started = performance.now();
const report = await measureAccuracy(root, { maxSymbols: Number(symbols) });
const percent = (part: number, whole: number): string =>
  whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)}%`;
const { definitionsInFile, definitionsFromUse, references, importEdges } = report;
console.log(
  `${root}: ${report.symbols} symbols sampled (${((performance.now() - started) / 1000).toFixed(0)} s)`,
);
console.log(
  `  definitions in the declaring file ${percent(definitionsInFile.hits, definitionsInFile.asked)} (${definitionsInFile.hits}/${definitionsInFile.asked})`,
);
console.log(
  `  definitions from a use elsewhere  ${percent(definitionsFromUse.hits, definitionsFromUse.asked)} (${definitionsFromUse.hits}/${definitionsFromUse.asked})`,
);
console.log(
  `  references recall ${percent(references.shared, references.expected)}, precision ${percent(references.shared, references.found)} ` +
    `(${references.shared} shared, ${references.expected} expected, ${references.found} found)`,
);
console.log(
  `  import edges ${percent(importEdges.matched, importEdges.expected)} (${importEdges.matched}/${importEdges.expected}, ${importEdges.extra} extra)`,
);
for (const miss of report.misses.slice(0, Number(shown))) console.log(`    ${miss}`);
