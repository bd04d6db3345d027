import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CodeIndex } from '../../../src/explore/index/code-index.js';
import { createCodeTools } from '../../../src/explore/create-code-tools.js';
import { python } from '../../../src/explore/index/tree-sitter/languages/python.js';
import {
  parseWithTreeSitter,
  prepareLanguage,
} from '../../../src/explore/index/tree-sitter/parse-with-tree-sitter.js';
import { parseWithGrammar } from '../../../src/explore/index/tree-sitter/tree-sitter-languages.js';
import { compileQuery, loadGrammar } from '../../../src/explore/index/tree-sitter/tree-sitter-runtime.js';
import { MissingDependencyError } from '../../../src/errors/missing-dependency-error.js';

// Small projects in Python, Go, Rust, Java, C and C++ (and one TS file) side by side.
const root = fileURLToPath(new URL('../../fixtures/code-index/polyglot', import.meta.url));
const index = new CodeIndex({ root });
const context = { signal: new AbortController().signal } as never;

async function symbolTable(path: string): Promise<string[]> {
  const { symbols, engine } = await index.symbols(path);
  expect(engine).toBe('tree-sitter');
  return symbols.map(
    (symbol) =>
      `${symbol.container === undefined ? '' : `${symbol.container}.`}${symbol.name} ${symbol.kind}${symbol.exported ? ' exported' : ''} ${symbol.startLine}-${symbol.endLine}`,
  );
}

async function importsOf(path: string): Promise<string[]> {
  const { imports } = await index.imports(path);
  return imports.map(
    (record) =>
      `${record.specifier} -> ${record.resolvedFiles?.join(', ') ?? record.resolved ?? '(package)'}`,
  );
}

async function referencesOf(name: string, path?: string): Promise<string[]> {
  const result = await index.references(name, path === undefined ? {} : { path });
  return result.files.flatMap((file) => file.references.map((reference) => `${file.path}:${reference.line}`));
}

async function definitionsOf(name: string, path?: string): Promise<string[]> {
  const found = await index.definitions(name, path === undefined ? {} : { path });
  return found.map((definition) => `${definition.path}:${definition.line} ${definition.kind}`);
}

describe('Python through tree-sitter', () => {
  it('finds classes, methods, nested functions and classes, decorated definitions, with exact lines', async () => {
    // Decorated definitions start at `def` and trailing comments are not part of a body, as in Python's ast.
    expect(await symbolTable('python/pkg/core.py')).toEqual([
      'LIMIT variable exported 4-4',
      '_cached function 7-8',
      'Engine class exported 11-31',
      'Engine.name property 14-14',
      'Engine.__init__ method 16-17',
      'Engine.fast method 20-21',
      'Engine.start method 23-27',
      'Engine.start.ignite function 24-25',
      'Engine.Part class 29-31',
      'Engine.Part.weight method 30-31',
      'run function exported 35-37',
    ]);
  });

  it('resolves absolute, relative and package imports to files in the package', async () => {
    expect(await importsOf('python/pkg/cli.py')).toEqual([
      'os -> (package)',
      'pkg.util.text -> python/pkg/util/text.py',
      '. -> python/pkg/__init__.py, python/pkg/core.py', // from . import core: the package and the submodule
      '.util.text -> python/pkg/util/text.py',
      '.core -> python/pkg/core.py',
    ]);
    expect(await importsOf('python/app.py')).toEqual(['pkg -> python/pkg/__init__.py']);
  });

  it('follows a use to its declaration through a package re-export, and finds references outside strings and comments', async () => {
    expect(await definitionsOf('Engine', 'python/app.py')).toEqual(['python/pkg/core.py:11 class']);
    expect(await definitionsOf('slugify', 'python/pkg/cli.py')).toEqual([
      'python/pkg/util/text.py:1 function',
    ]);
    // Not the docstrings (core.py:1, 12), the comment (core.py:26) or the string (app.py:4).
    expect(await referencesOf('Engine')).toEqual([
      'python/app.py:1',
      'python/app.py:3',
      'python/pkg/__init__.py:2',
      'python/pkg/cli.py:9',
      'python/pkg/core.py:36',
    ]);
  });
});

describe('Go through tree-sitter', () => {
  it('makes methods members of their receiver type and marks capitalised names exported', async () => {
    expect(await symbolTable('go/internal/cart/cart.go')).toEqual([
      'Cart struct exported 4-7',
      'Cart.Items property 5-5',
      'Cart.count property 6-6',
      'New function exported 9-11',
      'Cart.Add method 13-16',
    ]);
    const structure = await index.structure('go/internal/cart/cart.go');
    expect(
      structure.outline.find((entry) => entry.name === 'Cart')?.members?.map((member) => member.name),
    ).toEqual(['Items', 'count', 'Add']);
  });

  it("resolves imports through go.mod's module path to the package's files", async () => {
    expect(await importsOf('go/main.go')).toEqual([
      'fmt -> (package)',
      'example.com/shop/internal/cart -> go/internal/cart/cart.go, go/internal/cart/total.go',
    ]);
    expect(await definitionsOf('Total', 'go/main.go')).toEqual(['go/internal/cart/total.go:3 function']);
    // The same package sees Cart unimported; main.go's string "cart.New" and cart.go's comment are no references.
    expect(await referencesOf('Cart')).toEqual([
      'go/internal/cart/cart.go:9',
      'go/internal/cart/cart.go:10',
      'go/internal/cart/cart.go:13',
      'go/internal/cart/total.go:3',
    ]);
    expect(await referencesOf('New')).toEqual(['go/main.go:10']);
  });
});

describe('Rust through tree-sitter', () => {
  it('makes impl methods members of their type', async () => {
    expect(await symbolTable('rust/src/store.rs')).toEqual([
      'Store struct exported 4-6',
      'Store.items property 5-5',
      'Store.new method 9-11',
      'Store.add method 13-15',
    ]);
  });

  it('resolves mod, use crate::, uniform paths and the crate by name', async () => {
    expect(await importsOf('rust/src/lib.rs')).toEqual([
      'self::store -> rust/src/store.rs',
      'self::util -> rust/src/util.rs',
      'store -> rust/src/store.rs',
    ]);
    expect(await importsOf('rust/src/store.rs')).toEqual(['crate::util -> rust/src/util.rs']);
    expect(await importsOf('rust/src/main.rs')).toEqual(['inventory -> rust/src/lib.rs']);
    expect(await referencesOf('normalize')).toEqual(['rust/src/store.rs:1', 'rust/src/store.rs:14']);
    expect(await definitionsOf('normalize', 'rust/src/store.rs')).toEqual(['rust/src/util.rs:1 function']);
  });
});

describe('Java through tree-sitter', () => {
  it('resolves imports by package path, wildcards and static imports', async () => {
    expect(await importsOf('java/src/main/java/com/acme/App.java')).toEqual([
      'com.acme.model.Order -> java/src/main/java/com/acme/model/Order.java',
      'com.acme.util -> java/src/main/java/com/acme/util/Strings.java',
      'com.acme.util.Strings -> java/src/main/java/com/acme/util/Strings.java',
    ]);
    expect(await definitionsOf('Order', 'java/src/main/java/com/acme/App.java')).toEqual([
      'java/src/main/java/com/acme/model/Order.java:3 class',
    ]);
    // Helper is in App's package: seen without an import.
    expect(await definitionsOf('Helper', 'java/src/main/java/com/acme/App.java')).toEqual([
      'java/src/main/java/com/acme/Helper.java:5 class',
    ]);
    expect(await referencesOf('Order', 'java/src/main/java/com/acme/model/Order.java')).toEqual([
      'java/src/main/java/com/acme/App.java:3',
      'java/src/main/java/com/acme/App.java:10',
      'java/src/main/java/com/acme/Helper.java:3',
      'java/src/main/java/com/acme/Helper.java:6',
    ]);
  });
});

describe('C and C++ through tree-sitter', () => {
  it('finds prototypes, definitions, static functions, structs and macros; resolves includes', async () => {
    expect(await symbolTable('c/src/util.c')).toEqual(['clamp function 3-5', 'add function exported 7-10']);
    expect(await symbolTable('c/include/mylib/util.h')).toEqual([
      'MYLIB_UTIL_H variable exported 2-2',
      'LIMIT variable exported 4-4',
      'point struct exported 6-9',
      'point.x property 7-7',
      'point.y property 8-8',
      'add function exported 11-11',
    ]);
    expect(await importsOf('c/src/main.c')).toEqual([
      '<stdio.h> -> (package)',
      '<mylib/util.h> -> c/include/mylib/util.h',
    ]);
    expect(await definitionsOf('add', 'c/src/main.c')).toEqual(['c/include/mylib/util.h:11 function']);
  });

  it('parses a C++ header as C++ and puts out-of-class methods in their class', async () => {
    const header = await index.symbols('c/src/shapes.h');
    expect(header.language).toBe('cpp');
    expect(await symbolTable('c/src/shapes.cpp')).toEqual([
      'shapes namespace exported 3-11',
      'shapes.Circle.Circle method 5-5',
      'shapes.Circle.area method 7-9',
    ]);
    expect(await definitionsOf('Circle.area')).toEqual([
      'c/src/shapes.cpp:7 method',
      'c/src/shapes.h:8 method',
    ]);
  });
});

describe('Mixed-language repository', () => {
  it('ranks files of every language together in one repo map', async () => {
    const map = await index.repoMap({ maxTokens: 2048 });
    const languages = new Set(map.files.map((file) => file.path.split('/')[0]));
    expect([...languages].sort()).toEqual(['c', 'go', 'java', 'python', 'rust', 'web']);
    expect(map.text).toContain('class Engine');
    expect(map.text).toContain('func New() *Cart');
  });

  it('import tools list modules the repo resolves as repo files, not as packages', async () => {
    const tools = createCodeTools({ root, tools: ['get_imports', 'import_graph'] });
    const imports = String(await tools.get_imports?.execute({ path: 'python/pkg/cli.py' }, context));
    expect(imports).toContain('"." -> python/pkg/__init__.py + python/pkg/core.py');
    expect(imports).toContain('"os" (package)');
    const graph = String(await tools.import_graph?.execute({ path: 'python/pkg/cli.py' }, context));
    expect(graph).toContain('Packages: os\n');
    expect(graph).toContain('  python/pkg/util/text.py (L2)');
  });

  it('the tools say which parser read the file', async () => {
    const tools = createCodeTools({ root, tools: ['get_symbols', 'get_structure'] });
    const symbols = await tools.get_symbols?.execute({ path: 'python/pkg/core.py' }, context);
    expect(String(symbols)).toContain('(python, tree-sitter grammar)');
    expect(String(symbols)).toContain('    function Engine.start.ignite L24-25');
    const structure = String(await tools.get_structure?.execute({ path: 'python/pkg/core.py' }, context));
    expect(structure).toContain('      L24-25 function ignite: def ignite(power)');
  });
});

describe('One bad query or grammar never takes a tool down', () => {
  it('drops a query pattern the grammar does not know and keeps the others (query drift)', async () => {
    const grammar = await loadGrammar(python.grammarPackage, python.wasmFile);
    const compiled = compileQuery(
      grammar,
      `(function_definition name: (identifier) @name) @definition.function\n(no_such_node name: (identifier) @name) @definition.class`,
    );
    expect(compiled.query).toBeDefined();
    expect(compiled.dropped).toHaveLength(1);
    expect(compiled.dropped[0]).toContain('no_such_node');
    // Python without its outline: every file goes through the query.
    const { outline: _outline, ...queryOnly } = python;
    const driftedQuery = `${python.tagsQuery}\n(old_node_name) @definition.class`;
    const drifted = prepareLanguage({ ...queryOnly, tagsQuery: driftedQuery }, grammar);
    const text = await readFile(`${root}/python/pkg/core.py`, 'utf8');
    const parsed = parseWithTreeSitter(drifted, 'python/pkg/core.py', text);
    expect(parsed?.symbols.map((symbol) => symbol.name)).toContain('ignite');
    expect(parsed?.notice).toMatch(
      /1 python query pattern\(s\) do not fit the installed "tree-sitter-python"/,
    );
    // With the outline, only a file with a syntax error is read by the query, and only it says so.
    const outlined = prepareLanguage({ ...python, tagsQuery: driftedQuery }, grammar);
    expect(parseWithTreeSitter(outlined, 'python/pkg/core.py', text)?.notice).toBeUndefined();
    const broken = parseWithTreeSitter(outlined, 'broken.py', `${text}\nclass Broken(:\n    pass\n`);
    expect(broken?.symbols.map((symbol) => symbol.name)).toContain('ignite');
    expect(broken?.notice).toMatch(/1 python query pattern\(s\) do not fit/);
  });

  it('falls back to patterns, and says why, when a grammar package is missing or cannot load', async () => {
    const missing = { ...python, grammarPackage: 'tree-sitter-not-installed-anywhere' };
    await expect(loadGrammar(missing.grammarPackage, missing.wasmFile)).rejects.toBeInstanceOf(
      MissingDependencyError,
    );
    const text = 'class Greeter:\n    def greet(self):\n        return 1\n';
    const parsed = await parseWithGrammar('python', 'greeter.py', text, { python: missing });
    expect(parsed?.engine).toBe('regex');
    expect(parsed?.symbols.map((symbol) => symbol.name)).toEqual(['Greeter', 'greet']);
    expect(parsed?.notice).toContain('npm install tree-sitter-not-installed-anywhere');
    // A file that is not a grammar: web-tree-sitter cannot load it.
    const broken = { ...python, language: 'python-broken', wasmFile: 'package.json' };
    const fallback = await parseWithGrammar('python', 'greeter.py', text, { python: broken });
    expect(fallback?.engine).toBe('regex');
    expect(fallback?.notice).toContain('could not be loaded by web-tree-sitter');
  });
});

describe('A parse that throws', () => {
  it('falls back to patterns for that file, with a note', async () => {
    const throwing = {
      ...python,
      language: 'python-throwing',
      collectImports: () => {
        throw new Error('simulated trap');
      },
    };
    const parsed = await parseWithGrammar('python', 'greeter.py', 'def greet():\n    return 1\n', {
      python: throwing,
    });
    expect(parsed?.engine).toBe('regex');
    expect(parsed?.symbols.map((symbol) => symbol.name)).toEqual(['greet']);
    expect(parsed?.notice).toContain('simulated trap');
  });
});
