import type { Tool } from '../../../tools/define-tool.js';

let callCount = 0;

/**
 * Runs a tool of the code pack outside a model loop, validating `args` with its schema first.
 * Throws the tool's own error (e.g. file not found), which the caller turns into a result.
 */
export async function runCodeTool(
  tool: Tool | undefined,
  name: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<string> {
  if (tool === undefined) throw new Error(`The code tool "${name}" is not available in this tool pack.`);
  const defined = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
  const validated = tool.schema.validate(defined);
  if (!validated.success)
    throw new Error(
      validated.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; '),
    );
  callCount += 1;
  const result = await tool.execute(validated.value, {
    requestId: 'context-provider',
    runId: 'context-provider',
    turnIndex: 0,
    toolCallId: `provider_${callCount}`,
    signal: signal ?? new AbortController().signal,
  });
  return typeof result === 'string' ? result : JSON.stringify(result, null, 2);
}
