/** One revision: a name, hash, `~`/`^` suffixes or `@{...}`; never `:` (a `rev:path` names a file or tree) nor a leading `-`. */
const revisionPattern = /^[A-Za-z0-9_][A-Za-z0-9._/@{}~^+-]*$/;

/**
 * Checks that `base` is one plain revision or a range `A..B` / `A...B` of two, so it can
 * neither inject an option nor name a tree or blob (`HEAD:config`), which would diff
 * renamed paths past the exclude pathspecs.
 *
 * @throws {Error} naming the value and what to pass instead.
 */
export function assertPlainRevision(base: string): void {
  const sides = base.split(/\.\.\.?/);
  const valid =
    base.length <= 200 &&
    sides.length <= 2 &&
    sides.every((side) => revisionPattern.test(side) && !side.includes('..'));
  if (valid) return;
  throw new Error(
    `Invalid base ${JSON.stringify(base)}: pass a commit hash, branch or tag such as "HEAD", "HEAD~2" or "main", ` +
      'or a range "A..B" or "A...B" of them (letters, digits and . _ / @ { } ~ ^ + -, not starting with "-"; ' +
      'no ":" paths).',
  );
}
