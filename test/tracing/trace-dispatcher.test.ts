import { describe, expect, it } from 'vitest';
import { ToolOrchestrator, defineTool } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';

describe('trace timestamps', () => {
  it('are whole milliseconds, while durationMs keeps the clock resolution', async () => {
    // A clock that advances 0.25 ms a read, starting at a fractional epoch time.
    let clock = 1_700_000_000_000.4;
    const now = (): number => (clock += 0.25);
    const echo = defineTool({
      name: 'echo',
      description: 'Echo',
      parameters: { type: 'object', properties: {} },
      execute: () => 'ok',
    });
    const orchestrator = new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.toolCalls([['echo', {}]]), ScriptedAdapter.text('done')]),
      { echo },
      { now },
    );
    const { traces } = await orchestrator.run([{ role: 'user', content: 'go' }]);
    expect(traces.length).toBeGreaterThan(4);
    for (const event of traces) expect(Number.isInteger(event.timestamp), event.type).toBe(true);
    const timestamps = traces.map((event) => event.timestamp);
    expect([...timestamps].sort((a, b) => a - b)).toEqual(timestamps);
    const durations = traces.flatMap((event) =>
      event.type === 'llm_call' || event.type === 'run_end' ? [event.data.durationMs] : [],
    );
    expect(durations.some((duration) => !Number.isInteger(duration))).toBe(true);
  });
});
