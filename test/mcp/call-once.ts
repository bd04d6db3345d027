import { ToolRunner } from '../../src/index.js';
import type { ToolCallOutcome, ToolRegistry } from '../../src/index.js';

/** Runs one call through a `ToolRunner`, as the loop would. */
export async function callOnce(
  tools: ToolRegistry,
  name: string,
  args: unknown = {},
): Promise<ToolCallOutcome> {
  const [outcome] = await new ToolRunner(tools).executeToolCalls(
    tools,
    [{ id: 'c1', type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    { requestId: 'r', runId: 'run', turnIndex: 0, signal: new AbortController().signal },
  );
  return outcome!;
}
