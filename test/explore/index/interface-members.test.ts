import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CodeIndex } from '../../../src/explore/index/code-index.js';
import { LanguageServiceOracle } from '../../support/language-service-oracle.js';

// An interface declaring `make_` and `extend_`, implemented by object literals typed by it: a
// factory returning `{ make_, extend_ }` that holds same-named functions, a typed constant with
// methods, a factory with arrow-function properties; the members used through the interface.
const root = fileURLToPath(new URL('../../fixtures/code-index/interface-members', import.meta.url));
const oracle = new LanguageServiceOracle(root);
const index = new CodeIndex({ root: oracle.root });

interface Site {
  readonly fileName: string;
  readonly position: number;
}

function lineOf(site: Site): string {
  const sourceFile = oracle.program.getSourceFile(site.fileName);
  const line = (sourceFile?.getLineAndCharacterOfPosition(site.position).line ?? -1) + 1;
  return `${oracle.relativePath(site.fileName)}:${line}`;
}

/** Every declaration of `name` under `path`: functions, interface members, object-literal and class members. */
function declarationsOf(name: string, path = ''): Site[] {
  const sites: Site[] = [];
  for (const fileName of oracle.files) {
    const sourceFile = oracle.program.getSourceFile(fileName);
    if (sourceFile === undefined || !oracle.relativePath(fileName).startsWith(path)) continue;
    const visit = (node: ts.Node): void => {
      const declared =
        ts.isFunctionDeclaration(node) ||
        ts.isMethodSignature(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isPropertyAssignment(node) ||
        ts.isPropertySignature(node);
      if (declared && node.name !== undefined && ts.isIdentifier(node.name) && node.name.text === name)
        sites.push({ fileName, position: node.name.getStart(sourceFile) });
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }
  return sites;
}

/** What the language service's `findReferences` lists from each declaration, the declarations themselves left out. */
function languageServiceReferences(declarations: readonly Site[]): string[] {
  const declared = new Set(declarations.map(lineOf));
  const found = new Set<string>();
  for (const declaration of declarations)
    for (const group of oracle.service.findReferences(declaration.fileName, declaration.position) ?? [])
      for (const entry of group.references)
        if (entry.isDefinition !== true)
          found.add(lineOf({ fileName: entry.fileName, position: entry.textSpan.start }));
  return [...found].filter((line) => !declared.has(line)).sort();
}

async function referencesOf(name: string, path?: string): Promise<string[]> {
  const result = await index.references(name, path === undefined ? {} : { path });
  return result.files
    .flatMap((file) => file.references.map((reference) => `${file.path}:${reference.line}`))
    .sort();
}

describe('Interface members implemented by object literals, against the language service', () => {
  for (const name of ['extend_', 'make_']) {
    it(`${name}: the uses of every declaration of the name, the function an object literal holds included`, async () => {
      const declarations = declarationsOf(name);
      expect(declarations.length).toBe(4);
      const expected = languageServiceReferences(declarations);
      expect(
        expected.some(
          (line) => line.startsWith('src/observable-object.ts') || line === 'src/flow-annotation.ts:16',
        ),
      ).toBe(true);
      expect(await referencesOf(name)).toEqual(expected);
    });

    it(`${name}: asked in a file of object literals, the uses of its members`, async () => {
      const path = 'src/action-annotation.ts';
      const expected = languageServiceReferences(declarationsOf(name, path));
      expect(expected.length).toBeGreaterThan(2);
      expect(await referencesOf(name, path)).toEqual(expected);
    });

    it(`Annotation.${name}: the uses of the interface member`, async () => {
      const expected = languageServiceReferences(declarationsOf(name, 'src/annotation.ts'));
      expect(await referencesOf(`Annotation.${name}`)).toEqual(expected);
    });
  }
});
