import { defineTool } from '../tools/define-tool.js';
import type { Tool } from '../tools/define-tool.js';
import type { ToolAnnotations } from '../tools/tool-annotations.js';
import type { ToolContent } from '../tools/tool-content.js';
import { checkInputSchema } from './check-input-schema.js';
import type { McpToolListing } from './connect-mcp-server-options.js';

/** How a tool of a server is called. */
export interface McpToolCaller {
  readonly timeoutMs: number;
  /**
   * Calls the tool on the server; resolves to the text the model reads (or, with images or binary
   * resources, its parts), rejects with a message for it.
   */
  readonly call: (input: unknown, signal: AbortSignal) => Promise<string | ToolContent>;
}

/**
 * A registry tool for one server tool: its `inputSchema` validates the arguments and is what the
 * model sees; its annotations are the server's (those MCP defines, with values of the right type),
 * so a server built from the registry publishes them again. Returns why not, instead, when the
 * schema is unusable.
 */
export function createMcpTool(
  registryName: string,
  listing: McpToolListing,
  caller: McpToolCaller,
): Tool | string {
  const problem = checkInputSchema(listing.inputSchema);
  if (problem !== undefined) return problem;
  const annotations = knownAnnotations(listing.annotations);
  let tool: Tool;
  try {
    tool = defineTool({
      name: registryName,
      description: listing.description ?? listing.title ?? '',
      parameters: listing.inputSchema as Record<string, unknown>,
      timeoutMs: caller.timeoutMs,
      ...(annotations === undefined ? {} : { annotations }),
      execute: (input: unknown, context) => caller.call(input, context.signal),
    });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const schema = tool.schema;
  // The validator can still throw on input that reaches an odd corner of a schema; the runner
  // does not expect that, so it becomes a validation issue the model can read.
  return {
    ...tool,
    schema: {
      ...schema,
      validate(value) {
        try {
          return schema.validate(value);
        } catch (error) {
          return {
            success: false,
            issues: [
              {
                path: [],
                message: `the tool's schema could not be applied: ${error instanceof Error ? error.message : String(error)}`,
              },
            ],
          };
        }
      },
    },
  };
}

/** The annotations MCP defines, each kept only with a value of its type: a server may send more, or odd ones. */
function knownAnnotations(value: unknown): ToolAnnotations | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const kept: { -readonly [Key in keyof ToolAnnotations]: ToolAnnotations[Key] } = {};
  if (typeof record['title'] === 'string') kept.title = record['title'];
  for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
    if (typeof record[key] === 'boolean') kept[key] = record[key];
  }
  return Object.keys(kept).length === 0 ? undefined : kept;
}
