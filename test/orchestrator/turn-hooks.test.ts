import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidArgumentError, ToolOrchestrator, defineTool } from '../../src/index.js';
import type {
  AssistantMessage,
  ChatMessage,
  PrepareTurnInfo,
  RepairToolCall,
  ToolCall,
  TraceEvent,
} from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { expectPairedToolEvents, expectValidTranscript, textContent } from '../support/transcript.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });

const search = defineTool({
  name: 'search',
  description: 'Search',
  parameters: z.object({ query: z.string() }),
  execute: ({ query }) => `results for ${query}`,
});
const write = defineTool({
  name: 'write',
  description: 'Write',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => `wrote ${text}`,
});
const tools = { search, write };

const toolNames = (adapter: ScriptedAdapter, call: number): string[] =>
  adapter.calls[call]!.tools.map((tool) => tool.function.name);

describe('prepareTurn', () => {
  it('switches tools per phase and forces a tool on turn 0; the trace and the transcript agree', async () => {
    const infos: PrepareTurnInfo[] = [];
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['search', { query: 'docs' }, 's1']], {
        usage: {
          promptTokens: 5,
          completionTokens: 2,
          totalTokens: 7,
          reasoningTokens: 0,
          cachedPromptTokens: 0,
        },
      }),
      ScriptedAdapter.toolCalls([['search', { query: 'again' }, 's2']]),
      ScriptedAdapter.text('done'),
    ]);
    const orchestrator = new ToolOrchestrator(adapter, tools, {
      prepareTurn: (info) => {
        infos.push({ ...info, messages: [...info.messages] });
        return info.turn === 0
          ? { activeTools: ['search'], toolChoice: { type: 'function', function: { name: 'search' } } }
          : { activeTools: ['write'] };
      },
    });
    const result = await orchestrator.run([user('research, then write')]);

    expect(toolNames(adapter, 0)).toEqual(['search']);
    expect(adapter.calls[0]!.options.toolChoice).toEqual({ type: 'function', function: { name: 'search' } });
    expect(toolNames(adapter, 1)).toEqual(['write']);
    expect(adapter.calls[1]!.options.toolChoice).toBeUndefined();
    // search is not active on turn 1: its call is answered as an unknown tool.
    expect(JSON.parse(result.messages[4]!.content as string)).toEqual({
      error: 'Unknown tool "search". Available tools: write. Call one of these by its exact name.',
    });
    expect(
      infos.map((info) => [info.turn, info.messages.length, info.usage.totalTokens, info.finalAnswer]),
    ).toEqual([
      [0, 1, 0, false],
      [1, 3, 7, false],
      [2, 5, 7, false],
    ]);
    expect(infos[0]!.tools.map((tool) => tool.function.name)).toEqual(['search', 'write']);
    expect(result.content).toBe('done');
  });

  it('sends other messages on one call while the transcript keeps the originals', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['search', { query: 'a' }, 's1']]),
      ScriptedAdapter.text('answer'),
    ]);
    const compacted: ChatMessage[] = [user('(summary of earlier turns)')];
    const result = await new ToolOrchestrator(adapter, tools).run([user('question')], 'system', {
      prepareTurn: ({ turn, messages }) =>
        turn === 1 ? { messages: [...compacted, ...messages.slice(-2)] } : undefined,
    });
    expect(adapter.calls[1]!.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(adapter.calls[1]!.messages[0]).toEqual(user('(summary of earlier turns)'));
    // The transcript is the original one, with the response appended.
    expect(result.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    const llmCalls = result.traces.filter((event) => event.type === 'llm_call');
    expect(llmCalls[1]!.data.messages).toEqual(adapter.calls[1]!.messages);
    expect(llmCalls[1]!.data.messageCount).toBe(3);
    // Changing the hook's array afterwards does not change the event.
    compacted.push(user('later'));
    expect(llmCalls[1]!.data.messages).toHaveLength(3);
  });

  it('replaces the transcript with replaceTranscript, leaving earlier snapshots as they were', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['search', { query: 'a' }, 's1']]),
      ScriptedAdapter.text('answer'),
    ]);
    const result = await new ToolOrchestrator(adapter, tools).run([user('question')], undefined, {
      prepareTurn: ({ turn, messages }) =>
        turn === 1
          ? { messages: [user('compacted'), ...messages.slice(1)], replaceTranscript: true }
          : undefined,
    });
    expect(result.messages[0]).toEqual(user('compacted'));
    expect(result.messages).toHaveLength(4);
    expectValidTranscript(result.messages);
    const llmCalls = result.traces.filter((event) => event.type === 'llm_call');
    expect(llmCalls[0]!.data.messages).toEqual([user('question')]);
  });

  it('a run hook replaces the orchestrator hook; a bad result fails the run with a clear error', async () => {
    const adapter = new ScriptedAdapter([ScriptedAdapter.text('ok'), ScriptedAdapter.text('ok')]);
    const orchestrator = new ToolOrchestrator(adapter, tools, {
      prepareTurn: () => ({ activeTools: ['search'] }),
    });
    await orchestrator.run([user('go')], undefined, { prepareTurn: () => ({ activeTools: ['write'] }) });
    expect(toolNames(adapter, 0)).toEqual(['write']);
    const events: TraceEvent[] = [];
    await expect(
      orchestrator.run([user('go')], undefined, {
        prepareTurn: () => ({ activeTools: ['delete'] }),
        onEvent: (event) => void events.push(event),
      }),
    ).rejects.toThrow(
      /prepareTurn\(\)\.activeTools \("delete"\): is not a tool of the registry \(search, write\)/,
    );
    expect(events.map((event) => event.type)).toEqual(['run_start', 'error', 'run_end']);
    await expect(
      orchestrator.run([user('go')], undefined, {
        prepareTurn: () => ({
          activeTools: ['write'],
          toolChoice: { type: 'function', function: { name: 'search' } },
        }),
      }),
    ).rejects.toThrow(InvalidArgumentError);
  });
});

describe('toolChoice and resetToolChoice', () => {
  it("sends a forced choice until it produced tool calls, then 'auto', so the run ends", async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['search', { query: 'a' }]]),
      ScriptedAdapter.text('found it'),
    ]);
    const result = await new ToolOrchestrator(adapter, tools, { toolChoice: 'required', maxTurns: 5 }).run([
      user('go'),
    ]);
    expect(adapter.calls.map((call) => call.options.toolChoice)).toEqual(['required', 'auto']);
    expect(result.stopReason).toBe('final');
  });

  it('keeps a named forced choice on every call with resetToolChoice: false (the trap the default avoids)', async () => {
    const forced = { type: 'function', function: { name: 'search' } } as const;
    const adapter = new ScriptedAdapter(
      Array.from({ length: 3 }, (_value, index) =>
        ScriptedAdapter.toolCalls([['search', { query: `q${index}` }]]),
      ),
    );
    const result = await new ToolOrchestrator(adapter, tools, {
      toolChoice: forced,
      resetToolChoice: false,
      maxTurns: 3,
    }).run([user('go')]);
    expect(adapter.calls.map((call) => call.options.toolChoice)).toEqual([forced, forced, forced]);
    expect(result.stopReason).toBe('max_turns');
  });

  it("a run's toolChoice replaces the orchestrator's; a choice naming an unknown tool is refused", () => {
    const adapter = new ScriptedAdapter([ScriptedAdapter.text('ok')]);
    expect(
      () =>
        new ToolOrchestrator(adapter, tools, {
          toolChoice: { type: 'function', function: { name: 'nope' } },
        }),
    ).toThrow(/toolChoice .*names the tool "nope", which is not in the registry \(search, write\)/);
    expect(() => new ToolOrchestrator(adapter, tools, { toolChoice: 'always' as never })).toThrow(
      InvalidArgumentError,
    );
    const orchestrator = new ToolOrchestrator(adapter, tools, { toolChoice: 'required' });
    return orchestrator.run([user('go')], undefined, { toolChoice: 'none' }).then(() => {
      expect(adapter.calls[0]!.options.toolChoice).toBe('none');
    });
  });
});

describe('repairToolCall', () => {
  const unwrap: RepairToolCall = ({ toolCall, error }) => {
    if (error.code === 'unknown_tool' && toolCall.function.name === 'Search') {
      return { ...toolCall, function: { ...toolCall.function, name: 'search' } };
    }
    if (error.code === 'invalid_json') {
      return {
        ...toolCall,
        function: { ...toolCall.function, arguments: toolCall.function.arguments.replaceAll("'", '"') },
      };
    }
    return null;
  };

  it('runs the repaired call instead, keeps its id, traces tool_call_repaired and puts it in the transcript', async () => {
    const seen: Parameters<RepairToolCall>[0][] = [];
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['Search', { query: 'case' }, 'c1'],
        ['write', "{'text': 'quotes'}", 'c2'],
        ['write', { text: 5 }, 'c3'],
      ]),
      ScriptedAdapter.text('done'),
    ]);
    const result = await new ToolOrchestrator(adapter, tools, {
      repairToolCall: (info) => {
        seen.push({ ...info, messages: [...info.messages] });
        return unwrap(info);
      },
    }).run([user('go')]);

    expect(seen.map((info) => [info.toolCall.id, info.error.code])).toEqual([
      ['c1', 'unknown_tool'],
      ['c2', 'invalid_json'],
      ['c3', 'invalid_arguments'],
    ]);
    expect(seen[0]!.tools.map((tool) => tool.function.name)).toEqual(['search', 'write']);
    expect(seen[0]!.messages).toEqual([user('go')]);
    const toolMessages = result.messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => message.content)).toEqual([
      'results for case',
      'wrote quotes',
      expect.stringContaining('do not match its parameters'),
    ]);
    // The transcript holds the calls as they ran, with the model's ids.
    const assistant = result.messages[1] as AssistantMessage & { tool_calls: readonly ToolCall[] };
    expect(
      assistant.tool_calls.map((call) => [call.id, call.function.name, call.function.arguments]),
    ).toEqual([
      ['c1', 'search', '{"query":"case"}'],
      ['c2', 'write', '{"text": "quotes"}'],
      ['c3', 'write', '{"text":5}'],
    ]);
    const repaired = result.traces.filter((event) => event.type === 'tool_call_repaired');
    expect(
      repaired.map((event) => [
        event.data.toolCallId,
        event.data.errorCode,
        event.data.original.function.name,
        event.data.repaired.function.name,
      ]),
    ).toEqual([
      ['c1', 'unknown_tool', 'Search', 'search'],
      ['c2', 'invalid_json', 'write', 'write'],
    ]);
    expect(result.traces.map((event) => event.type).slice(0, 6)).toEqual([
      'run_start',
      'llm_call',
      'tool_call_repaired',
      'tool_call_repaired',
      'tool_call',
      'tool_call',
    ]);
    expectPairedToolEvents(result.traces);
  });

  it('sends the error when the repair throws or returns something that is not a call, with a repair_failed warning', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([
        ['lookup', {}, 'c1'],
        ['search', '{', 'c2'],
      ]),
      ScriptedAdapter.text('done'),
    ]);
    const result = await new ToolOrchestrator(adapter, tools, {
      repairToolCall: ({ toolCall }) => {
        if (toolCall.id === 'c1') throw new Error('repair bug');
        return { id: 'x', function: { name: 'search' } } as never;
      },
    }).run([user('go')]);
    const warnings = result.traces.filter((event) => event.type === 'warning').map((event) => event.data);
    expect(warnings).toEqual([
      expect.objectContaining({
        code: 'repair_failed',
        toolName: 'lookup',
        message: expect.stringContaining('repair bug'),
      }),
      expect.objectContaining({ code: 'repair_failed', toolName: 'search' }),
    ]);
    const errors = result.messages
      .filter((message) => message.role === 'tool')
      .map((message) => (JSON.parse(textContent(message.content)) as { error: string }).error);
    expect(errors[0]).toContain('Unknown tool "lookup"');
    expect(errors[1]).toContain('not valid JSON');
    expect(result.traces.some((event) => event.type === 'tool_call_repaired')).toBe(false);
  });
});
