import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../../src/index.js';
import { createCodeTools } from '../../src/explore/index.js';
import { connectMcpServer, createMcpServer } from '../../src/mcp.js';
import { createFixtureRepo } from './fixture-repo.js';

let fixture: Awaited<ReturnType<typeof createFixtureRepo>>;
let http: HttpServer;
let url: string;
const seenHeaders: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  fixture = await createFixtureRepo();
  const tools = createCodeTools({ root: fixture.root });
  // createMcpServer fits the SDK's per-request factory: a fresh server per request, one registry.
  const handler = toNodeHandler(
    createMcpHandler(() =>
      createMcpServer(tools, {
        name: 'code-over-http',
        version: '1.0.0',
        annotations: { readOnlyHint: true },
      }),
    ),
  );
  http = createServer((request, response) => {
    seenHeaders.push(request.headers);
    void handler(request as Parameters<typeof handler>[0], response);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
  await fixture.remove();
});

describe('a served registry over Streamable HTTP', () => {
  it('is used through connectMcpServer({ url, headers })', async () => {
    const connection = await connectMcpServer(
      { url, headers: { 'x-test-header': 'sent' } },
      { prefix: 'code' },
    );
    try {
      expect(connection.serverName).toBe('code-over-http');
      expect(Object.keys(connection.tools)).toHaveLength(12);
      const runner = new ToolRunner(connection.tools);
      const [outcome] = await runner.executeToolCalls(
        connection.tools,
        [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'code__get_definition', arguments: '{"symbol":"add"}' },
          },
        ],
        { requestId: 'r', runId: 'run', turnIndex: 0, signal: new AbortController().signal },
      );
      expect(outcome!.error).toBeUndefined();
      expect(outcome!.content).toContain('src/math.ts');
      expect(seenHeaders.some((headers) => headers['x-test-header'] === 'sent')).toBe(true);
    } finally {
      await connection.close();
    }
  });
});

/** Runs one server scenario of @modelcontextprotocol/conformance (0.1.13: the last that runs on Node 20). */
async function conformance(scenario: string): Promise<{ code: number | null; output: string }> {
  const bin = fileURLToPath(
    new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url),
  );
  // It writes results/ into its working directory.
  const cwd = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
  try {
    return await new Promise((resolve) => {
      const child = spawn(process.execPath, [bin, 'server', '--url', url, '--scenario', scenario], {
        cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.once('exit', (code) => {
        clearTimeout(killer);
        resolve({ code, output });
      });
    });
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

describe('the MCP conformance suite against createMcpServer', () => {
  // The scenarios that apply to a tools-only server; the others need the suite's own fixture tools,
  // resources or prompts (see docs/mcp.md).
  for (const scenario of ['server-initialize', 'ping', 'tools-list']) {
    it(`passes ${scenario}`, async () => {
      const { code, output } = await conformance(scenario);
      expect(output).toMatch(/Passed: 1\/1, 0 failed/);
      expect(code).toBe(0);
    });
  }
});
