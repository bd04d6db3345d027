/**
 * The TypeScript LanguageService as an oracle for the code index on a JS/TS repository, built
 * independently of the index: its own file walk, each file's nearest tsconfig (TypeScript's own
 * `extends`, `paths` and `baseUrl` handling through `ts.resolveModuleName`), workspace packages
 * (named `package.json` folders, as npm/pnpm/yarn link them) tried as TypeScript resolves a
 * package folder, then `src/index`.
 *
 * - Definitions: an exported top-level declaration's name line; from a use in another file, go
 *   to definition repeated from each result until it stops moving (aliases, re-exports, export
 *   objects).
 * - References: `findReferences` from the declaration, plus every same-named identifier whose
 *   repeated go to definition lands on the declaration.
 * - Import edges: `ts.resolveModuleName` of every import, export-from, `require()` and `import()`,
 *   `.json` files included (`resolveJsonModule`).
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { CodeIndex } from '../../src/explore/index/code-index.js';

const excludedNames = new Set([
  'node_modules',
  '.git',
  'dist',
  'build',
  'coverage',
  'out',
  '.next',
  'vendor',
]);
const scriptPattern = /\.(?:[cm]?[jt]sx?)$/;
const maxSymbols = 400;

function walk(root: string, directory = root, files: string[] = []): string[] {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (excludedNames.has(entry.name)) continue;
    const path = join(directory, entry.name);
    if (entry.isDirectory()) walk(root, path, files);
    else if (entry.isFile() && scriptPattern.test(entry.name) && statSync(path).size < 2 * 1024 * 1024)
      files.push(path);
  }
  return files;
}

interface Location {
  readonly path: string;
  readonly line: number;
}

const key = (location: Location): string => `${location.path}:${location.line}`;

/** The oracle over one repository root. */
export class LanguageServiceOracle {
  readonly root: string;
  readonly files: readonly string[];
  readonly service: ts.LanguageService;
  readonly program: ts.Program;
  readonly #known: Set<string>;
  readonly #options = new Map<string, ts.CompilerOptions>();
  readonly #workspaces = new Map<string, string>();

  constructor(directory: string) {
    const root = realpathSync(directory);
    this.root = root;
    this.files = walk(root);
    this.#known = new Set(this.files);
    for (const manifest of this.#manifests(root)) {
      try {
        const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name;
        if (typeof name === 'string' && !this.#workspaces.has(name))
          this.#workspaces.set(name, dirname(manifest));
      } catch {
        // not JSON: no package
      }
    }
    const base: ts.CompilerOptions = {
      allowJs: true,
      checkJs: false,
      noLib: true,
      noEmit: true,
      types: [],
      jsx: ts.JsxEmit.Preserve,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      allowImportingTsExtensions: true,
    };
    const host: ts.LanguageServiceHost = {
      getScriptFileNames: () => [...this.files],
      getScriptVersion: () => '1',
      getScriptSnapshot: (name) =>
        this.#known.has(name) ? ts.ScriptSnapshot.fromString(readFileSync(name, 'utf8')) : undefined,
      getCurrentDirectory: () => root,
      getCompilationSettings: () => base,
      getDefaultLibFileName: () => '/oracle-no-lib.d.ts',
      fileExists: (name) => this.#known.has(name),
      readFile: (name) => (this.#known.has(name) ? readFileSync(name, 'utf8') : undefined),
      resolveModuleNameLiterals: (literals, containingFile) =>
        literals.map((literal) => {
          const resolved = this.resolve(containingFile, literal.text);
          return {
            resolvedModule:
              resolved === undefined
                ? undefined
                : {
                    resolvedFileName: resolved,
                    extension: extensionOf(resolved),
                    isExternalLibraryImport: false,
                  },
          };
        }),
    };
    this.service = ts.createLanguageService(host, ts.createDocumentRegistry());
    const program = this.service.getProgram();
    if (program === undefined) throw new Error('the oracle built no program');
    this.program = program;
  }

  #manifests(directory: string, found: string[] = []): string[] {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (excludedNames.has(entry.name)) continue;
      const path = join(directory, entry.name);
      if (entry.isDirectory()) this.#manifests(path, found);
      else if (entry.name === 'package.json') found.push(path);
    }
    return found;
  }

  /** The compiler options of the nearest tsconfig.json or jsconfig.json above a file (TypeScript's own parsing). */
  #optionsFor(file: string): ts.CompilerOptions {
    for (let directory = dirname(file); directory.startsWith(this.root); directory = dirname(directory)) {
      const cached = this.#options.get(directory);
      if (cached !== undefined) return cached;
      for (const name of ['tsconfig.json', 'jsconfig.json']) {
        const config = join(directory, name);
        if (!existsSync(config)) continue;
        const parsed = ts.getParsedCommandLineOfConfigFile(
          config,
          {},
          {
            ...ts.sys,
            onUnRecoverableConfigFileDiagnostic: () => undefined,
          },
        );
        const options: ts.CompilerOptions = {
          ...(parsed?.options ?? {}),
          allowJs: true,
          moduleResolution: ts.ModuleResolutionKind.Bundler,
          module: ts.ModuleKind.ESNext,
        };
        this.#options.set(directory, options);
        return options;
      }
      if (directory === this.root) break;
    }
    const fallback: ts.CompilerOptions = {
      allowJs: true,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      module: ts.ModuleKind.ESNext,
    };
    this.#options.set(dirname(file), fallback);
    return fallback;
  }

  /** Where TypeScript resolves `specifier` from `file`, within the repo: paths, baseUrl, relative; then workspace packages. */
  resolve(file: string, specifier: string): string | undefined {
    const resolutionHost: ts.ModuleResolutionHost = {
      fileExists: (name) => this.#known.has(name) || (name.endsWith('package.json') && existsSync(name)),
      readFile: (name) => (existsSync(name) ? readFileSync(name, 'utf8') : undefined),
      directoryExists: (name) => existsSync(name),
    };
    const inRepo = (name: string | undefined): string | undefined =>
      name !== undefined && this.#known.has(name) ? name : undefined;
    const found = inRepo(
      ts.resolveModuleName(specifier, file, this.#optionsFor(file), resolutionHost).resolvedModule
        ?.resolvedFileName,
    );
    if (found !== undefined || specifier.startsWith('.')) return found;
    const parts = specifier.split('/');
    const nameLength = specifier.startsWith('@') ? 2 : 1;
    const folder = this.#workspaces.get(parts.slice(0, nameLength).join('/'));
    if (folder === undefined) return undefined;
    const subpath = parts.slice(nameLength).join('/');
    const target = subpath === '' ? folder : join(folder, subpath);
    const asFolder = inRepo(
      ts.resolveModuleName(
        `./${relative(dirname(file), target)}`,
        file,
        this.#optionsFor(file),
        resolutionHost,
      ).resolvedModule?.resolvedFileName,
    );
    if (asFolder !== undefined) return asFolder;
    const source = subpath === '' ? join(folder, 'src', 'index') : join(folder, 'src', subpath);
    return inRepo(
      ts.resolveModuleName(
        `./${relative(dirname(file), source)}`,
        file,
        this.#optionsFor(file),
        resolutionHost,
      ).resolvedModule?.resolvedFileName,
    );
  }

  relativePath(file: string): string {
    return relative(this.root, file).split('\\').join('/');
  }

  #location(fileName: string, position: number): Location | undefined {
    const sourceFile = this.program.getSourceFile(fileName);
    if (sourceFile === undefined) return undefined;
    return {
      path: this.relativePath(fileName),
      line: sourceFile.getLineAndCharacterOfPosition(position).line + 1,
    };
  }

  /** The value's name position when `position` is the name of `key: value` with a name as value. */
  #propertyValueAt(fileName: string, position: number): number | undefined {
    const sourceFile = this.program.getSourceFile(fileName);
    const token = sourceFile === undefined ? undefined : tokenAt(sourceFile, position);
    const parent = token?.parent;
    if (
      sourceFile === undefined ||
      parent === undefined ||
      !ts.isPropertyAssignment(parent) ||
      parent.name !== token
    )
      return undefined;
    const value = parent.initializer;
    if (ts.isIdentifier(value)) return value.getStart(sourceFile);
    if (ts.isPropertyAccessExpression(value)) return value.name.getStart(sourceFile);
    return undefined;
  }

  /** Go to definition, repeated from each result until it stops moving: where a use finally leads. */
  finalDefinitions(fileName: string, position: number): Location[] {
    const seen = new Set<string>();
    let frontier: { fileName: string; position: number }[] = [{ fileName, position }];
    const finals: Location[] = [];
    for (let hop = 0; hop < 12 && frontier.length > 0; hop += 1) {
      const next: { fileName: string; position: number }[] = [];
      for (const current of frontier) {
        let infos: readonly ts.DefinitionInfo[];
        try {
          infos = this.service.getDefinitionAtPosition(current.fileName, current.position) ?? [];
        } catch {
          infos = []; // a definition in a file outside the program
        }
        // An export object's entry (`{ key: utils.fn }`) stands for its value: go on from the value.
        const entry = this.#propertyValueAt(current.fileName, current.position);
        if (entry !== undefined && hop > 0) {
          const id = `${current.fileName}:${entry}`;
          if (!seen.has(id)) {
            seen.add(id);
            next.push({ fileName: current.fileName, position: entry });
            continue;
          }
        }
        const moved = infos.filter((info) => {
          const id = `${info.fileName}:${info.textSpan.start}`;
          return (
            !(info.fileName === current.fileName && info.textSpan.start === current.position) && !seen.has(id)
          );
        });
        if (moved.length === 0 && hop > 0) {
          const location = this.#location(current.fileName, current.position);
          if (location !== undefined) finals.push(location);
        }
        for (const info of moved) {
          seen.add(`${info.fileName}:${info.textSpan.start}`);
          next.push({ fileName: info.fileName, position: info.textSpan.start });
        }
      }
      frontier = next;
    }
    for (const current of frontier) {
      const location = this.#location(current.fileName, current.position);
      if (location !== undefined) finals.push(location);
    }
    return finals;
  }

  /** Exported top-level declarations: name, file, name position. */
  exportedDeclarations(): { name: string; fileName: string; position: number }[] {
    const found: { name: string; fileName: string; position: number }[] = [];
    for (const fileName of this.files) {
      const sourceFile = this.program.getSourceFile(fileName);
      if (sourceFile === undefined || sourceFile.isDeclarationFile) continue;
      let previousFunction: string | undefined;
      for (const statement of sourceFile.statements) {
        // Overloads and their implementation are one function: sample its first signature.
        const functionName = ts.isFunctionDeclaration(statement) ? statement.name?.text : undefined;
        const isOverloadContinuation = functionName !== undefined && functionName === previousFunction;
        previousFunction = functionName;
        if (isOverloadContinuation) continue;
        const exported =
          ts.canHaveModifiers(statement) &&
          (ts.getModifiers(statement) ?? []).some(
            (modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword,
          );
        const names: ts.Identifier[] = [];
        if (
          (ts.isFunctionDeclaration(statement) ||
            ts.isClassDeclaration(statement) ||
            ts.isInterfaceDeclaration(statement) ||
            ts.isTypeAliasDeclaration(statement) ||
            ts.isEnumDeclaration(statement)) &&
          statement.name !== undefined
        )
          names.push(statement.name);
        // `const X = require('./x')` is an import, not a declaration of X.
        if (ts.isVariableStatement(statement))
          for (const declaration of statement.declarationList.declarations)
            if (ts.isIdentifier(declaration.name) && !isRequire(declaration.initializer))
              names.push(declaration.name);
        const isCommonJs = !exported && this.#isCommonJsExported(sourceFile, names);
        if (!exported && !isCommonJs) continue;
        for (const name of names)
          found.push({ name: name.text, fileName, position: name.getStart(sourceFile) });
      }
    }
    return found;
  }

  /** A CommonJS module's exported declarations: `module.exports = { name }`, `{ key: name }`, `= name`, `exports.x = name`. */
  #isCommonJsExported(sourceFile: ts.SourceFile, names: readonly ts.Identifier[]): boolean {
    if (names.length === 0) return false;
    const exported = new Set<string>();
    const addValue = (expression: ts.Expression): void => {
      if (ts.isIdentifier(expression)) exported.add(expression.text);
      else if (ts.isObjectLiteralExpression(expression))
        for (const property of expression.properties) {
          if (ts.isShorthandPropertyAssignment(property)) exported.add(property.name.text);
          else if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.initializer))
            exported.add(property.initializer.text);
        }
    };
    for (const statement of sourceFile.statements) {
      if (!ts.isExpressionStatement(statement) || !ts.isBinaryExpression(statement.expression)) continue;
      const { left, right, operatorToken } = statement.expression;
      if (operatorToken.kind !== ts.SyntaxKind.EqualsToken) continue;
      const target = left.getText(sourceFile);
      if (/^(?:module\.)?exports(?:\.[\w$]+)?$/.test(target)) addValue(right);
    }
    return names.some((name) => exported.has(name.text));
  }

  /** References by the oracle: findReferences plus same-named identifiers whose definition lands on the declaration. */
  references(name: string, fileName: string, position: number): Set<string> {
    const declaration = this.#location(fileName, position);
    const result = new Set<string>();
    for (const referenced of this.service.findReferences(fileName, position) ?? []) {
      for (const entry of referenced.references) {
        if (entry.isDefinition === true) continue;
        const location = this.#location(entry.fileName, entry.textSpan.start);
        if (location !== undefined) result.add(key(location));
      }
    }
    if (declaration === undefined) return result;
    const target = key(declaration);
    const pattern = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g');
    for (const other of this.files) {
      const sourceFile = this.program.getSourceFile(other);
      if (sourceFile === undefined || !sourceFile.text.includes(name)) continue;
      for (const match of sourceFile.text.matchAll(pattern)) {
        const at = match.index;
        if (other === fileName && at === position) continue;
        const token = tokenAt(sourceFile, at);
        if (token === undefined || !ts.isIdentifier(token) || token.text !== name) continue;
        if (this.finalDefinitions(other, at).some((location) => key(location) === target)) {
          const location = this.#location(other, at);
          if (location !== undefined && key(location) !== target) result.add(key(location));
        }
      }
    }
    return result;
  }

  /** Where TypeScript with `resolveJsonModule` resolves a `.json` specifier, within the repo. */
  #jsonModule(file: string, specifier: string): string | undefined {
    if (!specifier.endsWith('.json')) return undefined;
    const options = { ...this.#optionsFor(file), resolveJsonModule: true };
    const resolved = ts.resolveModuleName(specifier, file, options, ts.sys).resolvedModule;
    return resolved?.extension === ts.Extension.Json && resolved.resolvedFileName.startsWith(`${this.root}/`)
      ? resolved.resolvedFileName
      : undefined;
  }

  /** A file's import specifiers (static, export-from, `require`, dynamic `import`) and where TypeScript resolves each in the repo. */
  importEdges(fileName: string): { specifier: string; line: number; target: string | undefined }[] {
    const sourceFile = this.program.getSourceFile(fileName);
    if (sourceFile === undefined) return [];
    const edges: { specifier: string; line: number; target: string | undefined }[] = [];
    const add = (literal: ts.StringLiteralLike): void => {
      const target = this.resolve(fileName, literal.text) ?? this.#jsonModule(fileName, literal.text);
      edges.push({
        specifier: literal.text,
        line: sourceFile.getLineAndCharacterOfPosition(literal.getStart(sourceFile)).line + 1,
        target: target === undefined ? undefined : this.relativePath(target),
      });
    };
    const visit = (node: ts.Node): void => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier !== undefined
      ) {
        if (ts.isStringLiteralLike(node.moduleSpecifier)) add(node.moduleSpecifier);
      } else if (ts.isCallExpression(node) && node.arguments.length === 1) {
        const argument = node.arguments[0];
        const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
        const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
        if ((isRequire || isImport) && argument !== undefined && ts.isStringLiteralLike(argument))
          add(argument);
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
    return edges;
  }
}

function isRequire(expression: ts.Expression | undefined): boolean {
  let current = expression;
  while (
    current !== undefined &&
    (ts.isPropertyAccessExpression(current) || ts.isParenthesizedExpression(current))
  )
    current = current.expression;
  return (
    current !== undefined &&
    ts.isCallExpression(current) &&
    ts.isIdentifier(current.expression) &&
    current.expression.text === 'require'
  );
}

/** The node starting at `position`, JSDoc type names included (`@param {Name}` resolves like code). */
function tokenAt(sourceFile: ts.SourceFile, position: number): ts.Node | undefined {
  let node: ts.Node = sourceFile;
  for (;;) {
    const contains = (candidate: ts.Node): ts.Node | undefined =>
      candidate.pos <= position && position < candidate.end ? candidate : undefined;
    const child = (node as { jsDoc?: ts.JSDoc[] }).jsDoc?.find(contains) ?? node.forEachChild(contains);
    if (child === undefined) return node.getStart(sourceFile) === position ? node : undefined;
    node = child;
  }
}

function extensionOf(path: string): ts.Extension {
  const extensions = [
    ts.Extension.Dts,
    ts.Extension.Dmts,
    ts.Extension.Dcts,
    ts.Extension.Ts,
    ts.Extension.Tsx,
    ts.Extension.Mts,
    ts.Extension.Cts,
    ts.Extension.Js,
    ts.Extension.Jsx,
    ts.Extension.Mjs,
    ts.Extension.Cjs,
  ];
  return extensions.find((extension) => path.endsWith(extension)) ?? ts.Extension.Ts;
}

/** Scores of the index against the oracle on one repository. */
export interface AccuracyReport {
  readonly symbols: number;
  /** Asked with `path` = the declaring file: our answers include the declaration. */
  readonly definitionsInFile: { readonly hits: number; readonly asked: number };
  /** Asked with `path` = a file that uses the name: our answers include where the oracle's go to definition ends. */
  readonly definitionsFromUse: { readonly hits: number; readonly asked: number };
  readonly references: { readonly shared: number; readonly expected: number; readonly found: number };
  readonly importEdges: { readonly matched: number; readonly expected: number; readonly extra: number };
  readonly misses: readonly string[];
}

/** Scores a CodeIndex over `root` against the oracle: definitions, references and import edges. */
export async function measureAccuracy(
  root: string,
  options: { readonly maxSymbols?: number } = {},
): Promise<AccuracyReport> {
  const oracle = new LanguageServiceOracle(root);
  const index = new CodeIndex({ root: oracle.root });
  const misses: string[] = [];
  const declarations = oracle.exportedDeclarations();
  const step = Math.max(1, Math.ceil(declarations.length / (options.maxSymbols ?? maxSymbols)));
  const sample = declarations.filter((_, position) => position % step === 0);
  const definitionsInFile = { hits: 0, asked: 0 };
  const definitionsFromUse = { hits: 0, asked: 0 };
  const references = { shared: 0, expected: 0, found: 0 };
  for (const declaration of sample) {
    const path = oracle.relativePath(declaration.fileName);
    const sourceFile = oracle.program.getSourceFile(declaration.fileName);
    const line = (sourceFile?.getLineAndCharacterOfPosition(declaration.position).line ?? -1) + 1;
    const expected = `${path}:${line}`;
    definitionsInFile.asked += 1;
    const inFile = (await index.definitions(declaration.name, { path })).map(
      (found) => `${found.path}:${found.line}`,
    );
    if (inFile.includes(expected)) definitionsInFile.hits += 1;
    else
      misses.push(
        `definition in file ${declaration.name} ${expected}: got ${inFile.join(', ') || 'nothing'}`,
      );
    const expectedReferences = oracle.references(
      declaration.name,
      declaration.fileName,
      declaration.position,
    );
    const result = await index.references(declaration.name, { path, maxReferences: 100_000 });
    const ours = new Set(
      result.files.flatMap((file) => file.references.map((reference) => `${file.path}:${reference.line}`)),
    );
    const shared = [...expectedReferences].filter((item) => ours.has(item));
    references.shared += shared.length;
    references.expected += expectedReferences.size;
    references.found += ours.size;
    for (const item of expectedReferences)
      if (!ours.has(item)) misses.push(`reference missed ${declaration.name}: ${item}`);
    for (const item of ours)
      if (!expectedReferences.has(item)) misses.push(`reference extra ${declaration.name}: ${item}`);
    // From a use in another file: the first such reference.
    const use = [...expectedReferences].map((item) => item.split(':')).find(([file]) => file !== path);
    if (use !== undefined) {
      const [usePath = ''] = use;
      const finals = new Set<string>();
      const useFile = join(oracle.root, usePath);
      const useSource = oracle.program.getSourceFile(useFile);
      const position = useSource?.text.search(
        new RegExp(`(?<![\\w$])${declaration.name.replace(/\$/g, '\\$')}(?![\\w$])`),
      );
      if (useSource !== undefined && position !== undefined && position >= 0)
        for (const location of oracle.finalDefinitions(useFile, position))
          finals.add(`${location.path}:${location.line}`);
      if (finals.has(expected)) {
        definitionsFromUse.asked += 1;
        const fromUse = (await index.definitions(declaration.name, { path: usePath })).map(
          (found) => `${found.path}:${found.line}`,
        );
        if (fromUse.includes(expected)) definitionsFromUse.hits += 1;
        else
          misses.push(
            `definition from ${usePath} ${declaration.name} ${expected}: got ${fromUse.join(', ') || 'nothing'}`,
          );
      }
    }
  }
  const importEdges = { matched: 0, expected: 0, extra: 0 };
  for (const fileName of oracle.files) {
    const path = oracle.relativePath(fileName);
    let ours: readonly { specifier: string; line: number; resolved?: string }[];
    try {
      ours = (await index.imports(path)).imports;
    } catch {
      ours = [];
    }
    for (const edge of oracle.importEdges(fileName)) {
      // Our records carry the statement's first line, the oracle the specifier's: the nearest at or above it.
      const mine = ours
        .filter((record) => record.specifier === edge.specifier && record.line <= edge.line)
        .sort((left, right) => right.line - left.line)[0];
      if (edge.target === undefined) {
        if (mine?.resolved !== undefined) {
          importEdges.extra += 1;
          misses.push(`import extra ${path}:${edge.line} ${edge.specifier} -> ${mine.resolved}`);
        }
        continue;
      }
      importEdges.expected += 1;
      if (mine?.resolved === edge.target) importEdges.matched += 1;
      else
        misses.push(
          `import ${path}:${edge.line} ${edge.specifier}: expected ${edge.target}, got ${mine?.resolved ?? 'nothing'}`,
        );
    }
  }
  return { symbols: sample.length, definitionsInFile, definitionsFromUse, references, importEdges, misses };
}
