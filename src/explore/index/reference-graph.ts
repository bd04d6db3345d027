import type { CodeSymbol, ParsedFile, SymbolKind } from './code-symbol.js';
import { isDeclarationFile } from './entry-points.js';
import type { ModuleResolver } from './modules/module-resolver.js';

/** An edge of the reference graph: `from` uses the declaration `name` of `to`. */
export interface ReferenceEdge {
  readonly from: string;
  readonly to: string;
  readonly weight: number;
  /** The identifier, or `default` for a default or namespace import's local name. */
  readonly name: string;
}

/** Options of {@link buildReferenceGraph}. */
export interface ReferenceGraphOptions {
  readonly focusFiles?: readonly string[];
  readonly focusSymbols?: readonly string[];
}

/** The files ranked (typings twins removed), who defines each name, and the weighted edges. */
export interface ReferenceGraph {
  readonly files: readonly ParsedFile[];
  readonly definers: ReadonlyMap<string, ReadonlySet<string>>;
  readonly edges: readonly ReferenceEdge[];
}

// Members of JS built-ins: a `.toString()` or `.forEach()` call says nothing about which repo
// file a caller needs, even when some repo class happens to define a method of that name.
const builtinNames = new Set(
  (
    'toString valueOf toJSON toLocaleString hasOwnProperty prototype constructor length name message stack cause ' +
    'forEach map filter reduce some every find findIndex includes indexOf join slice splice push pop shift unshift concat ' +
    'sort keys values entries get set has delete clear add then catch finally call apply bind from of assign create ' +
    'freeze defineProperty getPrototypeOf isArray parse stringify test exec match replace split trim source next return throw ' +
    'write read end on once emit pipe destroy close open send abort resolve reject all race size data type'
  ).split(' '),
);
const typeKinds = new Set<SymbolKind>(['class', 'interface', 'type', 'enum', 'struct', 'trait']);
const ignoredNames = new Set(['default', 'constructor']);
const declarationFlavours = ['.d.ts', '.d.mts', '.d.cts'];

function identifierWeight(
  name: string,
  definers: number,
  focusSymbols: ReadonlySet<string>,
  typeNames: ReadonlySet<string>,
): number {
  let weight = 1;
  if (focusSymbols.has(name)) weight *= 10;
  const isCompound = /[a-z][A-Z]|_|-/.test(name) || /^[A-Z][a-z]+[A-Z]/.test(name);
  // aider: long compound names are specific. Also: a class or type name declared in one file only.
  if ((isCompound && name.length >= 8) || (definers === 1 && typeNames.has(name))) weight *= 10;
  if (name.startsWith('_') || builtinNames.has(name)) weight *= 0.1;
  if (definers > 5) weight *= 0.1;
  return weight;
}

/**
 * `index.d.ts`, `index.d.mts` and `index.d.cts` are one module's typings in three module
 * flavours: keep the first of each stem so the same declarations are not ranked twice.
 */
function withoutTypingTwins(files: readonly ParsedFile[]): ParsedFile[] {
  const flavourOf = (path: string): number =>
    declarationFlavours.findIndex((suffix) => path.endsWith(suffix));
  const stemOf = (path: string): string => path.replace(/\.d\.[cm]?ts$/, '');
  const preferred = new Map<string, string>();
  for (const file of files) {
    if (!isDeclarationFile(file.path)) continue;
    const current = preferred.get(stemOf(file.path));
    if (current === undefined || flavourOf(file.path) < flavourOf(current))
      preferred.set(stemOf(file.path), file.path);
  }
  return files.filter(
    (file) => !isDeclarationFile(file.path) || preferred.get(stemOf(file.path)) === file.path,
  );
}

/**
 * A module whose names other files reach through imports only: a JS/TS module (`export` or
 * `import` at the top level, typings included) and every file parsed by a grammar (Python
 * modules, Go and Java packages, Rust modules, C includes). Global scripts and ambient typings
 * are not.
 */
function isScopedModule(file: ParsedFile): boolean {
  if (file.engine === 'tree-sitter') return true;
  return file.engine === 'typescript' && (file.imports.length > 0 || file.exports.length > 0);
}

/**
 * The symbols other files can name. A module's non-exported declarations are local to it;
 * members count when their container is exported (its top-level part, for nested members).
 * Typings and scripts declare globals; Java's package-private classes are seen by their
 * package (whose files are in each other's scope); pattern-parsed languages have no reliable
 * export marker, so all their symbols count.
 */
function visibleSymbols(file: ParsedFile): readonly CodeSymbol[] {
  // In a typings module every declaration is part of its surface.
  if (!isScopedModule(file) || isDeclarationFile(file.path) || file.language === 'java') return file.symbols;
  const exported = new Set(
    file.symbols
      .filter((symbol) => symbol.container === undefined && symbol.exported)
      .map((symbol) => symbol.name),
  );
  return file.symbols.filter((symbol) =>
    symbol.container === undefined ? symbol.exported : exported.has(symbol.container.split('.')[0] ?? ''),
  );
}

/**
 * The modules a file can reach declarations of: those it imports, plus, through barrels,
 * whatever they re-export (`export ... from`), transitively.
 */
function importScopes(
  files: readonly ParsedFile[],
  resolver: ModuleResolver,
): (file: ParsedFile) => ReadonlySet<string> {
  const byPath = new Map(files.map((file) => [file.path, file]));
  const resolved = (file: ParsedFile, reExportsOnly: boolean): string[] =>
    file.imports
      .filter((record) => !reExportsOnly || record.type === 'export-from')
      .flatMap((record) => resolver.resolve(file.path, record)?.files ?? []);
  const reExported = new Map<string, ReadonlySet<string>>();
  const reExportClosure = (path: string): ReadonlySet<string> => {
    const cached = reExported.get(path);
    if (cached !== undefined) return cached;
    const closure = new Set<string>();
    reExported.set(path, closure); // cycles end here
    const file = byPath.get(path);
    for (const target of file === undefined ? [] : resolved(file, true)) {
      closure.add(target);
      for (const next of reExportClosure(target)) closure.add(next);
    }
    return closure;
  };
  return (file) => {
    const scope = new Set<string>();
    for (const record of file.imports) {
      for (const target of resolver.resolve(file.path, record)?.files ?? []) {
        scope.add(target);
        for (const next of reExportClosure(target)) scope.add(next);
        // A default or namespace import is an object that can carry what its module imports
        // (`axios.Axios = Axios`, `export default { helper }`): one hop further.
        const imported = record.local === undefined ? undefined : byPath.get(target);
        for (const next of imported === undefined ? [] : resolved(imported, false)) scope.add(next);
      }
    }
    for (const sibling of resolver.samePackage(file.path)) scope.add(sibling);
    return scope;
  };
}

/**
 * aider's reference graph: an edge from each file that references an identifier to each file
 * that defines it, weighted by the identifier's specificity (long compound names ×10, focus
 * symbols ×10, `_private` ×0.1, names defined in more than five files ×0.1), by the square root
 * of the reference count, and ×50 from focus files.
 *
 * Resolved as a module system would: only exported declarations (and their members) define
 * names for other files, and a JS/TS module reaches another module's declarations only when it
 * imports that module, directly or through re-exporting barrels; a named import of a declared
 * name means that module alone; a default or namespace import reaches one hop further (the
 * object can carry what its module imports). A default or namespace import's local name is an
 * edge as specific as a long compound identifier. Typings are secondary to an implementation:
 * names the code defines are not theirs, JS modules do not import them (so a JS package's
 * hand-written `index.d.ts` gets no edges), and `.d.cts`/`.d.mts` twins are dropped.
 */
export function buildReferenceGraph(
  allFiles: readonly ParsedFile[],
  options: ReferenceGraphOptions,
  resolver: ModuleResolver,
): ReferenceGraph {
  const files = withoutTypingTwins(allFiles);
  const scoped = new Set(files.filter(isScopedModule).map((file) => file.path));
  const definers = new Map<string, Set<string>>();
  const typeNames = new Set<string>();
  const declared = new Map<string, Set<string>>();
  for (const file of files) {
    const names = new Set<string>();
    for (const symbol of visibleSymbols(file)) {
      // As aider's tags: declarations and methods define names; properties and fields do not.
      if (ignoredNames.has(symbol.name) || symbol.kind === 'property') continue;
      names.add(symbol.name);
      definers.set(symbol.name, (definers.get(symbol.name) ?? new Set()).add(file.path));
      if (symbol.container === undefined && typeKinds.has(symbol.kind)) typeNames.add(symbol.name);
    }
    declared.set(file.path, names);
  }
  // A name declared both in typings and in code is defined by the code: typings mirroring an
  // implementation should not soak up the implementation's rank.
  for (const [name, paths] of definers) {
    const implementations = [...paths].filter((path) => !isDeclarationFile(path));
    if (implementations.length > 0 && implementations.length < paths.size)
      definers.set(name, new Set(implementations));
  }
  const focusSymbols = new Set(options.focusSymbols ?? []);
  const focusFiles = new Set(options.focusFiles ?? []);
  const scopeOf = importScopes(files, resolver);
  const edges: ReferenceEdge[] = [];
  for (const file of files) {
    const fromFocus = focusFiles.has(file.path) ? 50 : 1;
    const scope = scoped.has(file.path) ? scopeOf(file) : undefined;
    const reaches = (target: string): boolean =>
      target !== file.path && (scope === undefined || !scoped.has(target) || scope.has(target));
    const importedFrom = new Map<string, string>();
    for (const record of file.imports) {
      const target = resolver.resolve(file.path, record)?.files[0];
      if (target === undefined) continue;
      for (const name of record.names) if (declared.get(target)?.has(name)) importedFrom.set(name, target);
      // `import utils from './utils.js'`: the local name is declared nowhere, yet names one file.
      if (record.local === undefined || declared.get(target)?.has(record.local)) continue;
      const count = Math.max(1, file.references.get(record.local) ?? 1);
      const weight = 10 * fromFocus * Math.sqrt(count);
      edges.push({ from: file.path, to: target, weight, name: 'default' });
    }
    for (const [name, count] of file.references) {
      const all = definers.get(name);
      if (all === undefined || count <= 0) continue;
      const imported = importedFrom.get(name);
      const targets = imported === undefined ? [...all].filter(reaches) : [imported];
      const weight = identifierWeight(name, all.size, focusSymbols, typeNames) * fromFocus * Math.sqrt(count);
      for (const target of targets)
        if (target !== file.path) edges.push({ from: file.path, to: target, weight, name });
    }
  }
  return { files, definers, edges };
}
