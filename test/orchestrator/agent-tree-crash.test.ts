import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, PendingApproval } from '../../src/index.js';
import { expectValidTranscript } from '../support/transcript.js';
import { runKillableChild } from '../support/run-killable-child.js';

// A three-level agent tree runs in a child process with a FileCheckpointStore and is SIGKILLed
// (while it waits for an approval, or while the grandchild's tool runs); a fresh process resumes it.
const child = fileURLToPath(new URL('fixtures/agent-tree-child.ts', import.meta.url));
let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'agent-tree-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** Runs the fixture; with `killAt`, SIGKILLs it once it prints that line. */
function runChild(
  args: readonly string[],
  killAt?: string,
): Promise<{ stdout: string; signal: string | null }> {
  return runKillableChild(child, args, killAt);
}

const lastJson = <Value>(stdout: string): Value => JSON.parse(stdout.trim().split('\n').at(-1)!) as Value;

async function logLines(path: string): Promise<string[]> {
  return (await readFile(path, 'utf8')).trim().split('\n');
}

describe('a three-level agent tree across processes', () => {
  it('the grandchild waits for approval, the process is killed, another approves and finishes: every finished tool ran once', async () => {
    const dir = join(scratch, 'approval');
    const log = join(scratch, 'approval.log');
    const waiting = await runChild(['approval', 'start', dir, log], 'WAITING');
    expect(waiting.signal).toBe('SIGKILL');
    const { pendingApprovals } = JSON.parse(waiting.stdout.trim().split('\n')[0]!) as {
      pendingApprovals: PendingApproval[];
    };
    expect(pendingApprovals.map((approval) => approval.toolCallId)).toEqual(['p2/c2/g2']);
    expect(pendingApprovals[0]!.agentPath?.map((step) => step.toolName)).toEqual(['tidy', 'prune']);

    const approvals = JSON.stringify({ 'p2/c2/g2': { approved: true } });
    const resumed = await runChild(['approval', 'resume', dir, log, approvals]);
    const result = lastJson<{ stopReason: string; content: string; messages: ChatMessage[] }>(resumed.stdout);
    expect(result.stopReason).toBe('final');
    expect(result.content).toBe(
      'tidy (found space; disk pruned (found disk; logs gone (found old logs; deleted old logs)))',
    );
    expectValidTranscript(result.messages);
    const lines = await logLines(log);
    expect(lines.filter((line) => line.startsWith('start ')).sort()).toEqual([
      'start delete_all g2',
      'start search c1',
      'start search g1',
      'start search p1',
    ]);
    expect(lines.filter((line) => line.startsWith('finish ')).sort()).toEqual([
      'finish delete_all g2',
      'finish search c1',
      'finish search g1',
      'finish search p1',
    ]);
  });

  it("a crash while the grandchild's tool runs resumes every level from its checkpoint: only the interrupted call runs again", async () => {
    const dir = join(scratch, 'crash');
    const log = join(scratch, 'crash.log');
    const crashed = await runChild(['crash', 'start', dir, log], 'HANG');
    expect(crashed.signal).toBe('SIGKILL');
    const resumed = await runChild(['crash', 'resume', dir, log]);
    const result = lastJson<{ stopReason: string; content: string; messages: ChatMessage[] }>(resumed.stdout);
    expect(result.content).toBe(
      'tidy (found space; disk pruned (found disk; logs gone (found old logs; hung once)))',
    );
    expectValidTranscript(result.messages);
    const lines = await logLines(log);
    expect(lines.filter((line) => line.startsWith('finish ')).sort()).toEqual([
      'finish hang g2',
      'finish search c1',
      'finish search g1',
      'finish search p1',
    ]);
    expect(lines.filter((line) => line === 'start hang g2')).toHaveLength(2);
    for (const id of ['p1', 'c1', 'g1']) {
      expect(lines.filter((line) => line === `start search ${id}`)).toHaveLength(1);
    }
  });
});
