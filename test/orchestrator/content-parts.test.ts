import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidArgumentError, ToolOrchestrator, defineTool, toolContent } from '../../src/index.js';
import type { ChatMessage, ContentPart, ModelAdapter, TraceEvent } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { expectValidTranscript } from '../support/transcript.js';

/** 3 KB of base64 image data. */
const imageData = 'A'.repeat(4096);
const image: ContentPart = { type: 'image', data: imageData, mediaType: 'image/png' };

const screenshot = defineTool({
  name: 'screenshot',
  description: 'Screenshot of a page',
  parameters: z.object({ page: z.number() }),
  execute: ({ page }) => toolContent([{ type: 'text', text: `page ${page}` }, image]),
});

const screenshotTurn = (page: number) =>
  ScriptedAdapter.toolCalls([['screenshot', { page }, `call_${page}`]]);

describe('content parts in run() input', () => {
  it('refuses a malformed part before the run starts, naming it', async () => {
    const adapter = new ScriptedAdapter([ScriptedAdapter.text('never')]);
    const messages = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look:' },
          { type: 'image', mediaType: 'image/png' },
        ],
      },
    ] as unknown as ChatMessage[];
    const failure = await new ToolOrchestrator(adapter, {}).run(messages).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InvalidArgumentError);
    expect((failure as InvalidArgumentError).argument).toBe('messages[0].content[1]');
    expect((failure as Error).message).toMatch(/must be an image part: \{ type: 'image', url \}/);
    expect(adapter.calls).toHaveLength(0);
  });

  it('sends well-formed parts to the adapter as they are', async () => {
    const adapter = new ScriptedAdapter([ScriptedAdapter.text('A cat.')]);
    const content: ContentPart[] = [
      { type: 'text', text: 'What is this?' },
      { type: 'image', url: 'https://example.com/cat.png' },
      { type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'a.pdf' },
    ];
    await new ToolOrchestrator(adapter, {}).run([{ role: 'user', content }]);
    expect(adapter.calls[0]!.messages).toEqual([{ role: 'user', content }]);
  });
});

describe('content parts and the loop guard', () => {
  it('quotes an earlier result with parts as text, the image by its placeholder', async () => {
    const adapter = new ScriptedAdapter([
      screenshotTurn(1),
      screenshotTurn(1),
      screenshotTurn(1),
      ScriptedAdapter.text('done'),
    ]);
    const result = await new ToolOrchestrator(adapter, { screenshot }).run([
      { role: 'user', content: 'Look.' },
    ]);
    const tools = result.messages.filter((message) => message.role === 'tool');
    expect(tools.slice(0, 2).map((message) => message.content)).toEqual([
      [{ type: 'text', text: 'page 1' }, image],
      [{ type: 'text', text: 'page 1' }, image],
    ]);
    const blocked = JSON.parse(tools[2]!.content as string) as { error: string };
    expect(blocked.error).toContain('The earlier identical call returned: page 1\n[image: image/png, 3 KB]');
  });
});

describe('content parts and the context window', () => {
  it('counts an image as 1,000 tokens', async () => {
    const adapter = new ScriptedAdapter([ScriptedAdapter.text('A cat.')]);
    const result = await new ToolOrchestrator(adapter, {}, { contextWindow: { maxTokens: 100_000 } }).run([
      { role: 'user', content: [{ type: 'text', text: 'What?' }, image] },
    ]);
    // 4 for the message, 2 for the text, 1,000 for the image.
    expect(result.contextTokens).toEqual([1006]);
  });

  it('masks a result with parts whole, its placeholder saying what it held', async () => {
    const adapter = new ScriptedAdapter([
      ...[1, 2, 3, 4, 5].map(screenshotTurn),
      ScriptedAdapter.text('done'),
    ]);
    const result = await new ToolOrchestrator(
      adapter,
      { screenshot },
      { loopGuard: false, contextWindow: { maxTokens: 4096, keepRecent: 1 } },
    ).run([{ role: 'user', content: 'Look at five pages.' }]);
    expect(result.stopReason).toBe('final');
    const sent = adapter.calls.at(-1)!.messages;
    expectValidTranscript(sent);
    const first = sent.find((message) => message.role === 'tool' && message.tool_call_id === 'call_1');
    expect(first?.content).toBe(
      '[Elided to fit the context window: screenshot({"page":1}) returned 6 characters and [image: image/png, 3 KB]. Call it again to see it.]',
    );
    // The latest result is sent whole; the transcript keeps every one.
    expect(sent.at(-1)!.content).toEqual([{ type: 'text', text: 'page 5' }, image]);
    expect(
      result.messages.filter((message) => message.role === 'tool' && Array.isArray(message.content)),
    ).toHaveLength(5);
  });

  it('renders parts as text placeholders for the summarizer', async () => {
    const script = new ScriptedAdapter([
      ...[1, 2, 3, 4, 5].map(screenshotTurn),
      ScriptedAdapter.text('done'),
    ]);
    const summaryInputs: string[] = [];
    const adapter: ModelAdapter = {
      provider: 'scripted',
      async call(messages, tools, options) {
        if (tools.length === 0 && String(messages[0]?.content).startsWith('You compress')) {
          summaryInputs.push(String(messages[1]!.content));
          return { content: 'Looked at some pages.' };
        }
        return script.call(messages, tools, options);
      },
    };
    const events: TraceEvent[] = [];
    await new ToolOrchestrator(
      adapter,
      { screenshot },
      {
        loopGuard: false,
        contextWindow: { maxTokens: 4096, keepRecent: 1, strategy: 'summarize' },
        traceEmitter: (event) => void events.push(event),
      },
    ).run([{ role: 'user', content: [{ type: 'text', text: 'Look at these pages.' }, image] }]);
    expect(summaryInputs.length).toBeGreaterThan(0);
    expect(summaryInputs[0]).toContain('tool result: page 1\n[image: image/png, 3 KB]');
    expect(summaryInputs.join('\n')).not.toContain('[object Object]');
  });
});
