import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const tsxDist = join(fileURLToPath(new URL('../../', import.meta.url)), 'node_modules', 'tsx', 'dist');
// tsx's loader inside the fixture's own Node process: tsx's CLI would run the fixture in a child of
// its own, which a SIGKILL of the CLI leaves running.
const tsxLoader = [
  '--require',
  join(tsxDist, 'preflight.cjs'),
  '--import',
  pathToFileURL(join(tsxDist, 'loader.mjs')).href,
];

/**
 * Runs a TypeScript fixture in a fresh Node process (tsx's loader in it); with `killAt`, SIGKILLs it once
 * its stdout shows that text. Bounded at 30 s; without `killAt`, a non-zero exit rejects with its stderr.
 */
export function runKillableChild(
  script: string,
  args: readonly string[],
  killAt?: string,
): Promise<{ stdout: string; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...tsxLoader, script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const deadline = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (killAt !== undefined && stdout.includes(killAt)) child.kill('SIGKILL');
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(deadline);
      if (killAt === undefined && code !== 0)
        reject(new Error(`child failed (${code ?? signal}): ${stderr}`));
      else resolve({ stdout, signal });
    });
  });
}
