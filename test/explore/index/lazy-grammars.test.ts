import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CodeIndex } from '../../../src/explore/index/code-index.js';
import { requestedGrammars } from '../../../src/explore/index/tree-sitter/tree-sitter-languages.js';

const fixture = (name: string): string =>
  fileURLToPath(new URL(`../../fixtures/code-index/${name}`, import.meta.url));

describe('grammars load per language, when a file of it is met', () => {
  it('loads no grammar for a JS/TS repo, only Python for one Python file, then the rest as the repo is indexed', async () => {
    const scripts = new CodeIndex({ root: fixture('commonjs') });
    await scripts.repoMap();
    await scripts.references('getFirstIndex');
    expect(requestedGrammars()).toEqual([]);

    // No parse cache: a parse cached by another test would need no grammar.
    const polyglot = new CodeIndex({ root: fixture('polyglot'), cache: false });
    await polyglot.symbols('python/pkg/core.py');
    expect(requestedGrammars()).toEqual(['python']);
    await polyglot.symbols('go/main.go');
    expect(requestedGrammars()).toEqual(['python', 'go']);
    await polyglot.importGraph();
    expect([...requestedGrammars()].sort()).toEqual(['c', 'cpp', 'go', 'java', 'python', 'rust']);
  });
});
