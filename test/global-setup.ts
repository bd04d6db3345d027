import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The contract tests read dist/; build it once when a fresh clone runs the tests before `npm run build`. */
export default function setup(): void {
  if (!existsSync(new URL('../dist/index.js', import.meta.url))) {
    execFileSync('npx', ['tsup'], { stdio: 'inherit', cwd: new URL('..', import.meta.url) });
  }
}
