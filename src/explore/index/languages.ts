import ts from 'typescript';

const scriptKinds: Readonly<Record<string, ts.ScriptKind>> = {
  '.ts': ts.ScriptKind.TS,
  '.mts': ts.ScriptKind.TS,
  '.cts': ts.ScriptKind.TS,
  '.tsx': ts.ScriptKind.TSX,
  '.js': ts.ScriptKind.JS,
  '.mjs': ts.ScriptKind.JS,
  '.cjs': ts.ScriptKind.JS,
  '.jsx': ts.ScriptKind.JSX,
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

function extensionOf(path: string): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash + 1 ? path.slice(dot).toLowerCase() : '';
}

/** The compiler's script kind for a JS/TS file, or `undefined` for any other file. */
export function scriptKindOf(path: string): ts.ScriptKind | undefined {
  if (path.endsWith('.d.ts') || path.endsWith('.d.mts') || path.endsWith('.d.cts')) return ts.ScriptKind.TS;
  return scriptKinds[extensionOf(path)];
}

/** True for files the TypeScript compiler parses: .ts .tsx .mts .cts .js .jsx .mjs .cjs. */
export function isScriptFile(path: string): boolean {
  return scriptKindOf(path) !== undefined;
}

/** The language name of a file, e.g. `typescript`, `javascript`, `python`, or `undefined` when unsupported. */
export function languageOf(path: string): string | undefined {
  const kind = scriptKindOf(path);
  if (kind === ts.ScriptKind.TS || kind === ts.ScriptKind.TSX) return 'typescript';
  if (kind !== undefined) return 'javascript';
  return fallbackLanguages[extensionOf(path)];
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
