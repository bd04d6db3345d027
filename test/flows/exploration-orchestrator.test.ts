import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import {
  ExplorationOrchestrator,
  maxStepsSummaryRequest,
} from '../../src/flows/exploration/exploration-orchestrator.js';
import { explorationSystemPrompt } from '../../src/flows/exploration/exploration-system-prompt.js';
import { ScriptedAdapter } from '../../src/testing/scripted-adapter.js';
import type { TraceEvent } from '../../src/tracing/trace-events.js';
import { textContent } from '../support/transcript.js';

const axiosRoot = fileURLToPath(new URL('../../node_modules/axios', import.meta.url));

describe('ExplorationOrchestrator over axios', () => {
  it('lists files, reads one, and ends with finish_exploration', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['list_files', { path: 'lib', pattern: '*.js' }]]),
      ScriptedAdapter.toolCalls([['read_file', { path: 'lib/axios.js', end_line: 40 }]]),
      ScriptedAdapter.toolCalls([
        ['finish_exploration', { summary: 'axios exports a default instance made by createInstance.' }],
      ]),
    ]);
    const explorer = new ExplorationOrchestrator({ repoRoot: axiosRoot, adapter });
    const summary = await explorer.run('Explain the main axios API');

    expect(summary).toBe('axios exports a default instance made by createInstance.');
    expect(explorer.explorationComplete).toBe(true);
    expect(explorer.understanding).toBe(summary);
    expect(explorer.steps).toBe(3);
    expect(adapter.calls).toHaveLength(3);
    const firstCall = adapter.calls[0]!;
    expect(firstCall.messages[0]).toEqual({
      role: 'system',
      content: explorationSystemPrompt('Explain the main axios API', axiosRoot),
    });
    expect(firstCall.messages[0]?.content).toContain("User's request: Explain the main axios API");
    const toolNames = firstCall.tools.map((tool) => tool.function.name);
    expect(toolNames).toContain('finish_exploration');
    expect(toolNames).toEqual([
      'list_files',
      'read_file',
      'get_symbols',
      'get_imports',
      'get_definition',
      'get_references',
      'get_structure',
      'search_text',
      'finish_exploration',
    ]);
    // Every tool result is in memory, the real file contents included.
    const toolMessages = explorer.memory.filter((message) => message.role === 'tool');
    expect(toolMessages).toHaveLength(3);
    expect(toolMessages[0]?.content).toContain('lib/axios.js');
    expect(toolMessages[1]?.content).toContain('File: lib/axios.js');
    expect(adapter.calls[2]!.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: expect.stringContaining('File: lib/axios.js'),
    });
  });

  it('stops at maxSteps with a warning trace and a logged warning, then summarizes with tools off', async () => {
    const events: TraceEvent[] = [];
    const warn = vi.fn();
    const adapter = new ScriptedAdapter([
      // Five different folders: the same call five times in a row would be caught by the loop guard.
      ...['lib', 'lib/core', 'lib/adapters', 'lib/helpers', 'lib/platform'].map((path) =>
        ScriptedAdapter.toolCalls([['list_files', { path }]]),
      ),
      ScriptedAdapter.text('Partial: lib/ holds the core, adapters and helpers.'),
    ]);
    const explorer = new ExplorationOrchestrator({
      repoRoot: axiosRoot,
      adapter,
      maxSteps: 5,
      logger: { warn },
      traceEmitter: (event) => void events.push(event),
    });
    const summary = await explorer.run('Explain the main axios API');

    expect(explorer.steps).toBe(5);
    expect(explorer.stopReason).toBe('max_turns');
    expect(explorer.explorationComplete).toBe(false);
    expect(summary).toBe('Partial: lib/ holds the core, adapters and helpers.');
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]?.[0]).toContain('maxSteps (5)');
    expect(events.filter((event) => event.type === 'warning').map((event) => event.data)).toEqual([
      expect.objectContaining({ code: 'max_turns' }),
    ]);
    // The summary call: tools off, the request last.
    const last = adapter.calls[5]!;
    expect(last.options.toolChoice).toBe('none');
    expect(last.messages.at(-1)).toEqual({ role: 'user', content: maxStepsSummaryRequest });
    expect(explorer.memory.at(-1)).toEqual({ role: 'assistant', content: summary });
    // The summary call is traced like any other model call.
    const summaryCall = events.filter((event) => event.type === 'llm_call').at(-1);
    expect(summaryCall?.data).toMatchObject({ finalAnswer: true });
    expect(events.at(-1)).toMatchObject({ type: 'run_end', data: { turns: 6, stopReason: 'max_turns' } });
  });

  it('summarizes with tools off when the loop guard stops a model that keeps repeating one call', async () => {
    const warn = vi.fn();
    const adapter = new ScriptedAdapter([
      ...Array.from({ length: 4 }, () => ScriptedAdapter.toolCalls([['list_files', { path: 'lib' }]])),
      ScriptedAdapter.text('Partial: lib/ holds the core.'),
    ]);
    const explorer = new ExplorationOrchestrator({
      repoRoot: axiosRoot,
      adapter,
      maxSteps: 10,
      logger: { warn },
    });
    const summary = await explorer.run('Explain the main axios API');

    expect(explorer.stopReason).toBe('loop_detected');
    expect(explorer.steps).toBe(4);
    expect(summary).toBe('Partial: lib/ holds the core.');
    expect(adapter.calls[4]!.options.toolChoice).toBe('none');
    // The third call was not run: the model was told it repeats itself.
    expect(JSON.parse(String(adapter.calls[3]!.messages.at(-1)!.content)).error).toMatch(
      /repeating yourself/,
    );
    expect(warn.mock.calls[0]?.[0]).toContain('kept repeating the same tool call');
  });

  it('gives the model an error for a missing file and keeps exploring', async () => {
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['read_file', { path: 'nonexistent.txt' }]]),
      ScriptedAdapter.toolCalls([['read_file', { path: 'package.json', end_line: 5 }]]),
      ScriptedAdapter.toolCalls([['finish_exploration', { summary: 'done' }]]),
    ]);
    const explorer = new ExplorationOrchestrator({ repoRoot: axiosRoot, adapter });
    await explorer.run('Explain the main axios API');

    const [missing, found] = explorer.memory.filter((message) => message.role === 'tool');
    expect(JSON.parse(textContent(missing!.content))).toEqual({
      error: expect.stringContaining('File not found: "nonexistent.txt"'),
    });
    expect(found?.content).toContain('"name": "axios"');
    expect(explorer.explorationComplete).toBe(true);
    expect(explorer.steps).toBe(3);
  });

  it('refuses a maxSteps that is not a positive integer', () => {
    expect(
      () =>
        new ExplorationOrchestrator({ repoRoot: axiosRoot, adapter: new ScriptedAdapter([]), maxSteps: 0 }),
    ).toThrow(/maxSteps \(0\)/);
  });
});
