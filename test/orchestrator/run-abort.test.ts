import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolOrchestrator, defineTool } from '../../src/index.js';
import type { ChatMessage, ModelAdapter, ModelResponse, RunResult, TraceEvent } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { expectValidTranscript } from '../support/transcript.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });

/**
 * Answers the first call with an `echo` call, then holds the next call until the test releases it,
 * ignoring the abort signal: what it answers after the abort must not reach the run.
 */
function deafAdapter(): {
  adapter: ModelAdapter;
  held: Promise<void>;
  release: (response: ModelResponse) => void;
} {
  let calls = 0;
  let release!: (response: ModelResponse) => void;
  let holding!: () => void;
  const held = new Promise<void>((resolve) => {
    holding = resolve;
  });
  const adapter: ModelAdapter = {
    call() {
      calls++;
      if (calls === 1) return Promise.resolve(ScriptedAdapter.toolCalls([['echo', { text: 'first' }, 'c1']]));
      holding();
      return new Promise<ModelResponse>((resolve) => {
        release = resolve;
      });
    },
  };
  return { adapter, held, release: (response) => release(response) };
}

function echoTool(executed: string[]) {
  return defineTool({
    name: 'echo',
    description: 'Echo',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => {
      executed.push(text);
      return text;
    },
  });
}

/** Aborts while the deaf adapter holds a call, then lets it answer and checks the run took nothing from it. */
async function abortThenAnswerLate(
  start: (
    orchestrator: ToolOrchestrator,
    onEvent: (event: TraceEvent) => void,
  ) => {
    result: Promise<RunResult>;
    abort: () => void;
  },
  options: { maxTurns?: number; onCutShort?: 'final_answer' } = {},
): Promise<void> {
  const { adapter, held, release } = deafAdapter();
  const executed: string[] = [];
  const orchestrator = new ToolOrchestrator(adapter, { echo: echoTool(executed) }, options);
  const events: TraceEvent[] = [];
  const run = start(orchestrator, (event) => events.push(event));
  await Promise.race([
    held,
    sleep(5_000).then(() => Promise.reject(new Error('the second call never came'))),
  ]);
  run.abort();
  const result = await Promise.race([
    run.result,
    sleep(2_000).then(() => Promise.reject(new Error('the run did not settle at the abort'))),
  ]);
  expect(result.stopReason).toBe('aborted');
  const messages = structuredClone(result.messages);
  const eventCount = events.length;
  expect(events.at(-1)).toMatchObject({ type: 'run_end', data: { stopReason: 'aborted' } });

  // The held call answers now, with a tool call and then with text: neither may reach the run.
  release(ScriptedAdapter.toolCalls([['echo', { text: 'late' }, 'c2']]));
  await sleep(30);
  expect(executed).toEqual(['first']);
  expect(result.messages).toEqual(messages);
  expectValidTranscript(result.messages);
  expect(events).toHaveLength(eventCount);
  expect(result.traces).toHaveLength(eventCount);
}

describe('abort with an adapter that ignores the signal, then answers', () => {
  it('run(): the run settles at the abort and nothing the late answer says reaches it', async () => {
    await abortThenAnswerLate((orchestrator, onEvent) => {
      const controller = new AbortController();
      return {
        result: orchestrator.run([user('go')], undefined, { signal: controller.signal, onEvent }),
        abort: () => controller.abort(),
      };
    });
  });

  it('stream(): the same through abort()', async () => {
    await abortThenAnswerLate((orchestrator, onEvent) => {
      const stream = orchestrator.stream([user('go')], undefined, { onEvent });
      return { result: stream.result, abort: () => stream.abort() };
    });
  });

  it("onCutShort: 'final_answer': an abort during the tools-off call ends it the same way", async () => {
    await abortThenAnswerLate(
      (orchestrator, onEvent) => {
        const controller = new AbortController();
        return {
          result: orchestrator.run([user('go')], undefined, { signal: controller.signal, onEvent }),
          abort: () => controller.abort(),
        };
      },
      { maxTurns: 1, onCutShort: 'final_answer' },
    );
  });

  it('runs sharing one orchestrator signal each settle, and all abort with it', async () => {
    const controller = new AbortController();
    let calls = 0;
    const adapter: ModelAdapter = {
      call: () =>
        ++calls <= 20 ? Promise.resolve(ScriptedAdapter.text('ok')) : new Promise<ModelResponse>(() => {}),
    };
    const orchestrator = new ToolOrchestrator(adapter, {}, { signal: controller.signal });
    for (let index = 0; index < 20; index++) {
      expect((await orchestrator.run([user('go')])).stopReason).toBe('final');
    }
    const hanging = [orchestrator.run([user('go')]), orchestrator.stream([user('go')]).result];
    await sleep(5);
    controller.abort();
    const results = await Promise.race([
      Promise.all(hanging),
      sleep(2_000).then(() => Promise.reject(new Error('the runs did not settle at the abort'))),
    ]);
    expect(results.map((result) => result.stopReason)).toEqual(['aborted', 'aborted']);
  });

  it('many runs and parallel tools waiting on one signal add no listener per wait (no leak warning)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(`${warning.name}: ${warning.message}`);
    };
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      const shared = new AbortController();
      const slow = defineTool({
        name: 'slow',
        description: 'Waits',
        parameters: z.object({ n: z.number() }),
        execute: ({ n }) => sleep(20).then(() => n),
      });
      const calls = Array.from({ length: 16 }, (_, index) => ['slow', { n: index }, `c${index}`] as const);
      const orchestrator = new ToolOrchestrator(
        {
          call: (messages) =>
            Promise.resolve(
              messages.some((message) => message.role === 'tool')
                ? ScriptedAdapter.text('done')
                : ScriptedAdapter.toolCalls(calls),
            ),
        },
        { slow },
        { signal: controller.signal, toolConcurrency: 16 },
      );
      // 24 runs at once, each with the orchestrator's signal and a signal they share, each running
      // 16 tool calls at once.
      const results = await Promise.all(
        Array.from({ length: 24 }, () =>
          orchestrator.run([user('go')], undefined, { signal: shared.signal }),
        ),
      );
      expect(results.map((result) => result.stopReason)).toEqual(Array(24).fill('final'));
      await sleep(10);
      expect(warnings.filter((warning) => warning.startsWith('MaxListenersExceededWarning'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
