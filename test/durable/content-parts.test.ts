import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  FileCheckpointStore,
  InvalidRunStateError,
  ToolOrchestrator,
  defineTool,
  toolContent,
  validateRunState,
} from '../../src/index.js';
import type { ContentPart } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { makeRunState } from '../support/run-states.js';
import { expectValidTranscript } from '../support/transcript.js';

const parts: ContentPart[] = [
  { type: 'text', text: 'The chart:' },
  { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
  { type: 'file', url: 'https://example.com/data.csv', mediaType: 'text/csv', filename: 'data.csv' },
];

function makeTools(log: string[]) {
  return {
    chart: defineTool({
      name: 'chart',
      description: 'Draw a chart',
      parameters: z.object({}),
      execute: () => {
        log.push('chart');
        return toolContent(parts);
      },
    }),
    publish: defineTool({
      name: 'publish',
      description: 'Publish the chart',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => {
        log.push('publish');
        return 'published';
      },
    }),
  };
}

describe('content parts in a saved run', () => {
  it('survive a pause for approval and a resume in a new orchestrator from the file store', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'content-parts-'));
    try {
      const log: string[] = [];
      const question = {
        role: 'user' as const,
        content: [{ type: 'text' as const, text: 'Chart this:' }, parts[1]!],
      };
      const first = new ToolOrchestrator(
        new ScriptedAdapter([
          ScriptedAdapter.toolCalls([
            ['chart', {}, 'c1'],
            ['publish', {}, 'p1'],
          ]),
        ]),
        makeTools(log),
        { checkpointStore: new FileCheckpointStore({ dir }) },
      );
      const paused = await first.run([question], undefined, { runId: 'chart-1' });
      expect(paused.stopReason).toBe('awaiting_approval');

      const adapter = new ScriptedAdapter([ScriptedAdapter.text('Published.')]);
      const second = new ToolOrchestrator(adapter, makeTools(log), {
        checkpointStore: new FileCheckpointStore({ dir }),
      });
      const result = await second.resume('chart-1', { approvals: { p1: { approved: true } } });
      expect(result.content).toBe('Published.');
      expect(log).toEqual(['chart', 'publish']);
      expectValidTranscript(result.messages);
      expect(result.messages[0]).toEqual(question);
      expect(
        result.messages.find((message) => message.role === 'tool' && message.tool_call_id === 'c1'),
      ).toEqual({
        role: 'tool',
        tool_call_id: 'c1',
        content: parts,
      });
      expect(adapter.calls[0]!.messages.find((message) => message.role === 'tool')?.content).toEqual(parts);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('validateRunState accepts parts and names a malformed one', () => {
    const good = makeRunState({ messages: [{ role: 'user', content: parts }] });
    expect(validateRunState(JSON.parse(JSON.stringify(good)))).toEqual(good);
    const bad = makeRunState({
      messages: [
        { role: 'user', content: [parts[0]!, { type: 'video', url: 'x' }] as unknown as ContentPart[] },
      ],
    });
    const failure = (() => {
      try {
        validateRunState(bad);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(failure).toBeInstanceOf(InvalidRunStateError);
    expect((failure as InvalidRunStateError).path).toBe('messages[0].content[1]');
    expect((failure as Error).message).toContain('{"type":"video","url":"x"}');
    expect((failure as Error).message).toMatch(/a content part of type "text", "image" or "file"/);
  });
});
