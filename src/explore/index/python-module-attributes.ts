import type { ImportRecord, ParsedFile } from './code-symbol.js';
import type { IndexContext } from './index-context.js';

/** The dotted name written right before `.name` at the 1-based `column` of a line (`utils` in `utils.build(`), or `undefined`. */
export function qualifierBefore(lineText: string, column: number): string | undefined {
  const before = lineText.slice(0, Math.max(0, column - 1));
  const match = /([A-Za-z_][\w]*(?:\s*\.\s*[A-Za-z_][\w]*)*)\s*\.\s*$/.exec(before);
  if (match?.[1] === undefined) return undefined;
  // `x().name`, `x[0].name`: the qualifier is no plain name.
  const start = before.length - match[0].length;
  if (start > 0 && /[\w.)\]]/.test(before[start - 1] ?? '')) return undefined;
  return match[1].replace(/\s+/g, '');
}

/** The module a `from ... import` record's `name` is, as a dotted specifier (`.` + `utils` is `.utils`). */
function submoduleSpecifier(record: ImportRecord, name: string): string {
  return record.specifier.endsWith('.') ? `${record.specifier}${name}` : `${record.specifier}.${name}`;
}

/**
 * The repo files of the module a Python file names `qualifier` (`utils` after `import utils`,
 * `fmt` after `import tools.formatting as fmt`, `a.b` after `import a.b`, `utils` after
 * `from pkg import utils`), resolved from that file as its imports are; `undefined` when no import
 * of the file binds the name to a module.
 */
export function importedModuleFiles(
  context: IndexContext,
  file: ParsedFile,
  qualifier: string,
): readonly string[] | undefined {
  const moduleFiles = (specifier: string): readonly string[] =>
    context.resolver.resolve(file.path, { specifier, names: [] })?.files.slice(0, 1) ?? [];
  for (const record of file.imports) {
    // `import a.b` binds `a` (and `a.b` is reached through it); `import a.b as c` binds `c`.
    if (record.local !== undefined) {
      const aliased = record.local !== record.specifier.split('.')[0];
      if (aliased && record.local === qualifier) return moduleFiles(record.specifier);
      if (!aliased && (record.specifier === qualifier || record.specifier.startsWith(`${qualifier}.`)))
        return moduleFiles(qualifier);
    } else if (record.names.includes(qualifier)) {
      // A submodule, not a name the package itself declares (that resolves to the package's own file).
      const found = moduleFiles(submoduleSpecifier(record, qualifier));
      if (found.length > 0 && found[0] !== moduleFiles(record.specifier)[0]) return found;
    }
  }
  return undefined;
}

/**
 * The Python files that are module `qualifier` wherever they sit (`utils` is any `utils.py` or
 * `utils/__init__.py`, `pkg.utils` one under a `pkg` folder): how a qualified name is read
 * without a file to resolve it from.
 */
export function modulesNamed(context: IndexContext, qualifier: string): string[] {
  const suffix = qualifier.split('.').join('/');
  return context.files
    .filter((file) => file.language === 'python')
    .map((file) => file.path)
    .filter((path) => {
      const module = path.replace(/(?:\/__init__)?\.pyi?$/, '');
      return module === suffix || module.endsWith(`/${suffix}`);
    });
}
