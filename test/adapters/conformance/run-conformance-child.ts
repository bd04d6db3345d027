import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChatMessage } from '../../../src/index.js';
import type { ChildRequest } from './conformance-child.js';

/** Against the real API (npm run test:conformance:live): longer deadlines, the key kept off the command line. */
const live = process.env['CONFORMANCE_LIVE'] === '1';

const childScript = fileURLToPath(new URL('conformance-child.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/tsx/dist/cli.mjs', import.meta.url));

/** What the child printed. */
export interface ChildResult {
  readonly stopReason: string;
  readonly content: string;
  readonly pendingApprovals: { readonly toolCallId: string }[];
  readonly messages: ChatMessage[];
}

/** Runs the child to its end (killed at 45 s, 240 s against the real API) and returns what it printed. */
export async function runChild(request: ChildRequest): Promise<ChildResult> {
  const { stdout, stderr, code } = await spawnChild(request, undefined);
  if (code !== 0) throw new Error(`the child exited with ${String(code)}: ${stderr.slice(-2000)}`);
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ChildResult;
}

/** Runs the child and SIGKILLs it once it prints `line`; resolves to the signal that ended it. */
export async function runChildUntilKilled(request: ChildRequest, line: string): Promise<string | null> {
  return (await spawnChild(request, line)).signal;
}

function spawnChild(
  request: ChildRequest,
  killAt: string | undefined,
): Promise<{ stdout: string; stderr: string; code: number | null; signal: string | null }> {
  return new Promise((resolve, reject) => {
    // A real key stays in the environment the child inherits, off its command line.
    const withoutKey = live ? { ...request, connection: { ...request.connection, apiKey: '' } } : request;
    const child = spawn(process.execPath, [tsx, childScript, JSON.stringify(withoutKey)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const deadline = setTimeout(() => child.kill('SIGKILL'), live ? 240_000 : 45_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (killAt !== undefined && stdout.includes(killAt)) child.kill('SIGKILL');
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      resolve({ stdout, stderr, code, signal });
    });
  });
}
