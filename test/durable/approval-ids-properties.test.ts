import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolOrchestrator, defineTool } from '../../src/index.js';
import type { ChatMessage, ModelAdapter, PrepareTurnHook, RunResult, RunState } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { expectValidTranscript } from '../support/transcript.js';

// A model that reuses tool call ids across turns (as some local servers do: `call_0` every turn, or
// an empty id), a prepareTurn hook that replaces the transcript at random turns, and runs that pause
// for approval and are resumed from plain JSON with random decisions. Whatever the script: a call
// that needs approval runs only when a person approved that very call, every call runs at most once,
// and the transcript stays valid.

const idPool = ['call_0', 'call_1', 'call_2', ''] as const;

const turnsArbitrary = fc.array(
  fc.array(fc.record({ gated: fc.boolean(), id: fc.constantFrom(...idPool) }), {
    minLength: 1,
    maxLength: 3,
  }),
  { minLength: 1, maxLength: 6 },
);

describe('approvals with reused tool call ids, property-based', () => {
  it('a decision applies only to the call it was given for, across transcript replacement and resume', async () => {
    await fc.assert(
      fc.asyncProperty(
        turnsArbitrary,
        fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
        fc.infiniteStream(fc.constantFrom('approve', 'deny', 'later')),
        fc.integer({ min: 1, max: 3 }),
        async (turns, compactAt, decisions, concurrency) => {
          // Each call's argument is its serial number, so a run of the tool says which call it was.
          let serial = 0;
          const script = turns.map((calls) =>
            ScriptedAdapter.toolCalls(
              calls.map(({ gated, id }) => [gated ? 'gated' : 'free', { serial: serial++ }, id] as const),
            ),
          );
          let callIndex = 0;
          const adapter: ModelAdapter = {
            provider: 'script',
            call: () => Promise.resolve(script[callIndex++] ?? ScriptedAdapter.text('done')),
          };
          const executed: number[] = [];
          const execute = ({ serial: called }: { serial: number }) => {
            executed.push(called);
            return called;
          };
          const parameters = z.object({ serial: z.number() });
          const tools = {
            free: defineTool({ name: 'free', description: 'Runs freely', parameters, execute }),
            gated: defineTool({
              name: 'gated',
              description: 'Needs a yes',
              parameters,
              needsApproval: true,
              execute,
            }),
          };
          // Compaction: the transcript becomes the first user message and a summary.
          const prepareTurn: PrepareTurnHook = ({ turn, messages }) =>
            compactAt[turn] === true && turn > 0
              ? {
                  messages: [messages[0]!, { role: 'user', content: `summary before turn ${turn}` }],
                  replaceTranscript: true,
                }
              : undefined;
          const orchestrator = new ToolOrchestrator(adapter, tools, {
            prepareTurn,
            toolConcurrency: concurrency,
            maxTurns: 20,
            loopGuard: false,
          });

          const approved = new Set<number>();
          const asked: number[] = [];
          let result: RunResult = await orchestrator.run([{ role: 'user', content: 'go' }]);
          for (let round = 0; round < 40 && result.stopReason === 'awaiting_approval'; round++) {
            const approvals: Record<string, { approved: boolean }> = {};
            for (const pending of result.pendingApprovals ?? []) {
              const { serial: called } = JSON.parse(pending.arguments) as { serial: number };
              if (!asked.includes(called)) asked.push(called);
              const decision = decisions.next().value as string;
              if (decision === 'later') continue;
              approvals[pending.toolCallId] = { approved: decision === 'approve' };
              if (decision === 'approve') approved.add(called);
            }
            const state = JSON.parse(JSON.stringify(result.state)) as RunState;
            result = await orchestrator.resume(state, { approvals });
          }

          expect(result.stopReason).toBe('final');
          expectValidTranscript(result.messages as ChatMessage[]);
          const gatedSerials = new Set<number>();
          let next = 0;
          for (const calls of turns)
            for (const call of calls)
              if (call.gated) gatedSerials.add(next++);
              else next++;
          // Every gated call was asked about, once, and ran only if approved.
          expect([...asked].sort((a, b) => a - b)).toEqual([...gatedSerials]);
          for (const called of executed)
            if (gatedSerials.has(called))
              expect(approved.has(called), `call ${called} ran without a yes`).toBe(true);
          expect(new Set(executed).size).toBe(executed.length);
          for (const called of approved) expect(executed).toContain(called);
          // Every free call ran.
          for (let called = 0; called < next; called++)
            if (!gatedSerials.has(called)) expect(executed).toContain(called);
        },
      ),
      { numRuns: 200 },
    );
  });
});
