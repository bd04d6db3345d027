/** Size and count caps of a {@link Sandbox}. */
export interface SandboxLimits {
  /** Files larger than this are refused for reading whole (read a line range instead). @default 2 MiB */
  maxFileBytes: number;
  /** The most files one walk visits before it stops and flags the listing truncated. @default 50_000 */
  maxFiles: number;
}

/** The limits a sandbox uses when the caller does not set them. */
export const defaultSandboxLimits: Readonly<SandboxLimits> = Object.freeze({
  maxFileBytes: 2 * 1024 * 1024,
  maxFiles: 50_000,
});

/**
 * Secret-file patterns denied by default, matched case-insensitively against a path and each
 * of its parent directories (against the basename when they have no `/`). `.git` holds remote
 * URLs that often carry credentials; the git tools run `git`, so they do not need to read it.
 */
export const defaultDenyPatterns: readonly string[] = Object.freeze([
  '.env*',
  '*.pem',
  '*.key',
  'id_rsa*',
  '.git',
]);

/**
 * Directory and file names hidden from listings and searches by default, matched against
 * each path segment below the root (so a root that is itself `node_modules/x` still works).
 */
export const defaultExcludedNames: ReadonlySet<string> = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  'bower_components',
  'dist',
  'build',
  'coverage',
  'out',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.turbo',
  '.cache',
  '.parcel-cache',
  '.venv',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.tox',
  '.gradle',
  '.idea',
  '.DS_Store',
]);
