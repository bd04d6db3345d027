import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolOrchestrator, defineTool, toolContent } from '../../src/index.js';
import type { ContentPart, TraceEvent } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { createJsonlSink, readJsonl } from '../../src/trace.js';
import { sharedPrefixLength } from '../../src/trace/jsonl-codec.js';
import { buildTraceModel } from '../../src/trace/viewer/build-trace-model.js';
import type { ModelItem, ToolItem } from '../../src/trace/viewer/trace-model.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'content-parts-trace-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** 3 KB of base64, unlike anything else in a trace. */
const imageData = 'Qk'.repeat(2048);
const image: ContentPart = { type: 'image', data: imageData, mediaType: 'image/png' };

async function screenshotRun(traceEmitter: (event: TraceEvent) => void | Promise<void>) {
  const screenshot = defineTool({
    name: 'screenshot',
    description: 'Screenshot of a page',
    parameters: z.object({}),
    execute: () => toolContent([{ type: 'text', text: 'The home page.' }, image]),
  });
  const adapter = new ScriptedAdapter([
    ScriptedAdapter.toolCalls([['screenshot', {}, 'call_1']]),
    ScriptedAdapter.text('A cat.'),
  ]);
  return new ToolOrchestrator(adapter, { screenshot }, { traceEmitter }).run([
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is on it?' },
        { type: 'image', url: 'https://example.com/a.png' },
      ],
    },
  ]);
}

describe('content parts in traces', () => {
  it('round-trip through JSONL, and a tool_result line holds the image by size, not its data', async () => {
    const path = join(directory, 'parts.jsonl');
    const sink = createJsonlSink(path);
    const events: TraceEvent[] = [];
    await screenshotRun(async (event) => {
      events.push(event);
      await sink.write(event);
    });
    await sink.close();
    expect(JSON.parse(JSON.stringify(await readJsonl(path)))).toEqual(JSON.parse(JSON.stringify(events)));
    const resultLine = (await readFile(path, 'utf8'))
      .split('\n')
      .find((line) => line.includes('"tool_result"'))!;
    expect(resultLine).not.toContain(imageData.slice(0, 64));
    expect(JSON.parse(resultLine).data.content).toEqual([
      { type: 'text', text: 'The home page.' },
      { type: 'image', mediaType: 'image/png', bytes: 3072 },
    ]);
  });

  it('shows parts in the viewer as text with placeholders', async () => {
    const events: TraceEvent[] = [];
    await screenshotRun((event) => void events.push(event));
    const [run] = buildTraceModel(events).runs;
    const items = run!.turns.flatMap((turn) => turn.items);
    const tool = items.find((item): item is ToolItem => item.kind === 'tool')!;
    expect(tool.content).toBe('The home page.\n[image: image/png, 3 KB]');
    const model = items.find((item): item is ModelItem => item.kind === 'model')!;
    expect(model.prompts).toEqual([
      { role: 'user', content: 'What is on it?\n[image: https://example.com/a.png]' },
    ]);
  });

  it('counts messages with equal parts as shared, as when a file is read back', () => {
    const message = { role: 'user' as const, content: [{ type: 'text' as const, text: 'Look:' }, image] };
    const readBack = JSON.parse(JSON.stringify(message)) as typeof message;
    expect(sharedPrefixLength([message], [readBack])).toBe(1);
    const other = { ...readBack, content: [readBack.content[0]!, { ...image, mediaType: 'image/jpeg' }] };
    expect(sharedPrefixLength([message], [other])).toBe(0);
  });
});
