import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { defaultDenyPatterns } from '../../src/explore/index.js';
import { createPathMatcher } from '../../src/explore/sandbox/path-matcher.js';

// createPathMatcher joins its globs into one regular expression; picomatch's own list matcher,
// which tests them one by one, is the reference.
const globSets: readonly (readonly string[])[] = [
  defaultDenyPatterns,
  ['src/**/*.ts', 'file[1].txt', 'a*b', '**/x/*', '{a,b}.js', '!(x).js', 'fixtures/**'],
  ['docs/*.md', 'lib/**', '*.md'],
];
const paths = [
  'src/a.ts',
  'src/x/y.ts',
  'README.md',
  'docs/a.md',
  'file[1].txt',
  'file1.txt',
  'axb',
  'a/x/b',
  'a.js',
  'x.js',
  'y.js',
  'fixtures/q',
  '.env',
  '.ENV.local',
  'keys/id_ED25519.pub',
  '.docker/config.json',
  'ci/.Docker/CONFIG.json',
  'terraform.tfstate.backup',
  'x/.config/gcloud',
  'lib/a/b.js',
  'src/.a.ts',
  '.bash_history',
  'src/order_history.py',
  'home/.config/GH/hosts.yml',
  '.M2/Settings.xml',
  'client_secret_1.json',
];

function reference(globs: readonly string[], nocase: boolean): (path: string) => boolean {
  const options = { dot: true, nocase };
  const byName = globs.filter((glob) => !glob.includes('/'));
  const byPath = globs.filter((glob) => glob.includes('/'));
  const name = byName.length > 0 ? picomatch([...byName], options) : () => false;
  const path = byPath.length > 0 ? picomatch([...byPath], options) : () => false;
  return (relative) => name(relative.slice(relative.lastIndexOf('/') + 1)) || path(relative);
}

describe('createPathMatcher', () => {
  it('agrees with picomatch glob by glob, with and without nocase', () => {
    for (const globs of globSets) {
      for (const nocase of [false, true]) {
        const matcher = createPathMatcher(globs, { nocase });
        const expected = reference(globs, nocase);
        for (const path of paths) expect(matcher(path), `${path} ${nocase}`).toBe(expected(path));
      }
    }
  });

  it('matches basenames for globs without a slash, whole paths otherwise', () => {
    const matcher = createPathMatcher(['*.pem', 'config/*.json']);
    expect(matcher('deep/certs/server.pem')).toBe(true);
    expect(matcher('config/app.json')).toBe(true);
    expect(matcher('other/config/app.json')).toBe(false);
  });
});
