import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCheckpointStore, ToolOrchestrator, defineTool } from '../../src/index.js';
import type { ChatMessage, CheckpointStore, ModelAdapter, RunResult, RunState } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { expectValidTranscript } from '../support/transcript.js';

// A run is interrupted at a random point (its store fails a save, as a process killed while saving
// would leave it; or it is aborted after a random number of events), paused for approvals, and
// resumed from its last checkpoint until it ends. Whatever the script and the interruptions: the
// final transcript is valid, the run ends with the script's answer, a call whose result was
// recorded never runs again, and no call runs more than twice.

interface ScriptTurn {
  readonly calls: readonly { readonly gated: boolean; readonly a: number }[];
}

const turnArbitrary = fc.record({
  calls: fc.array(fc.record({ gated: fc.boolean(), a: fc.integer({ min: 0, max: 99 }) }), {
    minLength: 1,
    maxLength: 3,
  }),
});

/** Answers by how many assistant messages the transcript holds: a model call repeated after a crash gets the same answer. */
function scriptAdapter(turns: readonly ScriptTurn[]): ModelAdapter {
  return {
    provider: 'script',
    async call(messages: readonly ChatMessage[]) {
      const index = messages.filter((message) => message.role === 'assistant').length;
      const turn = turns[index];
      if (turn === undefined) return ScriptedAdapter.text(`answered after ${turns.length} turns`);
      return ScriptedAdapter.toolCalls(
        turn.calls.map((call, position) => [
          call.gated ? 'gated' : 'add',
          { a: call.a },
          `t${index}c${position}`,
        ]),
      );
    },
  };
}

/** Fails save number `failAt` (counted over the whole test) with "killed", once. */
class FailingStore implements CheckpointStore {
  saves = 0;
  constructor(
    readonly inner: CheckpointStore,
    readonly failAt: number,
  ) {}
  save(runId: string, state: RunState): Promise<void> {
    this.saves++;
    if (this.saves === this.failAt) return Promise.reject(new Error('killed'));
    return this.inner.save(runId, state);
  }
  load(runId: string): Promise<RunState | undefined> {
    return this.inner.load(runId);
  }
  delete(runId: string): Promise<void> {
    return this.inner.delete(runId);
  }
}

/** The tool call ids whose results a checkpoint holds: answered in its transcript, or done in its turn. */
function recordedIds(state: RunState | undefined): Set<string> {
  const ids = new Set<string>();
  for (const message of state?.messages ?? []) if (message.role === 'tool') ids.add(message.tool_call_id);
  for (const call of state?.currentTurn?.toolCalls ?? [])
    if (call.status === 'done') ids.add(call.toolCallId);
  return ids;
}

describe('resume, property-based', () => {
  it('after interruptions at random points and approvals in several resumes, every run ends well and no recorded call runs again', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(turnArbitrary, { minLength: 0, maxLength: 5 }),
        fc.integer({ min: 1, max: 30 }),
        fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
        fc.infiniteStream(fc.constantFrom('approve', 'deny', 'later')),
        fc.integer({ min: 1, max: 3 }),
        async (turns, failAt, abortAfterEvents, decisions, concurrency) => {
          const executed: string[] = [];
          const execute = ({ a }: { a: number }, context: { toolCallId: string }) => {
            executed.push(context.toolCallId);
            return a + 1;
          };
          const tools = {
            add: defineTool({
              name: 'add',
              description: 'Add',
              parameters: z.object({ a: z.number() }),
              execute,
            }),
            gated: defineTool({
              name: 'gated',
              description: 'Needs a yes',
              parameters: z.object({ a: z.number() }),
              needsApproval: true,
              execute,
            }),
          };
          const memory = new MemoryCheckpointStore();
          const store = new FailingStore(memory, failAt);
          const orchestrator = new ToolOrchestrator(scriptAdapter(turns), tools, {
            checkpointStore: store,
            toolConcurrency: concurrency,
            maxTurns: 20,
            // The script may repeat a call word for word; that is not what this test is about.
            loopGuard: false,
          });
          // One abort, at the n-th event over the whole test, of whichever attempt is running then.
          let controller = new AbortController();
          let events = 0;
          const onEvent = (): void => {
            if (abortAfterEvents !== undefined && ++events === abortAfterEvents) controller.abort();
          };
          const options = () => ({ runId: 'p', signal: controller.signal, onEvent });
          let result: RunResult | undefined;
          const attempt = async (go: () => Promise<RunResult>): Promise<void> => {
            controller = new AbortController();
            try {
              result = await go();
            } catch (error) {
              expect((error as Error).message).toBe('killed');
              result = undefined;
            }
          };
          await attempt(() => orchestrator.run([{ role: 'user', content: 'go' }], undefined, options()));
          for (let round = 0; round < 40 && result?.stopReason !== 'final'; round++) {
            const saved = await memory.load('p');
            const recorded = recordedIds(saved);
            const before = executed.length;
            if (saved === undefined) {
              // Killed before the first checkpoint: nothing to resume, start again.
              await attempt(() => orchestrator.run([{ role: 'user', content: 'go' }], undefined, options()));
            } else {
              const approvals: Record<string, { approved: boolean }> = {};
              for (const pending of saved.pendingApprovals) {
                const decision = decisions.next().value as string;
                if (decision !== 'later')
                  approvals[pending.toolCallId] = { approved: decision === 'approve' };
              }
              await attempt(() => orchestrator.resume('p', { ...options(), approvals }));
            }
            for (const id of executed.slice(before)) expect(recorded.has(id), `${id} ran again`).toBe(false);
          }
          expect(result?.stopReason).toBe('final');
          expect(result!.content).toBe(`answered after ${turns.length} turns`);
          expectValidTranscript(result!.messages);
          // Every call of the script is answered once in the transcript.
          const answered = result!.messages.filter((message) => message.role === 'tool');
          expect(answered).toHaveLength(turns.reduce((sum, turn) => sum + turn.calls.length, 0));
          // At-least-once: a call cut off mid-flight may run twice, never more.
          const counts = new Map<string, number>();
          for (const id of executed) counts.set(id, (counts.get(id) ?? 0) + 1);
          for (const [id, count] of counts) expect(count, id).toBeLessThanOrEqual(2);
          // The saved run ended too, with the same answer.
          expect((await memory.load('p'))?.result).toEqual({ content: result!.content });
        },
      ),
      { numRuns: 150 },
    );
  });
});
