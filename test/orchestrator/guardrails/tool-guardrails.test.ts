import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  GuardrailTrippedError,
  MemoryCheckpointStore,
  ToolOrchestrator,
  defineTool,
  validateRunState,
} from '../../../src/index.js';
import type {
  ChatMessage,
  RunResult,
  ToolInputGuardrailInfo,
  ToolOutputGuardrailInfo,
  TraceEvent,
} from '../../../src/index.js';
import { ScriptedAdapter } from '../../../src/testing/index.js';
import { expectPairedToolEvents, expectValidTranscript, textContent } from '../../support/transcript.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });

const guardrailEvents = (traces: readonly TraceEvent[]) =>
  traces.flatMap((event) => (event.type === 'guardrail' ? [event.data] : []));

const toolContents = (messages: readonly ChatMessage[]) =>
  messages.flatMap((message) => (message.role === 'tool' ? [textContent(message.content)] : []));

async function rejection(run: Promise<unknown>): Promise<GuardrailTrippedError<RunResult>> {
  const error = await run.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GuardrailTrippedError);
  return error as GuardrailTrippedError<RunResult>;
}

function tools(log: string[]) {
  return {
    readFile: defineTool({
      name: 'readFile',
      description: 'Read a file',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => {
        log.push(`read ${path}`);
        return path === '.env' ? 'API_KEY=sk-secret' : `contents of ${path}`;
      },
    }),
    deleteFile: defineTool({
      name: 'deleteFile',
      description: 'Delete a file',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => {
        log.push(`delete ${path}`);
        return 'deleted';
      },
    }),
  };
}

describe('tool-input guardrails', () => {
  it('pass: the guardrail sees the call and its parsed arguments before the tool runs', async () => {
    const log: string[] = [];
    const seen: ToolInputGuardrailInfo[] = [];
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['readFile', { path: 'a.ts' }, 'c1']]),
      ScriptedAdapter.text('done'),
    ]);
    const orchestrator = new ToolOrchestrator(adapter, tools(log), {
      guardrails: {
        toolInput: [
          {
            name: 'paths',
            check: (info) => {
              seen.push(info);
              log.push('checked');
              return { type: 'pass' };
            },
          },
        ],
      },
    });
    const result = await orchestrator.run([user('read a.ts')]);

    expect(result.content).toBe('done');
    expect(log).toEqual(['checked', 'read a.ts']);
    expect(seen[0]!.toolCall).toMatchObject({ id: 'c1', function: { name: 'readFile' } });
    expect(seen[0]!.arguments).toEqual({ path: 'a.ts' });
    expect(guardrailEvents(result.traces)).toEqual([
      {
        name: 'paths',
        kind: 'tool_input',
        verdict: 'pass',
        toolCall: { id: 'c1', name: 'readFile' },
        durationMs: expect.any(Number),
      },
    ]);
  });

  it('replace: the tool does not run and the model sees the replacement as its result', async () => {
    const log: string[] = [];
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['deleteFile', { path: 'x' }, 'c1'],
        ['readFile', { path: 'a.ts' }, 'c2'],
      ]),
      ScriptedAdapter.text('ok'),
    ]);
    const orchestrator = new ToolOrchestrator(adapter, tools(log), {
      guardrails: {
        toolInput: [
          {
            name: 'read-only',
            check: ({ toolCall }) =>
              toolCall.function.name === 'deleteFile'
                ? { type: 'replace', result: 'Deleting is not allowed here.' }
                : { type: 'pass' },
          },
        ],
      },
    });
    const result = await orchestrator.run([user('clean up')]);

    expect(log).toEqual(['read a.ts']);
    expect(toolContents(adapter.calls[1]!.messages)).toEqual([
      'Deleting is not allowed here.',
      'contents of a.ts',
    ]);
    expect(guardrailEvents(result.traces).map((event) => event.verdict)).toEqual(['replace', 'pass']);
    expectValidTranscript(result.messages);
    expectPairedToolEvents(result.traces);
  });

  it('tripwire: no call of the turn runs, every call is answered, and run() rejects naming the call', async () => {
    const log: string[] = [];
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['readFile', { path: 'a.ts' }, 'c1'],
        ['deleteFile', { path: '/' }, 'c2'],
      ]),
      ScriptedAdapter.text('never'),
    ]);
    const orchestrator = new ToolOrchestrator(adapter, tools(log), {
      guardrails: {
        toolInput: [
          {
            name: 'no-root',
            check: ({ arguments: input }) =>
              (input as { path: string }).path === '/'
                ? { type: 'tripwire', message: 'Deleting the root.', info: input }
                : { type: 'pass' },
          },
        ],
      },
    });
    const error = await rejection(orchestrator.run([user('go')]));

    expect(log).toEqual([]);
    expect(adapter.calls).toHaveLength(1);
    expect(error).toMatchObject({
      guardrail: 'no-root',
      kind: 'tool_input',
      toolCall: { id: 'c2', name: 'deleteFile' },
      info: { path: '/' },
    });
    expect(error.message).toContain('on call c2 of deleteFile');
    expect(error.result.stopReason).toBe('guardrail_tripped');
    expectValidTranscript(error.result.messages);
    expectPairedToolEvents(error.result.traces);
    const errors = toolContents(error.result.messages).map(
      (content) => JSON.parse(content) as { error: string },
    );
    expect(errors.map((content) => content.error)).toEqual([
      'This call was not run: guardrail "no-root" tripped and the run ended.',
      'This call was not run: guardrail "no-root" tripped and the run ended.',
    ]);
    const codes = error.result.traces.flatMap((event) =>
      event.type === 'tool_result' ? [event.data.errorCode] : [],
    );
    expect(codes).toEqual(['guardrail_tripped', 'guardrail_tripped']);
  });

  it('calls that never run (unknown tool, bad arguments) are not checked', async () => {
    let checks = 0;
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['nope', {}, 'c1'],
        ['readFile', { path: 3 }, 'c2'],
      ]),
      ScriptedAdapter.text('ok'),
    ]);
    const orchestrator = new ToolOrchestrator(adapter, tools([]), {
      guardrails: {
        toolInput: [
          {
            name: 'count',
            check: () => {
              checks++;
              return { type: 'pass' };
            },
          },
        ],
      },
    });
    await orchestrator.run([user('go')]);

    expect(checks).toBe(0);
  });
});

describe('tool-output guardrails', () => {
  const redactKeys = {
    name: 'redact-keys',
    check: ({ content }: ToolOutputGuardrailInfo) =>
      typeof content === 'string' && content.includes('sk-')
        ? { type: 'replace' as const, result: '[redacted: the file holds a secret]' }
        : { type: 'pass' as const },
  };

  it('pass and replace: the model sees the replacement; the traces never hold the original', async () => {
    const log: string[] = [];
    const seen: ToolOutputGuardrailInfo[] = [];
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['readFile', { path: 'a.ts' }, 'c1'],
        ['readFile', { path: '.env' }, 'c2'],
      ]),
      ScriptedAdapter.text('ok'),
    ]);
    const orchestrator = new ToolOrchestrator(adapter, tools(log), {
      guardrails: {
        toolOutput: [
          {
            name: 'look',
            check: (info) => {
              seen.push(info);
              return { type: 'pass' };
            },
          },
          redactKeys,
        ],
      },
    });
    const result = await orchestrator.run([user('read')]);

    expect(log).toEqual(['read a.ts', 'read .env']);
    expect(seen.map((info) => [info.toolCall.id, info.content, info.result])).toEqual([
      ['c1', 'contents of a.ts', 'contents of a.ts'],
      ['c2', 'API_KEY=sk-secret', 'API_KEY=sk-secret'],
    ]);
    expect(toolContents(adapter.calls[1]!.messages)).toEqual([
      'contents of a.ts',
      '[redacted: the file holds a secret]',
    ]);
    expect(JSON.stringify(result.traces)).not.toContain('sk-secret');
    expect(JSON.stringify(result.messages)).not.toContain('sk-secret');
    expect(
      guardrailEvents(result.traces).map((event) => [event.name, event.toolCall?.id, event.verdict]),
    ).toEqual([
      ['look', 'c1', 'pass'],
      ['redact-keys', 'c1', 'pass'],
      ['look', 'c2', 'pass'],
      ['redact-keys', 'c2', 'replace'],
    ]);
  });

  it('tripwire: the result is withheld, later calls do not run, and run() rejects', async () => {
    const log: string[] = [];
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['readFile', { path: '.env' }, 'c1'],
        ['readFile', { path: 'b.ts' }, 'c2'],
      ]),
      ScriptedAdapter.text('never'),
    ]);
    const orchestrator = new ToolOrchestrator(adapter, tools(log), {
      guardrails: {
        toolOutput: [
          {
            name: 'secrets',
            check: ({ content }) =>
              String(content).includes('sk-')
                ? { type: 'tripwire', message: 'A secret leaked.' }
                : { type: 'pass' },
          },
        ],
      },
    });
    const error = await rejection(orchestrator.run([user('read')]));

    expect(log).toEqual(['read .env']);
    expect(adapter.calls).toHaveLength(1);
    expect(error).toMatchObject({ kind: 'tool_output', toolCall: { id: 'c1', name: 'readFile' } });
    expect(JSON.stringify(error.result.messages)).not.toContain('sk-secret');
    expectValidTranscript(error.result.messages);
    expectPairedToolEvents(error.result.traces);
    const codes = error.result.traces.flatMap((event) =>
      event.type === 'tool_result' ? [event.data.errorCode] : [],
    );
    expect(codes).toEqual(['guardrail_tripped', 'guardrail_tripped']);
  });

  it('judges a tool that threw, with its error code', async () => {
    const seen: ToolOutputGuardrailInfo[] = [];
    const broken = defineTool({
      name: 'broken',
      description: 'Fails',
      parameters: z.object({}),
      execute: () => {
        throw new Error('disk at /home/alice is full');
      },
    });
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['broken', {}, 'c1']]),
      ScriptedAdapter.text('ok'),
    ]);
    const orchestrator = new ToolOrchestrator(
      adapter,
      { broken },
      {
        guardrails: {
          toolOutput: [
            {
              name: 'paths',
              check: (info) => {
                seen.push(info);
                return { type: 'replace', result: 'The tool failed.' };
              },
            },
          ],
        },
      },
    );
    await orchestrator.run([user('go')]);

    expect(seen[0]).toMatchObject({ errorCode: 'tool_error', result: undefined });
    expect(toolContents(adapter.calls[1]!.messages)).toEqual(['The tool failed.']);
  });
});

describe('tool guardrails in durable runs', () => {
  it('a replaced result is what the checkpoint records; resume does not judge it again', async () => {
    const log: string[] = [];
    let checks = 0;
    const registry = {
      ...tools(log),
      deleteFile: defineTool({
        name: 'deleteFile',
        description: 'Delete a file',
        parameters: z.object({ path: z.string() }),
        needsApproval: true,
        execute: ({ path }) => {
          log.push(`delete ${path}`);
          return 'deleted';
        },
      }),
    };
    const store = new MemoryCheckpointStore();
    const guardrails = {
      toolOutput: [
        {
          name: 'redact',
          check: ({ content }: ToolOutputGuardrailInfo) => {
            checks++;
            return String(content).includes('sk-')
              ? { type: 'replace' as const, result: '[redacted]' }
              : { type: 'pass' as const };
          },
        },
      ],
    };
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['readFile', { path: '.env' }, 'c1'],
        ['deleteFile', { path: 'tmp' }, 'c2'],
      ]),
      ScriptedAdapter.text('ok'),
    ]);
    const orchestrator = new ToolOrchestrator(adapter, registry, { checkpointStore: store, guardrails });
    const paused = await orchestrator.run([user('go')], undefined, { runId: 'durable-1' });

    expect(paused.stopReason).toBe('awaiting_approval');
    const saved = await store.load('durable-1');
    expect(saved?.currentTurn?.toolCalls[0]).toMatchObject({
      status: 'done',
      outcome: { content: '[redacted]' },
    });
    expect(JSON.stringify(saved)).not.toContain('sk-secret');
    expect(checks).toBe(1);

    const resumed = await orchestrator.resume('durable-1', { approvals: { c2: { approved: true } } });

    expect(resumed.content).toBe('ok');
    expect(log).toEqual(['read .env', 'delete tmp']);
    // Only the approved call's result was judged on resume.
    expect(checks).toBe(2);
    expect(toolContents(adapter.calls[1]!.messages)).toEqual(['[redacted]', 'deleted']);
  });

  it("a tripped run is saved with stopReason 'guardrail_tripped' and resumes to its recorded result", async () => {
    const store = new MemoryCheckpointStore();
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.text('x')]),
      {},
      {
        checkpointStore: store,
        guardrails: {
          input: [{ name: 'block', check: () => ({ type: 'tripwire', message: 'no', info: { a: 1 } }) }],
        },
      },
    );
    await rejection(orchestrator.run([user('hi')], undefined, { runId: 'tripped-1' }));
    const saved = await store.load('tripped-1');

    expect(saved).toMatchObject({ stopReason: 'guardrail_tripped', result: { content: '' } });
    expect(saved?.strategyState['guardrail']).toEqual({
      guardrail: 'block',
      kind: 'input',
      message: 'no',
      info: { a: 1 },
    });
    expect(validateRunState(JSON.parse(JSON.stringify(saved)))).toMatchObject({
      stopReason: 'guardrail_tripped',
    });
    const again = await orchestrator.resume('tripped-1');
    expect(again.stopReason).toBe('guardrail_tripped');
  });

  it('a run resumed from a checkpoint saved after a tool-output tripwire still ends with it', async () => {
    const store = new MemoryCheckpointStore();
    const log: string[] = [];
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['readFile', { path: '.env' }, 'c1'],
        ['readFile', { path: 'b.ts' }, 'c2'],
      ]),
      ScriptedAdapter.text('never'),
    ]);
    const orchestrator = new ToolOrchestrator(adapter, tools(log), {
      checkpointStore: store,
      guardrails: {
        toolOutput: [
          {
            name: 'secrets',
            check: ({ content }) =>
              String(content).includes('sk-') ? { type: 'tripwire', message: 'leak' } : { type: 'pass' },
          },
        ],
      },
    });
    // The checkpoint saved right after the tripped result, as a crash would leave it.
    let afterTrip: unknown;
    const saving = store.save.bind(store);
    store.save = async (runId, state) => {
      if (afterTrip === undefined && state.currentTurn?.toolCalls[0]?.status === 'done') {
        afterTrip = structuredClone(state);
      }
      return saving(runId, state);
    };
    await rejection(orchestrator.run([user('read')], undefined, { runId: 'crash-1' }));
    const crashed = validateRunState(afterTrip);

    const fresh = new ToolOrchestrator(new ScriptedAdapter([ScriptedAdapter.text('never')]), tools(log), {});
    const error = await rejection(fresh.resume(crashed));

    expect(log).toEqual(['read .env']);
    expect(error).toMatchObject({ guardrail: 'secrets', kind: 'tool_output', tripwireMessage: 'leak' });
    expectValidTranscript(error.result.messages);
  });
});
