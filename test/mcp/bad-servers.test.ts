import { afterEach, describe, expect, it } from 'vitest';
import { ToolOrchestrator } from '../../src/index.js';
import { callOnce } from './call-once.js';
import { McpConnectionError, connectMcpServer } from '../../src/mcp.js';
import type { McpConnection, McpWarning } from '../../src/mcp.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { runModuleScript } from '../support/run-module-script.js';
import { isAlive, rawServer, stderrCollector } from './process-support.js';

const connections: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
});

describe('servers that misbehave', () => {
  it('a server that never answers initialize: a clear connect timeout, and the child is ended', async () => {
    const stderr = stderrCollector();
    const started = performance.now();
    const error = await connectMcpServer(rawServer('silent'), {
      connectTimeoutMs: 400,
      onStderr: stderr.onStderr,
    }).catch((caught: unknown) => caught);
    expect(performance.now() - started).toBeLessThan(8_000);
    expect(error).toBeInstanceOf(McpConnectionError);
    expect((error as McpConnectionError).message).toMatch(
      /^MCP server ".*raw-mcp-server\.mjs silent" did not answer initialize within 400 ms \(connectTimeoutMs\)\. Check that the command starts an MCP server that speaks JSON-RPC on stdout/,
    );
    expect((error as McpConnectionError).code).toBe('mcp_connection');
    const pid = stderr.pid();
    expect(pid).toBeTypeOf('number');
    await expect.poll(() => isAlive(pid!), { timeout: 6_000 }).toBe(false);
  });

  it('connecting stops when its signal aborts, and the child is ended', async () => {
    const stderr = stderrCollector();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = performance.now();
    await expect(
      connectMcpServer(rawServer('silent'), { signal: controller.signal, onStderr: stderr.onStderr }),
    ).rejects.toThrow(/^Connecting to MCP server ".*raw-mcp-server\.mjs silent" was aborted\.$/);
    expect(performance.now() - started).toBeLessThan(5_000);
    const pid = stderr.pid();
    if (pid !== undefined) await expect.poll(() => isAlive(pid), { timeout: 6_000 }).toBe(false);
  });

  it('a command that cannot start, and a server that exits at once: errors that say so, with its stderr', async () => {
    await expect(
      connectMcpServer({ command: 'no-such-mcp-server-command-here' }, { connectTimeoutMs: 5_000 }),
    ).rejects.toThrow(
      /^Could not start MCP server no-such-mcp-server-command-here: .*ENOENT.*Check that the command is installed/,
    );
    const error = (await connectMcpServer(rawServer('exit-early'), { connectTimeoutMs: 5_000 }).catch(
      (caught: unknown) => caught,
    )) as McpConnectionError;
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error.message).toMatch(/exited before the connection was ready \(during initialize\)/);
    expect(error.stderrTail).toContain('fatal: MCP_TOKEN is not set');
    expect(error.message).toContain('Last stderr output of the server:\npid=');
  });

  it('a server that exits mid-call: reported once with its stderr tail, not restarted, and the run goes on', async () => {
    const warnings: McpWarning[] = [];
    const stderr = stderrCollector();
    const connection = await connectMcpServer(rawServer('well-behaved'), {
      onWarning: (warning) => warnings.push(warning),
      onStderr: stderr.onStderr,
    });
    connections.push(connection);
    const pid = stderr.pid()!;
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['echo', { text: 'before' }, 'e1']]),
      ScriptedAdapter.toolCalls([['crash', {}, 'c1']]),
      ScriptedAdapter.toolCalls([['echo', { text: 'after' }, 'e2']]),
      ScriptedAdapter.text('gave up on the server'),
    ]);
    const result = await new ToolOrchestrator(adapter, connection.tools).run([
      { role: 'user', content: 'go' },
    ]);
    expect(result.stopReason).toBe('final');
    const results = result.traces.flatMap((event) => (event.type === 'tool_result' ? [event.data] : []));
    expect(results[0]!.content).toBe('echo: before');
    expect(results[1]!.errorCode).toBe('tool_error');
    expect(results[1]!.error).toContain('MCP server "raw-well-behaved" is not running');
    expect(results[1]!.error).toContain('Last stderr output of the server:\npid=');
    expect(results[1]!.error).toContain('fatal: out of widgets');
    expect(results[2]!.error).toContain('(Its last stderr output was shown earlier.)');
    expect(results[2]!.error).not.toContain('out of widgets');
    expect(warnings.filter((warning) => warning.code === 'server_exited')).toHaveLength(1);
    expect(warnings.find((warning) => warning.code === 'server_exited')!.message).toContain(
      'fatal: out of widgets',
    );
    expect(isAlive(pid)).toBe(false);
    // Not restarted: still the same dead connection.
    expect((await callOnce(connection.tools, 'echo', { text: 'again' })).error).toContain('is not running');
  });

  it('a server that floods stdout with non-protocol text still works, and its malformed tool is skipped', async () => {
    const warnings: McpWarning[] = [];
    const connection = await connectMcpServer(rawServer('flood'), {
      onWarning: (warning) => warnings.push(warning),
      connectTimeoutMs: 10_000,
    });
    connections.push(connection);
    expect(Object.keys(connection.tools).sort()).toEqual(['crash', 'echo', 'hang']);
    for (let index = 0; index < 5; index++) {
      expect((await callOnce(connection.tools, 'echo', { text: `n${index}` })).content).toBe(
        `echo: n${index}`,
      );
    }
    expect(
      warnings.filter((warning) => warning.code === 'tool_skipped').map((warning) => warning.toolName),
    ).toEqual(['malformed']);
    // JSON lines that are not JSON-RPC are reported once, not once per line.
    expect(warnings.filter((warning) => warning.code === 'transport_error')).toEqual([
      {
        code: 'transport_error',
        server: 'raw-flood',
        message:
          'MCP server "raw-flood" wrote JSON that is not an MCP (JSON-RPC) message; it was ignored (later ones are not reported).',
      },
    ]);
  });

  it('an aborted run answers at once; close() then ends the child', async () => {
    const stderr = stderrCollector();
    const connection = await connectMcpServer(rawServer('well-behaved'), {
      onStderr: stderr.onStderr,
      onWarning: () => undefined,
    });
    connections.push(connection);
    const pid = stderr.pid()!;
    const controller = new AbortController();
    const adapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['hang', {}, 'h1']]),
      ScriptedAdapter.text('never'),
    ]);
    const orchestrator = new ToolOrchestrator(adapter, connection.tools);
    const running = orchestrator.run([{ role: 'user', content: 'go' }], undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 200);
    const result = await running;
    expect(result.stopReason).toBe('aborted');
    expect(isAlive(pid)).toBe(true);
    await connection.close();
    await expect.poll(() => isAlive(pid), { timeout: 6_000 }).toBe(false);
    // Closed connections answer calls with an error, never a hang.
    expect((await callOnce(connection.tools, 'echo', { text: 'x' })).error).toContain('was closed');
  });

  it('a process that exits without close() takes its stdio servers with it, even stubborn ones', async () => {
    // A child process connects, then exits without closing; its server ignores stdin closing.
    const script = `
      import { connectMcpServer } from ${JSON.stringify(new URL('../../dist/mcp.js', import.meta.url).href)};
      const server = ${JSON.stringify(rawServer('stubborn'))};
      let stderr = '';
      await connectMcpServer(server, { onStderr: (text) => (stderr += text) });
      console.log(/pid=(\\d+)/.exec(stderr)[1]);
      process.exit(0);`;
    const output = await runModuleScript(script);
    const pid = Number(output.trim());
    expect(pid).toBeGreaterThan(0);
    try {
      await expect.poll(() => isAlive(pid), { timeout: 6_000 }).toBe(false);
    } finally {
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});
