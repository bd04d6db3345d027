import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import type { WorkflowBundle } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolOrchestrator, defineTool } from '../../src/index.js';
import type { TraceEvent } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { createTemporalActivities } from '../../src/temporal.js';
import type { TemporalActivities } from '../../src/temporal.js';
import { loadActivityAgent } from '../../src/temporal-workflow.js';
import { historyOf } from './fixtures/history.js';
import type { RecordedActivity } from './fixtures/history.js';

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/** The worker's activities, run for real in a mock activity context, each call recorded. */
function recordingActivities(recorded: RecordedActivity[]): TemporalActivities {
  const adapter = new ScriptedAdapter([
    ScriptedAdapter.toolCalls([['add', { a: 2, b: 3 }, 'call_1']]),
    ScriptedAdapter.text('5'),
  ]);
  const real = createTemporalActivities({ adapters: { scripted: adapter }, tools: { add } });
  return new Proxy(real, {
    get: (target, type: keyof TemporalActivities) => async (input: unknown) => {
      const output: unknown = await new MockActivityEnvironment().run(
        target[type] as (input: unknown) => Promise<unknown>,
        input,
      );
      recorded.push({ type, input: structuredClone(input), output: structuredClone(output) });
      return output;
    },
  });
}

/** Activities that answer from a recording, in order, and record what the workflow asked. */
function replayingActivities(
  recording: readonly RecordedActivity[],
  asked: RecordedActivity[],
): TemporalActivities {
  return new Proxy({} as TemporalActivities, {
    get: (_target, type: string) => async (input: unknown) => {
      const next = recording[asked.length];
      asked.push({ type, input: structuredClone(input), output: next?.output });
      if (next === undefined) throw new Error(`The recording has no call ${asked.length}: ${type}`);
      return structuredClone(next.output);
    },
  });
}

/** The calculator workflow's body, outside the sandbox, on the given activities. */
async function runCalculator(
  activities: TemporalActivities,
): Promise<{ content: string; traces: TraceEvent[] }> {
  let id = 0;
  const agent = await loadActivityAgent({
    activities,
    now: () => 1_767_225_600_000,
    generateId: () => `id-${id++}`,
  });
  const orchestrator = new ToolOrchestrator(agent.adapter, agent.tools, { ...agent.options, maxTurns: 4 });
  return orchestrator.run([{ role: 'user', content: '2+3?' }], 'You add numbers.');
}

describe('the loop as a Temporal workflow', () => {
  const recording: RecordedActivity[] = [];
  let first: { content: string; traces: TraceEvent[] };

  beforeAll(async () => {
    first = await runCalculator(recordingActivities(recording));
  });

  it('calls the model and the tools through activities whose inputs and outputs are plain JSON', () => {
    expect(first.content).toBe('5');
    expect(recording.map((call) => call.type)).toEqual([
      'describeAgent',
      'callModel',
      'callTool',
      'callModel',
    ]);
    expect(recording[2]!.output).toMatchObject({ toolCallId: 'call_1', name: 'add', content: '5' });
    for (const call of recording) expect(JSON.parse(JSON.stringify(call))).toEqual(call);
  });

  it('issues the same activity calls and emits the same events when driven again from the recorded results', async () => {
    const asked: RecordedActivity[] = [];
    const second = await runCalculator(replayingActivities(recording, asked));
    expect(asked.map(({ type, input }) => ({ type, input }))).toEqual(
      recording.map(({ type, input }) => ({ type, input })),
    );
    expect(second.traces).toEqual(first.traces);
    expect(second.content).toBe(first.content);
  });

  describe('in the workflow sandbox (bundleWorkflowCode and Worker.runReplayHistory, no server)', () => {
    let workflowBundle: WorkflowBundle;

    beforeAll(async () => {
      Runtime.install({ logger: new DefaultLogger('WARN') });
      workflowBundle = await bundleWorkflowCode({
        workflowsPath: new URL('fixtures/workflows.ts', import.meta.url).pathname,
        logger: new DefaultLogger('WARN'),
      });
    }, 180_000);

    it('bundles the workflow entry and the root entry past Temporal determinism and import checks', () => {
      expect(workflowBundle.code).toContain('calculatorWorkflow');
      expect(workflowBundle.code).toContain('toolOrchestrator.approveToolCalls');
    });

    it('replays a history of the recorded activities without a determinism violation', async () => {
      const history = historyOf('calculatorWorkflow', ['2+3?'], recording, '5');
      await expect(
        Worker.runReplayHistory({ workflowBundle }, history, 'calculator-1'),
      ).resolves.toBeUndefined();
    }, 60_000);

    it('fails the replay of a history whose activities differ from what the workflow calls', async () => {
      // The history ends after the tool call, where the workflow goes on to call the model.
      const history = historyOf('calculatorWorkflow', ['2+3?'], recording.slice(0, 3), '5');
      await expect(Worker.runReplayHistory({ workflowBundle }, history, 'calculator-2')).rejects.toThrow(
        /nondetermin|determinism/i,
      );
    }, 60_000);
  });
});
