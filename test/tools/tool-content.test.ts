import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  InvalidArgumentError,
  ToolOrchestrator,
  ToolRunner,
  defineTool,
  toolContent,
} from '../../src/index.js';
import type { ContentPart, TraceEventData } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';

/** 3,000 bytes of base64 image data: what a trace must never copy. */
const imageData = 'A'.repeat(4000);

const screenshotParts: ContentPart[] = [
  { type: 'text', text: 'Screenshot of the home page.' },
  { type: 'image', data: imageData, mediaType: 'image/png' },
];

const smallImage: ContentPart = { type: 'image', data: 'iVBORw==', mediaType: 'image/png' };

const screenshot = defineTool({
  name: 'screenshot',
  description: 'Screenshot of a page',
  parameters: z.object({ url: z.string() }),
  execute: () => toolContent(screenshotParts),
});

async function runScreenshot(options: { maxTraceChars?: number } = {}) {
  const adapter = new ScriptedAdapter([
    ScriptedAdapter.toolCalls([['screenshot', { url: 'https://example.com' }, 'call_1']]),
    ScriptedAdapter.text('It shows a cat.'),
  ]);
  const orchestrator = new ToolOrchestrator(adapter, { screenshot }, options);
  const result = await orchestrator.run([{ role: 'user', content: 'What is on the page?' }]);
  const toolResult = result.traces.find((event) => event.type === 'tool_result')!
    .data as TraceEventData['tool_result'];
  return { adapter, result, toolResult };
}

describe('a tool returning content parts (toolContent)', () => {
  it('answers with a tool message holding the parts, sent to the model as they are', async () => {
    const { adapter, result } = await runScreenshot();
    const toolMessage = result.messages.find((message) => message.role === 'tool');
    expect(toolMessage).toEqual({ role: 'tool', tool_call_id: 'call_1', content: screenshotParts });
    expect(adapter.calls[1]!.messages.at(-1)).toEqual(toolMessage);
  });

  it('has the runner report the parts as the outcome content, text parts cut at maxResultChars', async () => {
    const long = defineTool({
      name: 'long',
      description: 'A long text and an image',
      parameters: z.object({}),
      execute: () => toolContent([{ type: 'text', text: 'x'.repeat(50) }, smallImage]),
    });
    const [outcome] = await new ToolRunner({ long }, { maxResultChars: 10 }).executeToolCalls(
      { long },
      [ScriptedAdapter.toolCall('long', {}, 'call_1')],
      { requestId: 'r', runId: 'r', turnIndex: 0 },
    );
    expect(outcome!.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^x{10}\n\[truncated: 40 of 50 characters were cut/) },
      smallImage,
    ]);
  });

  it('sends any other returned object as JSON, whatever its shape', async () => {
    const lookalike = defineTool({
      name: 'lookalike',
      description: 'Returns what looks like parts',
      parameters: z.object({}),
      execute: () => [{ type: 'text', text: 'not parts' }],
    });
    const [outcome] = await new ToolRunner({ lookalike }).executeToolCalls(
      { lookalike },
      [ScriptedAdapter.toolCall('lookalike', {}, 'call_1')],
      { requestId: 'r', runId: 'r', turnIndex: 0 },
    );
    expect(outcome!.content).toBe('[{"type":"text","text":"not parts"}]');
  });

  it('refuses a malformed part, naming it', () => {
    const bad = [
      { type: 'text', text: 'ok' },
      { type: 'image', data: 'AAAA' },
    ] as unknown as ContentPart[];
    expect(() => toolContent(bad)).toThrow(InvalidArgumentError);
    expect(() => toolContent(bad)).toThrow(
      'Invalid toolContent(parts)[1] ({"type":"image","data":"AAAA"}): must be an image part with the mediaType of its base64 data',
    );
  });

  it('traces the parts with the image by size, never its data, and the text cut at maxTraceChars', async () => {
    const { toolResult } = await runScreenshot({ maxTraceChars: 10 });
    expect(toolResult.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^Screenshot\n\[trace cut: 18 of 28 characters/) },
      { type: 'image', mediaType: 'image/png', bytes: 3000 },
    ]);
    expect(toolResult.result).toEqual(toolResult.content);
    expect(toolResult.contentLength).toBe(28 + imageData.length);
    expect(JSON.stringify(toolResult)).not.toContain(imageData.slice(0, 100));
  });
});
