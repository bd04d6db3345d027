import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeIndex } from '../../../src/explore/index/code-index.js';
import { CodeIndexError } from '../../../src/explore/index/code-index-error.js';

const shapes = `import { helper } from './a';

export interface Shape {
  area(): number;
}

export type Id = string | number;

export class Circle implements Shape {
  constructor(private readonly radius: number) {}

  area(): number {
    return Math.PI * this.radius ** 2;
  }

  static unit(): Circle {
    return new Circle(1);
  }
}

export function describe(shape: Shape): string {
  return \`area \${helper(shape.area())}\`;
}

export const double = (value: number): number => value * 2;

const internal = 42;

export default Circle;
`;

const python = `import os
from typing import List, Optional

MAX_SIZE = 10

class Greeter:
    def __init__(self, name):
        self.name = name

    def greet(self):
        return f"hi {self.name}"

def _private():
    pass

async def fetch(url):
    return url
`;

let root: string;
let index: CodeIndex;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'code-index-fixture-'));
  await writeFile(
    join(root, 'a.ts'),
    'export const x = 1;\nexport function helper(value: number): number {\n  return value + x;\n}\n',
  );
  await writeFile(
    join(root, 'index.ts'),
    "export { x } from './a';\nexport { helper as assist } from './a';\n",
  );
  await writeFile(
    join(root, 'use.ts'),
    "import { x, assist } from './index';\nexport const y = x + 1;\nassist(y);\n",
  );
  await writeFile(join(root, 'shapes.ts'), shapes);
  await writeFile(join(root, 'greeter.py'), python);
  await writeFile(join(root, 'notes.txt'), 'not code\n');
  index = new CodeIndex({ root });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('CodeIndex on a TypeScript fixture', () => {
  it('lists symbols with exact kinds, export flags and line ranges', async () => {
    const { symbols, engine, language } = await index.symbols('shapes.ts');
    expect({ engine, language }).toEqual({ engine: 'typescript', language: 'typescript' });
    const summary = symbols.map((symbol) => [
      symbol.container === undefined ? symbol.name : `${symbol.container}.${symbol.name}`,
      symbol.kind,
      symbol.exported,
      symbol.startLine,
      symbol.endLine,
    ]);
    expect(summary).toEqual([
      ['Shape', 'interface', true, 3, 5],
      ['Shape.area', 'method', false, 4, 4],
      ['Id', 'type', true, 7, 7],
      ['Circle', 'class', true, 9, 19],
      ['Circle.constructor', 'constructor', false, 10, 10],
      ['Circle.area', 'method', false, 12, 14],
      ['Circle.unit', 'method', false, 16, 18],
      ['describe', 'function', true, 21, 23],
      ['double', 'function', true, 25, 25],
      ['internal', 'variable', false, 27, 27],
    ]);
    expect(symbols.find((symbol) => symbol.name === 'Circle')?.isDefault).toBe(true);
  });

  it('outlines classes with members and signatures, plus imports and exports', async () => {
    const structure = await index.structure('shapes.ts');
    const circle = structure.outline.find((entry) => entry.name === 'Circle');
    expect(circle?.signature).toBe('export class Circle implements Shape');
    expect(circle?.members?.map((member) => `${member.startLine} ${member.signature}`)).toEqual([
      '10 constructor(private readonly radius: number)',
      '12 area(): number',
      '16 static unit(): Circle',
    ]);
    expect(structure.outline.find((entry) => entry.name === 'double')?.signature).toBe(
      'export const double = (value: number): number =>',
    );
    expect(structure.imports).toEqual([{ specifier: './a', names: ['helper'], line: 1, resolved: 'a.ts' }]);
    expect(structure.exports.map((record) => record.name)).toEqual([
      'Shape',
      'Id',
      'default',
      'describe',
      'double',
    ]);
  });

  it('resolves extensionless and index imports and lists re-exports', async () => {
    const { imports } = await index.imports('use.ts');
    expect(imports).toEqual([
      {
        specifier: './index',
        type: 'import',
        names: ['x', 'assist'],
        line: 1,
        typeOnly: false,
        resolved: 'index.ts',
      },
    ]);
    const reExports = await index.imports('index.ts');
    expect(reExports.imports.map((record) => [record.type, record.names, record.resolved])).toEqual([
      ['export-from', ['x'], 'a.ts'],
      ['export-from', ['helper'], 'a.ts'],
    ]);
  });

  it('follows a re-export chain a.ts -> index.ts -> use.ts to the real declaration', async () => {
    const throughUse = await index.definitions('x', { path: 'use.ts' });
    expect(
      throughUse.map((definition) => `${definition.path}:${definition.line}:${definition.kind}`),
    ).toEqual(['a.ts:1:variable']);
    const renamed = await index.definitions('assist');
    expect(renamed.map((definition) => `${definition.path}:${definition.line}`)).toEqual(['a.ts:2']);
    expect(renamed[0]?.snippet.split('\n')[0]).toBe('export function helper(value: number): number {');
  });

  it('finds references across the chain', async () => {
    const result = await index.references('x');
    const locations = result.files.flatMap((file) =>
      file.references.map((reference) => `${file.path}:${reference.line}`),
    );
    expect(locations).toEqual(['a.ts:3', 'index.ts:1', 'use.ts:1', 'use.ts:2']);
    const withDeclaration = await index.references('x', { includeDeclaration: true });
    expect(withDeclaration.total).toBe(result.total + 1);
  });

  it('sees an edited file on the next query (cache keyed by mtime and size)', async () => {
    await writeFile(join(root, 'a.ts'), '// moved down\nexport const x = 1;\n');
    const [definition] = await index.definitions('x');
    expect(definition?.line).toBe(2);
    const symbols = await index.symbols('a.ts');
    expect(symbols.symbols.map((symbol) => symbol.name)).toEqual(['x']);
  });

  it('refuses files in no supported language with a CodeIndexError', async () => {
    await expect(index.symbols('notes.txt')).rejects.toBeInstanceOf(CodeIndexError);
    await expect(index.symbols('notes.txt')).rejects.toThrow(/read_file/);
  });
});

describe('CodeIndex on Python (tree-sitter grammar)', () => {
  it('finds classes, methods, functions and constants with line ranges', async () => {
    const { symbols, engine } = await index.symbols('greeter.py');
    expect(engine).toBe('tree-sitter');
    expect(
      symbols.map((symbol) => [
        symbol.container ?? '',
        symbol.name,
        symbol.kind,
        symbol.exported,
        symbol.startLine,
        symbol.endLine,
      ]),
    ).toEqual([
      ['', 'MAX_SIZE', 'variable', true, 4, 4],
      ['', 'Greeter', 'class', true, 6, 11],
      ['Greeter', '__init__', 'method', false, 7, 8],
      ['Greeter', 'greet', 'method', false, 10, 11],
      ['', '_private', 'function', false, 13, 14],
      ['', 'fetch', 'function', true, 16, 17],
    ]);
    const structure = await index.structure('greeter.py');
    expect(structure.imports.map((record) => record.specifier)).toEqual(['os', 'typing']);
    expect(
      structure.outline.find((entry) => entry.name === 'Greeter')?.members?.map((member) => member.name),
    ).toEqual(['__init__', 'greet']);
  });

  it('finds definitions and whole-word references in Python', async () => {
    const [definition] = await index.definitions('Greeter');
    expect(definition).toMatchObject({ path: 'greeter.py', line: 6, kind: 'class' });
    const references = await index.references('greet', { includeDeclaration: true });
    expect(references.files.map((file) => file.path)).toEqual(['greeter.py']);
    expect(references.files[0]?.references.map((reference) => reference.line)).toEqual([10]);
  });
});
