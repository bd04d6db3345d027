import type { Client, StandardSchemaV1 } from '@modelcontextprotocol/client';
import type { McpToolListing } from './connect-mcp-server-options.js';

const maxListPages = 100;

/**
 * A `tools/list` result checked only for its `tools` array: the SDK's own schema rejects the whole
 * list over one malformed tool, and here a malformed tool is skipped on its own.
 */
const lenientToolList: StandardSchemaV1<unknown, { tools: unknown[]; nextCursor?: unknown }> = {
  '~standard': {
    version: 1,
    vendor: 'tool-orchestrator',
    validate: (value) =>
      typeof value === 'object' && value !== null && Array.isArray((value as { tools?: unknown }).tools)
        ? { value: value as { tools: unknown[]; nextCursor?: unknown } }
        : { issues: [{ message: 'the tools/list result has no "tools" array' }] },
  },
};

/**
 * Lists every tool of a connected server, page by page (at most 100 pages, stopping at a repeated
 * cursor). Entries without a name, and repeats of a name, go to `onSkip` instead.
 */
export async function listMcpTools(
  client: Client,
  options: { readonly timeoutMs: number; readonly signal: AbortSignal | undefined },
  onSkip: (toolName: string, reason: string) => void,
): Promise<McpToolListing[]> {
  const listings: McpToolListing[] = [];
  const seenNames = new Set<string>();
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxListPages; page++) {
    const result = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      lenientToolList,
      { timeout: options.timeoutMs, ...(options.signal === undefined ? {} : { signal: options.signal }) },
    );
    for (const entry of result.tools) {
      const listing = toListing(entry);
      if (typeof listing === 'string') {
        onSkip(JSON.stringify(entry)?.slice(0, 60) || '(unnamed)', listing);
      } else if (seenNames.has(listing.name)) {
        onSkip(listing.name, 'the server lists this name twice; the first one is used.');
      } else {
        seenNames.add(listing.name);
        listings.push(listing);
      }
    }
    const next = result.nextCursor;
    if (typeof next !== 'string' || seenCursors.has(next)) break;
    seenCursors.add(next);
    cursor = next;
  }
  return listings;
}

function toListing(entry: unknown): McpToolListing | string {
  if (typeof entry !== 'object' || entry === null) return 'a tools/list entry is not an object.';
  const record = entry as Record<string, unknown>;
  if (typeof record['name'] !== 'string' || record['name'] === '') return 'a tool has no name.';
  const text = (key: string): string | undefined =>
    typeof record[key] === 'string' ? (record[key] as string) : undefined;
  const title = text('title');
  const description = text('description');
  const annotations = record['annotations'];
  return {
    name: record['name'],
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    inputSchema: record['inputSchema'],
    ...(typeof annotations === 'object' && annotations !== null ? { annotations } : {}),
  };
}
