import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The contract tests read dist/; build it once when a fresh clone runs the tests before `npm run build`.
 * The code index's parse cache goes to a fresh temporary folder, never the user's cache folder.
 */
export default function setup(): () => void {
  if (!existsSync(new URL('../dist/index.js', import.meta.url))) {
    execFileSync('npx', ['tsup'], { stdio: 'inherit', cwd: new URL('..', import.meta.url) });
  }
  const cacheDirectory = mkdtempSync(join(tmpdir(), 'tool-orchestrator-test-cache-'));
  process.env['TOOL_ORCHESTRATOR_CACHE_DIR'] = cacheDirectory;
  return () => rmSync(cacheDirectory, { recursive: true, force: true });
}
