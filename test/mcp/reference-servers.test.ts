import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolOrchestrator } from '../../src/index.js';
import type { ToolMessage } from '../../src/index.js';
import { connectMcpServer } from '../../src/mcp.js';
import type { McpWarning } from '../../src/mcp.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { textContent } from '../support/transcript.js';

// Reference servers of the MCP project, installed from npm as devDependencies (built on the v1 SDK).
const serverBin = (name: string): string =>
  fileURLToPath(new URL(`../../node_modules/@modelcontextprotocol/${name}/dist/index.js`, import.meta.url));

let folder: string;
beforeAll(async () => {
  folder = realpathSync(await mkdtemp(join(tmpdir(), 'mcp-filesystem-')));
  await writeFile(join(folder, 'notes.md'), '# Notes\n\nThe answer is 42.\n');
  await writeFile(join(folder, 'todo.txt'), 'write tests\n');
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const toolMessages = (messages: readonly { role: string }[]): ToolMessage[] =>
  messages.filter((message): message is ToolMessage => message.role === 'tool');

describe('@modelcontextprotocol/server-filesystem in the loop', () => {
  it('lists and reads files through a ScriptedAdapter run, and its refusals come back as tool errors', async () => {
    const warnings: McpWarning[] = [];
    const filesystem = await connectMcpServer(
      { command: process.execPath, args: [serverBin('server-filesystem'), folder] },
      {
        prefix: 'fs',
        toolFilter: ['list_directory', 'read_text_file'],
        onWarning: (warning) => warnings.push(warning),
      },
    );
    try {
      expect(Object.keys(filesystem.tools).sort()).toEqual(['fs__list_directory', 'fs__read_text_file']);
      const adapter = new ScriptedAdapter([
        ScriptedAdapter.toolCalls([['fs__list_directory', { path: folder }, 'l1']]),
        ScriptedAdapter.toolCalls([
          ['fs__read_text_file', { path: join(folder, 'notes.md') }, 'r1'],
          ['fs__read_text_file', { path: '/etc/hostname' }, 'r2'],
          ['fs__read_text_file', { file: 'notes.md' }, 'r3'],
        ]),
        ScriptedAdapter.text('The notes say 42.'),
      ]);
      const result = await new ToolOrchestrator(adapter, filesystem.tools).run([
        { role: 'user', content: 'What do my notes say?' },
      ]);
      expect(result.stopReason).toBe('final');
      const [listing, notes, outside, badArguments] = toolMessages(result.messages).map((message) =>
        textContent(message.content),
      );
      expect(listing).toContain('[FILE] notes.md');
      expect(listing).toContain('[FILE] todo.txt');
      expect(notes).toBe('# Notes\n\nThe answer is 42.\n');
      expect(JSON.parse(outside!).error).toMatch(/^Tool "fs__read_text_file" failed: .*(denied|outside)/i);
      // Validated against the server's own inputSchema before anything is sent.
      expect(JSON.parse(badArguments!).error).toContain('do not match its parameters');
      // The model saw the server's schema for the tool.
      const readDefinition = adapter.calls[0]!.tools.find(
        (tool) => tool.function.name === 'fs__read_text_file',
      );
      expect(readDefinition!.function.parameters).toMatchObject({
        type: 'object',
        properties: { path: { type: 'string' } },
        required: ['path'],
      });
      expect(warnings).toEqual([]);
    } finally {
      await filesystem.close();
    }
  });
});

describe('@modelcontextprotocol/server-everything in the loop', () => {
  it('runs its tools, passes its image as an image part, describes its resource, and passes structured content', async () => {
    const everything = await connectMcpServer(
      { command: process.execPath, args: [serverBin('server-everything')] },
      {
        toolFilter: ['echo', 'get-sum', 'get-tiny-image', 'get-resource-reference', 'get-structured-content'],
        onWarning: () => undefined,
      },
    );
    try {
      expect(everything.serverName).toMatch(/everything/i);
      const adapter = new ScriptedAdapter([
        ScriptedAdapter.toolCalls([
          ['echo', { message: 'hello' }, 'a'],
          ['get-sum', { a: 2, b: 40 }, 'b'],
          ['get-tiny-image', {}, 'c'],
          ['get-resource-reference', { resourceType: 'Text', resourceId: 1 }, 'd'],
          ['get-structured-content', { location: 'Chicago' }, 'e'],
        ]),
        ScriptedAdapter.text('done'),
      ]);
      const result = await new ToolOrchestrator(adapter, everything.tools).run([
        { role: 'user', content: 'go' },
      ]);
      const [echo, sum, image, resource, structured] = toolMessages(result.messages).map(
        (message) => message.content,
      );
      expect(textContent(echo!)).toContain('hello');
      expect(textContent(sum!)).toContain('42');
      expect(image).toContainEqual({ type: 'image', data: expect.any(String), mediaType: 'image/png' });
      expect(textContent(resource!)).toMatch(/\[resource <[^>]+1[^>]*>/);
      expect(textContent(structured!)).toMatch(/"temperature"/);
    } finally {
      await everything.close();
    }
  });
});
