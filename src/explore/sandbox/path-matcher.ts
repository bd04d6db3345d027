import picomatch from 'picomatch';

/** Tests a repo-relative, `/`-separated path. */
export type PathMatcher = (relativePath: string) => boolean;

/**
 * Compiles globs into one matcher. A glob without `/` matches the basename (so `*.pem`
 * catches `certs/server.pem`); one with `/` matches the whole repo-relative path. Dotfiles match.
 */
export function createPathMatcher(globs: readonly string[]): PathMatcher {
  const basenameGlobs = globs.filter((glob) => !glob.includes('/'));
  const pathGlobs = globs.filter((glob) => glob.includes('/')).map((glob) => glob.replace(/^\.\//, ''));
  const matchBasename = basenameGlobs.length > 0 ? picomatch(basenameGlobs, { dot: true }) : () => false;
  const matchPath = pathGlobs.length > 0 ? picomatch(pathGlobs, { dot: true }) : () => false;
  return (relativePath) => {
    const slash = relativePath.lastIndexOf('/');
    const basename = slash === -1 ? relativePath : relativePath.slice(slash + 1);
    return matchBasename(basename) || matchPath(relativePath);
  };
}
