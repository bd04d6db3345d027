/**
 * Says what a file walk cut short covered: it stops at `maxFiles` files when one more is
 * found, or after visiting ten times as many entries when a pattern accepts few of them.
 */
export function walkStopped(found: number, maxFiles: number): string {
  return found >= maxFiles
    ? `The walk stopped at its cap of ${maxFiles} files (limits.maxFiles) with more to go, so these are the first ${found} found, breadth-first.`
    : `The walk stopped after visiting ${maxFiles * 10} entries (10 x limits.maxFiles) with more to go; it had found ${found} matching files.`;
}
