import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { measureAccuracy } from '../../support/language-service-oracle.js';

const shapes = [
  'commonjs',
  'commonjs-reexport',
  'esm',
  'tsx-library',
  'monorepo',
  'shadowed-member',
  'folder-index',
  'interface-members',
];

describe('JS/TS fixtures against the TypeScript LanguageService oracle', () => {
  for (const shape of shapes) {
    it(`${shape}: every definition, reference and import edge agrees`, async () => {
      const root = fileURLToPath(new URL(`../../fixtures/code-index/${shape}`, import.meta.url));
      const report = await measureAccuracy(root);
      expect(report.misses).toEqual([]);
      expect(report.symbols).toBeGreaterThan(0);
      expect(report.definitionsInFile.hits).toBe(report.definitionsInFile.asked);
      expect(report.definitionsFromUse.hits).toBe(report.definitionsFromUse.asked);
      expect(report.references.shared).toBe(report.references.expected);
      expect(report.importEdges.matched).toBe(report.importEdges.expected);
    });
  }
});
