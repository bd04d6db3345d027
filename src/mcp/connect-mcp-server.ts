import type { Transport } from '@modelcontextprotocol/client';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { ConnectMcpServerOptions, McpConnection, McpWarning } from './connect-mcp-server-options.js';
import { loadMcpClient, loadMcpClientStdio } from './load-mcp-sdk.js';
import type { McpClientModule } from './load-mcp-sdk.js';
import { McpClientConnection } from './mcp-client-connection.js';
import type { ResolvedConnectOptions } from './mcp-client-connection.js';
import { checkServerSpec } from './mcp-server-spec.js';
import type { CheckedServerSpec, McpServerSpec } from './mcp-server-spec.js';
import { isValidPrefix } from './mcp-tool-names.js';
import { packageVersion } from './package-version.js';
import { StderrTail } from './stderr-tail.js';

/**
 * Connects to an MCP server and resolves to its tools as a `ToolRegistry`, ready for
 * `ToolOrchestrator`. Tool names are sanitised to `^[a-zA-Z0-9_-]{1,64}$` (and prefixed with
 * `prefix__`), each `inputSchema` becomes the tool's JSON Schema and validates its arguments, and
 * every failure of a call (an `isError` result, a protocol error, a timeout, a server that died)
 * becomes a tool error result the model can read: the run goes on. A tool whose schema is
 * unusable is skipped with a warning. `tools/list_changed` notifications update the registry in
 * place. Always `close()` the connection: it ends the child process.
 *
 * Needs the optional peer dependency `@modelcontextprotocol/client`.
 *
 * @throws {McpConnectionError} when the server cannot be started or does not finish the handshake
 *   and the first tool listing within `connectTimeoutMs`; the child process is ended.
 * @throws {InvalidArgumentError} for a bad server spec or option, or a `toolFilter` name the server lacks.
 * @throws {MissingDependencyError} when `@modelcontextprotocol/client` is not installed.
 * @example
 * const github = await connectMcpServer(
 *   { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', repo] },
 *   { prefix: 'fs' },
 * );
 * try {
 *   const orchestrator = new ToolOrchestrator(adapter, { ...github.tools, ...myTools });
 *   await orchestrator.run(messages);
 * } finally {
 *   await github.close();
 * }
 */
export async function connectMcpServer(
  server: McpServerSpec,
  options: ConnectMcpServerOptions = {},
): Promise<McpConnection> {
  const checked = checkServerSpec(server);
  const resolved = resolveOptions(options);
  const sdk = await loadMcpClient();
  const stderr = checked.kind === 'stdio' ? new StderrTail(options.onStderr) : undefined;
  const transport = await createTransport(checked, sdk, stderr);
  const clientInfo = options.clientInfo ?? { name: 'tool-orchestrator', version: packageVersion };
  const client = new sdk.Client({ name: clientInfo.name, version: clientInfo.version }, { capabilities: {} });
  const connection = new McpClientConnection({
    sdk,
    client,
    transport,
    label: checked.label,
    options: resolved,
    stderr,
  });
  await connection.open();
  return connection;
}

async function createTransport(
  checked: CheckedServerSpec,
  sdk: McpClientModule,
  stderr: StderrTail | undefined,
): Promise<Transport> {
  switch (checked.kind) {
    case 'stdio': {
      const { StdioClientTransport } = await loadMcpClientStdio();
      const { command, args, env, cwd } = checked.spec;
      const transport = new StdioClientTransport({
        command,
        ...(args === undefined ? {} : { args: [...args] }),
        ...(env === undefined ? {} : { env: { ...env } }),
        ...(cwd === undefined ? {} : { cwd }),
        // Kept, not inherited: it goes into error reports (and to `onStderr`).
        stderr: 'pipe',
      });
      const stream = transport.stderr;
      if (stream !== null && stderr !== undefined) stderr.attach(stream as unknown as NodeJS.ReadableStream);
      return transport;
    }
    case 'http':
      return new sdk.StreamableHTTPClientTransport(checked.url, {
        ...(checked.spec.headers === undefined
          ? {}
          : { requestInit: { headers: { ...checked.spec.headers } } }),
      });
    case 'transport':
      // Checked to have start, send and close; the SDK's client reads the rest of its API.
      return checked.spec.transport as Transport;
  }
}

function resolveOptions(options: ConnectMcpServerOptions): ResolvedConnectOptions {
  const { prefix, toolFilter, name, signal } = options;
  if (prefix !== undefined && (typeof prefix !== 'string' || !isValidPrefix(prefix))) {
    throw new InvalidArgumentError({
      argument: 'prefix',
      value: prefix,
      message: 'must be 1-32 letters, digits, "_" or "-" (it starts tool names: prefix__tool).',
    });
  }
  let filter: ResolvedConnectOptions['toolFilter'];
  let filterNames: readonly string[] | undefined;
  if (Array.isArray(toolFilter)) {
    if (!toolFilter.every((item) => typeof item === 'string')) {
      throw new InvalidArgumentError({
        argument: 'toolFilter',
        value: toolFilter,
        message: 'must be an array of tool names (as the server names them) or a predicate function.',
      });
    }
    const wanted = new Set<string>(toolFilter);
    filterNames = [...wanted];
    filter = (tool) => wanted.has(tool.name);
  } else if (typeof toolFilter === 'function') {
    filter = toolFilter as ResolvedConnectOptions['toolFilter'];
  } else if (toolFilter !== undefined) {
    throw new InvalidArgumentError({
      argument: 'toolFilter',
      value: toolFilter,
      message: 'must be an array of tool names (as the server names them) or a predicate function.',
    });
  }
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '')) {
    throw new InvalidArgumentError({ argument: 'name', value: name, message: 'must be a non-empty string.' });
  }
  for (const [argument, value] of [
    ['timeoutMs', options.timeoutMs],
    ['connectTimeoutMs', options.connectTimeoutMs],
  ] as const) {
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
      throw new InvalidArgumentError({
        argument,
        value,
        message: 'must be a positive number of milliseconds, or left out.',
      });
    }
  }
  for (const [argument, value] of [
    ['onWarning', options.onWarning],
    ['onToolsChanged', options.onToolsChanged],
    ['onStderr', options.onStderr],
  ] as const) {
    if (value !== undefined && typeof value !== 'function') {
      throw new InvalidArgumentError({ argument, value, message: 'must be a function, or left out.' });
    }
  }
  const clientInfo = options.clientInfo;
  if (
    clientInfo !== undefined &&
    (typeof clientInfo?.name !== 'string' || typeof clientInfo.version !== 'string')
  ) {
    throw new InvalidArgumentError({
      argument: 'clientInfo',
      value: clientInfo,
      message: 'must be { name: string, version: string }.',
    });
  }
  return {
    prefix,
    toolFilter: filter,
    filterNames,
    timeoutMs: options.timeoutMs ?? 60_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    name,
    signal,
    onWarning: options.onWarning ?? warnOnConsole,
    onToolsChanged: options.onToolsChanged,
  };
}

function warnOnConsole(warning: McpWarning): void {
  console.warn(`tool-orchestrator/mcp: ${warning.message}`);
}
