import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ToolOrchestrator, defineTool } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the default clock and id generator', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('work where the runtime has neither performance nor crypto (a Temporal workflow sandbox)', async () => {
    vi.stubGlobal('performance', undefined);
    vi.stubGlobal('crypto', undefined);
    const clock = vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    const random = vi.spyOn(Math, 'random');
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['add', { a: 2, b: 3 }, 'c1']]),
      ScriptedAdapter.text('5'),
    ]);
    const result = await new ToolOrchestrator(adapter, { add }).run([{ role: 'user', content: '2+3?' }]);

    expect(result.content).toBe('5');
    expect(result.runId).toMatch(uuid);
    expect(random).toHaveBeenCalled();
    expect(clock).toHaveBeenCalled();
    for (const event of result.traces) expect(event.timestamp).toBe(1_700_000_000_000);
    const toolResult = result.traces.find((event) => event.type === 'tool_result');
    expect(toolResult?.data).toMatchObject({ durationMs: 0 });
  });

  it('use performance and crypto where they exist', async () => {
    const randomUUID = vi.spyOn(globalThis.crypto, 'randomUUID');
    const adapter = new ScriptedAdapter([ScriptedAdapter.text('hi')]);
    const result = await new ToolOrchestrator(adapter, {}).run([{ role: 'user', content: 'hi' }]);

    expect(randomUUID).toHaveBeenCalled();
    expect(result.runId).toMatch(uuid);
    const started = result.traces[0]!.timestamp;
    expect(Math.abs(started - (performance.timeOrigin + performance.now()))).toBeLessThan(60_000);
  });
});
