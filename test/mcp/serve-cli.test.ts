import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureRepo } from './fixture-repo.js';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
let fixture: Awaited<ReturnType<typeof createFixtureRepo>>;

beforeAll(async () => {
  fixture = await createFixtureRepo();
});
afterAll(async () => {
  await fixture.remove();
});

/** The CLI's `mcp serve`, driven by the official SDK client over stdio. */
async function serve(...flags: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', 'serve', '--repo', fixture.root, ...flags],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'serve-cli-test', version: '1.0.0' });
  await client.connect(transport, { timeout: 15_000 });
  return { client, stderr: () => stderr };
}

const text = (result: { content?: unknown }): string =>
  (result.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join('\n');

describe('tool-orchestrator mcp serve (over stdio, with the official SDK client)', () => {
  it('lists the 12 code tools with schemas, descriptions and read-only annotations', async () => {
    const { client, stderr } = await serve();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'list_files',
        'read_file',
        'search_text',
        'git_log',
        'git_diff',
        'get_symbols',
        'get_structure',
        'get_imports',
        'get_definition',
        'get_references',
        'import_graph',
        'repo_map',
      ]);
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.description?.length).toBeGreaterThan(20);
        expect(tool.annotations).toEqual({
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        });
      }
      expect(client.getServerVersion()?.name).toBe('tool-orchestrator');
      expect(client.getInstructions()).toContain('Read-only code exploration');
      expect(stderr()).toContain('12 read-only tools');
    } finally {
      await client.close();
    }
  });

  it('answers get_references on the fixture repo, and a denied path with an isError result', async () => {
    const { client, stderr } = await serve();
    try {
      const references = await client.callTool({ name: 'get_references', arguments: { symbol: 'add' } });
      expect(references.isError).toBeFalsy();
      expect(text(references)).toContain('src/main.ts');
      expect(text(references)).toMatch(/declared at src\/math\.ts:1/);
      const secret = await client.callTool({ name: 'read_file', arguments: { path: '.env' } });
      expect(secret.isError).toBe(true);
      expect(text(secret)).toContain('.env');
      expect(text(secret)).not.toContain('do-not-leak');
      const outside = await client.callTool({ name: 'read_file', arguments: { path: '../../etc/passwd' } });
      expect(outside.isError).toBe(true);
      expect(text(outside)).toContain('outside the repository root');
      // Arguments that fail the schema are an isError result too, as in the loop.
      const invalid = await client.callTool({ name: 'read_file', arguments: { path: 42 } });
      expect(invalid.isError).toBe(true);
      expect(text(invalid)).toContain('do not match its parameters');
      // An unknown tool is a protocol error, as MCP specifies.
      await expect(client.callTool({ name: 'rm_rf', arguments: {} })).rejects.toThrow(/Unknown tool "rm_rf"/);
      expect(stderr()).toMatch(/read_file \d+ms error:/);
    } finally {
      await client.close();
    }
  });

  it('also serves clients of the 2026-07-28 protocol revision (server/discover, no initialize)', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp', 'serve', '--repo', fixture.root, '--tools', 'get_definition'],
      stderr: 'pipe',
    });
    const client = new Client(
      { name: 'serve-cli-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(transport, { timeout: 15_000 });
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['get_definition']);
      const definition = await client.callTool({ name: 'get_definition', arguments: { symbol: 'add' } });
      expect(text(definition)).toContain('src/math.ts:1');
    } finally {
      await client.close();
    }
  });

  it('serves only --tools, and hides --exclude globs from them', async () => {
    const { client } = await serve('--tools', 'list_files,read_file', '--exclude', 'generated/**');
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['list_files', 'read_file']);
      const listing = text(await client.callTool({ name: 'list_files', arguments: {} }));
      expect(listing).toContain('src/math.ts');
      expect(listing).not.toContain('generated');
    } finally {
      await client.close();
    }
  });

  it('writes only JSON-RPC to stdout, logs to stderr, and exits 0 when the host closes stdin', async () => {
    const child = spawn(process.execPath, [cli, 'mcp', 'serve', '--repo', fixture.root], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const send = (message: object): boolean =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list' });
    send({ id: 3, method: 'tools/call', params: { name: 'list_files', arguments: {} } });
    await expect
      .poll(() => stdout.split('\n').filter((line) => line !== '').length, { timeout: 10_000 })
      .toBe(3);
    child.stdin.end();
    const code = await exited;
    clearTimeout(killer);
    expect(code).toBe(0);
    const messages = stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { jsonrpc: string; id: number });
    expect(messages.map((message) => [message.jsonrpc, message.id])).toEqual([
      ['2.0', 1],
      ['2.0', 2],
      ['2.0', 3],
    ]);
    expect(stderr).toContain('read-only tools');
    expect(stderr).toMatch(/list_files \d+ms/);
  });

  it('refuses bad usage with exit code 2 and a message naming the problem', async () => {
    const run = (args: string[]): Promise<{ code: number | null; stderr: string }> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', (code) => {
          clearTimeout(killer);
          resolve({ code, stderr });
        });
      });
    const missingRepo = await run(['mcp', 'serve']);
    expect(missingRepo.code).toBe(2);
    expect(missingRepo.stderr).toContain('--repo DIR is required');
    const badTool = await run(['mcp', 'serve', '--repo', fixture.root, '--tools', 'read_file,rm_rf']);
    expect(badTool.code).toBe(2);
    expect(badTool.stderr).toContain('unknown tools rm_rf');
    const notADirectory = await run(['mcp', 'serve', '--repo', `${fixture.root}/src/math.ts`]);
    expect(notADirectory.code).toBe(2);
    expect(notADirectory.stderr).toContain('is a file');
    const noSubcommand = await run(['mcp']);
    expect(noSubcommand.code).toBe(2);
    expect(noSubcommand.stderr).toContain('missing the subcommand: tool-orchestrator mcp serve --repo DIR');
  });
});
