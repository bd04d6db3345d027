import picomatch from 'picomatch';

/** Tests a repo-relative, `/`-separated path. */
export type PathMatcher = (relativePath: string) => boolean;

/** Options of {@link createPathMatcher}. */
export interface PathMatcherOptions {
  /** Match letters regardless of case (`.ENV` matches `.env*`). @default false */
  readonly nocase?: boolean;
}

/**
 * Compiles globs into one matcher. A glob without `/` matches the basename (so `*.pem`
 * catches `certs/server.pem`); one with `/` matches the whole repo-relative path. Dotfiles match.
 */
export function createPathMatcher(globs: readonly string[], options: PathMatcherOptions = {}): PathMatcher {
  const compileOptions = { dot: true, nocase: options.nocase === true };
  const basenameGlobs = globs.filter((glob) => !glob.includes('/'));
  const pathGlobs = globs.filter((glob) => glob.includes('/')).map((glob) => glob.replace(/^\.\//, ''));
  const matchBasename = compileGlobs(basenameGlobs, compileOptions);
  const matchPath = compileGlobs(pathGlobs, compileOptions);
  return (relativePath) => {
    const slash = relativePath.lastIndexOf('/');
    const basename = slash === -1 ? relativePath : relativePath.slice(slash + 1);
    return matchBasename(basename) || matchPath(relativePath);
  };
}

/**
 * One regular expression for all globs: `picomatch(list)` tests each glob's expression in turn,
 * which costs a walk one test per deny pattern per entry. Like picomatch, a path equal to the
 * glob itself matches too (a name holding `[` or `*`).
 */
function compileGlobs(globs: readonly string[], options: picomatch.PicomatchOptions): PathMatcher {
  if (globs.length === 0) return () => false;
  const sources = globs.flatMap((glob) => [
    `(?:${picomatch.makeRe(glob, options).source})`,
    `(?:^${glob.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$)`,
  ]);
  const combined = new RegExp(sources.join('|'), options.nocase === true ? 'i' : '');
  return (relativePath) => combined.test(relativePath);
}

/** True when `relativePath` or any of its parent directories matches (a file inside a denied folder). */
export function matchesPathOrParent(matcher: PathMatcher, relativePath: string): boolean {
  for (let slash = relativePath.indexOf('/'); slash !== -1; slash = relativePath.indexOf('/', slash + 1)) {
    if (matcher(relativePath.slice(0, slash))) return true;
  }
  return matcher(relativePath);
}
