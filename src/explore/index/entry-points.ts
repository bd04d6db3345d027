const entryNames = new Set(['index', 'main', 'mod', 'lib', '__init__', '__main__']);
const entryDirectories = new Set(['', 'src', 'lib']);

/** True for TypeScript declaration files: `.d.ts`, `.d.cts`, `.d.mts`. */
export function isDeclarationFile(path: string): boolean {
  return /\.d\.[cm]?ts$/.test(path);
}

/**
 * The repo's conventional entry points: `index`, `main`, `mod`, `lib`, `__init__` or `__main__`
 * source files at the root or directly in a top-level `src/` or `lib/` (`index.js`,
 * `src/index.ts`, `src/lib.rs`, `main.go`). Declaration files are typings, not entry points.
 * Unlike "files nobody imports", this never picks tests, scripts or bundler-only entries.
 */
export function conventionalEntryPoints(paths: readonly string[]): string[] {
  return paths.filter((path) => {
    if (isDeclarationFile(path)) return false;
    const slash = path.lastIndexOf('/');
    const directory = slash === -1 ? '' : path.slice(0, slash);
    const base = path.slice(slash + 1);
    const dot = base.indexOf('.');
    return entryDirectories.has(directory) && dot > 0 && entryNames.has(base.slice(0, dot));
  });
}
