import type { CodeSymbol, ParsedFile } from './code-symbol.js';
import type { DefinitionLocation, IndexContext } from './index-context.js';
import { definitionsFromImports, symbolLocation, topLevelDeclarations } from './grammar-navigation.js';
import { importedModuleFiles, modulesNamed } from './python-module-attributes.js';

/** How many files using a name are followed when the name is declared nowhere (an alias). */
const maxAliasFiles = 8;

function inScope(file: ParsedFile, path: string | undefined): boolean {
  if (path === undefined || path === '' || path === '.') return true;
  const prefix = path.replace(/\/+$/, '');
  return file.path === prefix || file.path.startsWith(`${prefix}/`);
}

/** A declaration as a definition: through the compiler for JS/TS (see `ScriptNavigation.declared`), else from its symbol. */
function declared(
  context: IndexContext,
  file: ParsedFile,
  symbol: CodeSymbol,
  followImports: boolean,
): DefinitionLocation[] {
  if (file.engine === 'typescript' && context.scripts !== undefined)
    return context.scripts.declared(file, symbol, followImports);
  return [symbolLocation(file, symbol)];
}

function matches(symbol: CodeSymbol, local: string, container: string | undefined): boolean {
  if (symbol.name !== local) return false;
  if (container === undefined) return true;
  return symbol.container === container || symbol.container?.endsWith(`.${container}`) === true;
}

function sortUnique(locations: readonly DefinitionLocation[]): DefinitionLocation[] {
  const seen = new Set<string>();
  return locations
    .filter((location) => {
      const key = `${location.path}:${location.line}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((left, right) => Number(right.exported) - Number(left.exported));
}

/**
 * Where `name` (or `Container.member`) is declared.
 *
 * - The top-level declarations in the indexed files (under `path` when given), exported ones
 *   first, `const X = require(...)` followed to what it imports.
 * - `path` a JS/TS file that uses the bare name without declaring it: where its uses lead, as
 *   the compiler resolves them (imports, `require` bindings, re-exports, export objects, JSDoc
 *   types, the function a call runs), so a call of an imported function is not taken for a
 *   same-named method of a class in that file. A file of a grammar language: the declarations
 *   its imports reach.
 * - Members of that name, when no top-level declaration has it.
 * - A name declared nowhere (an import alias, a default export's local name) is followed
 *   from the files that use it.
 * - `module.name` in Python: `name` declared at top level in the module that `module` is, as the
 *   asking file imports it (`import utils`, `import a.b as module`), else in any module of that
 *   dotted name, when no class of that name has the member.
 */
export function findDefinitions(context: IndexContext, name: string, path?: string): DefinitionLocation[] {
  const dot = name.lastIndexOf('.');
  const local = name.slice(dot + 1);
  const container = dot === -1 ? undefined : name.slice(0, dot);
  const topLevel: DefinitionLocation[] = [];
  const members: DefinitionLocation[] = [];
  for (const file of context.files) {
    if (!inScope(file, path)) continue;
    for (const symbol of file.symbols) {
      if (!matches(symbol, local, container)) continue;
      if (container === undefined && symbol.container !== undefined)
        members.push(...declared(context, file, symbol, false));
      else topLevel.push(...declared(context, file, symbol, true));
    }
  }
  const asked = path === undefined ? undefined : context.byPath.get(path);
  if (container !== undefined && asked?.language === 'python') {
    const modules = importedModuleFiles(context, asked, container);
    if (modules !== undefined) return sortUnique(topLevelDeclarations(context, modules, local));
  }
  const scripts = context.scripts;
  // A JS/TS file that uses the name without declaring it at top level: where its uses lead.
  if (container === undefined && topLevel.length === 0 && asked?.engine === 'typescript') {
    const followed = scripts?.followUses(asked.path, local, false) ?? [];
    if (followed.length > 0) return sortUnique(followed);
  }
  if (topLevel.length > 0) return sortUnique(topLevel);
  // A Python, Go, Rust, Java or C file that uses the name: what its imports bring in.
  if (container === undefined && asked !== undefined && asked.engine === 'tree-sitter') {
    const imported = definitionsFromImports(context, asked, local);
    if (imported.length > 0) return sortUnique(imported);
  }
  if (members.length > 0) return sortUnique(members);
  if (container !== undefined && (asked === undefined || asked.language === 'python')) {
    const inModules = topLevelDeclarations(context, modulesNamed(context, container), local);
    if (inModules.length > 0) return sortUnique(inModules);
  }
  if (scripts === undefined) return [];
  const users = context.files.filter(
    (file) => file.engine === 'typescript' && inScope(file, path) && file.references.has(local),
  );
  return sortUnique(
    users.slice(0, maxAliasFiles).flatMap((file) => scripts.followUses(file.path, local, true)),
  );
}
