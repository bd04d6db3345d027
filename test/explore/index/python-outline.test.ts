import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ParsedFile } from '../../../src/explore/index/code-symbol.js';
import { Sandbox } from '../../../src/explore/sandbox/sandbox.js';
import { python } from '../../../src/explore/index/tree-sitter/languages/python.js';
import { outlinePython } from '../../../src/explore/index/tree-sitter/languages/python-outline.js';
import {
  parseWithTreeSitter,
  prepareLanguage,
} from '../../../src/explore/index/tree-sitter/parse-with-tree-sitter.js';
import type { PreparedLanguage } from '../../../src/explore/index/tree-sitter/parse-with-tree-sitter.js';
import { loadGrammar } from '../../../src/explore/index/tree-sitter/tree-sitter-runtime.js';
import { serviceUnavailable } from '../../support/service-availability.js';

const fixtures = fileURLToPath(new URL('../../fixtures/code-index/python-names', import.meta.url));

const grammar = await loadGrammar(python.grammarPackage, python.wasmFile);
const withOutline = prepareLanguage(python, grammar);
// The same language without the outline: every file goes through the tags query, as before.
const { outline: _outline, ...queryOnlySpec } = python;
const queryOnly = prepareLanguage(queryOnlySpec, grammar);

/** A parsed file as comparable text: maps as entry lists, so their order counts too. */
function dump(file: ParsedFile): string {
  return JSON.stringify(
    {
      ...file,
      references: [...file.references],
      occurrences: [...(file.occurrences ?? new Map<string, readonly number[]>())],
    },
    null,
    1,
  );
}

/** Whether the outline handles the file itself (its tree has no errors) rather than leaving it to the query. */
function outlined(text: string): boolean {
  const tree = grammar.parser.parse(text);
  if (tree === null) throw new Error('no tree');
  try {
    return outlinePython(tree.rootNode, text) !== undefined;
  } finally {
    tree.delete();
  }
}

function parse(prepared: PreparedLanguage, path: string, text: string): ParsedFile {
  const parsed = parseWithTreeSitter(prepared, path, text);
  if (parsed === undefined) throw new Error(`${path}: no tags query`);
  return parsed;
}

/** The files whose outline differs from the query's, with the first differing line of each. */
function differences(files: readonly { readonly path: string; readonly text: string }[]): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    const fast = dump(parse(withOutline, path, text)).split('\n');
    const slow = dump(parse(queryOnly, path, text)).split('\n');
    const line = fast.findIndex((value, index) => value !== slow[index]);
    if (line !== -1 || fast.length !== slow.length)
      found.push(`${path}: outline ${fast[line] ?? '(end)'} / query ${slow[line] ?? '(end)'}`);
  }
  return found;
}

describe('Python outline: the tags query without the query', () => {
  it('gives exactly what the query gives on strings, f-strings, numbers, soft keywords and nesting', async () => {
    const text = await readFile(`${fixtures}/tricky.py`, 'utf8');
    expect(outlined(text)).toBe(true);
    expect(differences([{ path: 'tricky.py', text }])).toEqual([]);
    const parsed = parse(withOutline, 'tricky.py', text);
    const names = new Set(parsed.references.keys());
    // Code inside f-string braces is code; the conversion, format spec text, and strings are not.
    for (const name of ['width', 'fill', 'size', 'inner', 'deep', 'multi_line_name', 'lambda_free', 'café'])
      expect(names).toContain(name);
    for (const name of ['r', 'literal', 'notvar', 'fake_in_docstring', 'fake_in_comment', 'helper_doc_word'])
      expect(names).not.toContain(name);
    // Soft keywords are names where they are used as names, keywords where they are keywords.
    expect(parsed.occurrences?.get('type')).toEqual([32, 5, 89, 7]); // not `type Alias[T] = ...` (88)
    expect(parsed.occurrences?.get('match')).toEqual([33, 5, 89, 13]); // not `match command:` (78)
    expect(parsed.occurrences?.get('case')).toEqual([89, 23]);
    expect(parsed.occurrences?.get('_')).toEqual([89, 20]); // `_ = ...` (14) declares it
    expect(
      parsed.symbols.map((symbol) => `${symbol.container ?? ''}.${symbol.name} ${symbol.kind}`),
    ).toContain('Visible.value.inner_helper function');
  });

  it('leaves a file with syntax errors to the query, which looks everywhere', async () => {
    const text = 'def ok():\n    return 1\n\nclass Broken(:\n    def inside(self): pass\n';
    expect(outlined(text)).toBe(false);
    expect(parse(withOutline, 'broken.py', text).symbols.map((symbol) => symbol.name)).toEqual(
      parse(queryOnly, 'broken.py', text).symbols.map((symbol) => symbol.name),
    );
  });
});

const extraRoots = (process.env['CODE_INDEX_PYTHON_ROOTS'] ?? '').split(':').filter((root) => root !== '');

/** pip as the system Python ships it (as in the `ast` oracle test), plus any roots in CODE_INDEX_PYTHON_ROOTS. */
function realPackages(): string[] | string {
  const probe = spawnSync(
    'python3',
    [
      '-c',
      'import os\ntry:\n import pip as m\nexcept ImportError:\n import email as m\nprint(os.path.dirname(m.__file__))',
    ],
    { encoding: 'utf8', timeout: 10_000 },
  );
  if (probe.error !== undefined || probe.status !== 0)
    return `python3 did not run: ${probe.error?.message ?? probe.stderr}`;
  return [probe.stdout.trim(), ...extraRoots];
}

const packages = realPackages();
const unavailable = typeof packages === 'string' ? serviceUnavailable('python3', packages) : undefined;

describe.skipIf(unavailable !== undefined)('Python outline on a real package', () => {
  it(
    'gives byte-identical symbols, imports and references to the query on every file',
    async () => {
      if (typeof packages === 'string') return;
      for (const root of packages) {
        const sandbox = new Sandbox({ root });
        const paths = (await sandbox.listFiles()).filter((path) => path.endsWith('.py'));
        // Files over the sandbox's size limit are not indexed, so not compared either.
        const read = await Promise.all(
          paths.map(async (path) => ({
            path,
            text: (await sandbox.readText(path).catch(() => undefined))?.text,
          })),
        );
        const files = read.filter((file): file is { path: string; text: string } => file.text !== undefined);
        const outlinedFiles = files.filter((file) => outlined(file.text)).length;
        console.log(
          `python outline on ${root}: ${files.length} files, ${outlinedFiles} without syntax errors`,
        );
        expect(outlinedFiles).toBeGreaterThan(files.length * 0.9);
        expect(differences(files)).toEqual([]);
      }
    },
    extraRoots.length === 0 ? 120_000 : 3_600_000,
  );
});
