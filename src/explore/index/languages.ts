/**
 * The name of a JS/TS file's `ts.ScriptKind` member. A name rather than the enum's value, so
 * this module (used by the listing side of the index) does not load the TypeScript compiler.
 */
export type ScriptKindName = 'TS' | 'TSX' | 'JS' | 'JSX';

const scriptKinds: Readonly<Record<string, ScriptKindName>> = {
  '.ts': 'TS',
  '.mts': 'TS',
  '.cts': 'TS',
  '.tsx': 'TSX',
  '.js': 'JS',
  '.mjs': 'JS',
  '.cjs': 'JS',
  '.jsx': 'JSX',
};

const fallbackLanguages: Readonly<Record<string, string>> = {
  '.py': 'python',
  '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.java': 'java',
  '.kt': 'kotlin',
  '.kts': 'kotlin',
  '.cs': 'csharp',
  '.rb': 'ruby',
  '.php': 'php',
  '.swift': 'swift',
  '.scala': 'scala',
  '.c': 'c',
  '.h': 'c',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.hpp': 'cpp',
};

/** The extensions of the files the index reads (JS/TS and the other languages it parses), lower case with the dot. */
export const sourceExtensions: readonly string[] = [
  ...Object.keys(scriptKinds),
  ...Object.keys(fallbackLanguages),
];

function extensionOf(path: string): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash + 1 ? path.slice(dot).toLowerCase() : '';
}

/** The compiler's script kind (as a `ts.ScriptKind` member name) for a JS/TS file, or `undefined` for any other file. */
export function scriptKindOf(path: string): ScriptKindName | undefined {
  if (path.endsWith('.d.ts') || path.endsWith('.d.mts') || path.endsWith('.d.cts')) return 'TS';
  return scriptKinds[extensionOf(path)];
}

/** True for files the TypeScript compiler parses: .ts .tsx .mts .cts .js .jsx .mjs .cjs. */
export function isScriptFile(path: string): boolean {
  return scriptKindOf(path) !== undefined;
}

/** The language name of a file, e.g. `typescript`, `javascript`, `python`, or `undefined` when unsupported. */
export function languageOf(path: string): string | undefined {
  const kind = scriptKindOf(path);
  if (kind === 'TS' || kind === 'TSX') return 'typescript';
  if (kind !== undefined) return 'javascript';
  return fallbackLanguages[extensionOf(path)];
}

/** True for a data file JS/TS code imports as a module (`.json`); the index parses no symbols from it. */
export function isDataModule(path: string): boolean {
  return path.toLowerCase().endsWith('.json');
}

/** Extensions tried, in order, when a relative import has none (TypeScript's own order). */
export const resolvableExtensions: readonly string[] = [
  '.ts',
  '.tsx',
  '.d.ts',
  '.js',
  '.jsx',
  '.mjs',
  '.cjs',
  '.mts',
  '.cts',
];
