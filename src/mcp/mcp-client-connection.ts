import type { Client, Transport } from '@modelcontextprotocol/client';
import type { Tool, ToolRegistry } from '../tools/define-tool.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { connectFailure } from './connect-failure.js';
import { createMcpTool } from './create-mcp-tool.js';
import type { McpConnection, McpToolListing, McpWarning } from './connect-mcp-server-options.js';
import { McpConnectionError } from './errors/mcp-connection-error.js';
import type { McpClientModule } from './load-mcp-sdk.js';
import { listMcpTools } from './list-mcp-tools.js';
import { contentAsText } from '../model/content-parts.js';
import { toolContent } from '../tools/tool-content.js';
import type { ToolContent } from '../tools/tool-content.js';
import { mcpResultContent } from './mcp-result-content.js';
import type { McpCallResult } from './mcp-result-text.js';
import { assignToolNames } from './mcp-tool-names.js';
import type { StderrTail } from './stderr-tail.js';
import { untilAborted } from './until-aborted.js';

/** The options of `connectMcpServer`, checked and with defaults. */
export interface ResolvedConnectOptions {
  readonly prefix: string | undefined;
  readonly toolFilter: ((tool: McpToolListing) => boolean) | undefined;
  /** Names from an array `toolFilter`, checked against the first listing. */
  readonly filterNames: readonly string[] | undefined;
  readonly timeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly name: string | undefined;
  readonly signal: AbortSignal | undefined;
  readonly onWarning: (warning: McpWarning) => void;
  readonly onToolsChanged: ((tools: ToolRegistry) => void) | undefined;
}

interface ConnectionParts {
  readonly sdk: McpClientModule;
  readonly client: Client;
  readonly transport: Transport;
  /** The command line or URL, for messages before the server has named itself. */
  readonly label: string;
  readonly options: ResolvedConnectOptions;
  /** Set for child processes. */
  readonly stderr: StderrTail | undefined;
}

type ConnectionState = 'connecting' | 'open' | 'dead' | 'closed';

/** The SDK's own timeout, a backstop behind the tool runner's (which reports it as a timeout result). */
const backstopMs = 1_000;

/** One connection to an MCP server: its tools as a registry, kept current, and its lifecycle. */
export class McpClientConnection implements McpConnection {
  readonly tools: Record<string, Tool> = {};
  readonly serverToolNames = new Map<string, string>();
  serverName: string;
  serverVersion: string | undefined;
  instructions: string | undefined;
  readonly #parts: ConnectionParts;
  #state: ConnectionState = 'connecting';
  #deathReported = false;
  #transportErrorReported = false;
  readonly #reportedSkips = new Set<string>();
  #signatures = new Map<string, string>();
  #refreshing: Promise<void> | undefined;
  #refreshQueued: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #exitHook: (() => void) | undefined;

  constructor(parts: ConnectionParts) {
    this.#parts = parts;
    this.serverName = parts.options.name ?? parts.label;
  }

  /** Connects, then lists the tools; bounded by `connectTimeoutMs`. On failure the transport is closed. */
  async open(): Promise<void> {
    const { client, transport, options } = this.#parts;
    const controller = new AbortController();
    const timedOut = new Error('connect timeout');
    const timer = setTimeout(() => controller.abort(timedOut), options.connectTimeoutMs);
    const onAbort = (): void => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    let phase: 'initialize' | 'tools/list' = 'initialize';
    client.onclose = () => this.#onClose();
    try {
      await untilAborted(
        client.connect(transport, { timeout: options.connectTimeoutMs, signal: controller.signal }),
        controller.signal,
      );
      if (this.#state !== 'connecting') throw new Error('the server exited');
      this.#state = 'open';
      const version = client.getServerVersion();
      if (options.name === undefined && version?.name) this.serverName = version.name;
      this.serverVersion = version?.version;
      this.instructions = client.getInstructions();
      this.#hookProcessExit();
      client.onerror = (error) => this.#onTransportError(error);
      client.setNotificationHandler('notifications/tools/list_changed', () => {
        this.refresh().catch(() => {
          // #refreshNow reported it as a warning.
        });
      });
      phase = 'tools/list';
      await untilAborted(this.#refreshNow(controller.signal, true), controller.signal);
    } catch (error) {
      const wasState = this.#state;
      this.#state = 'closed';
      await this.#shutdown();
      if (error instanceof InvalidArgumentError) throw error;
      if (options.signal?.aborted && controller.signal.reason === options.signal.reason) {
        throw new McpConnectionError({
          server: this.serverName,
          message: `Connecting to MCP server ${this.#quotedName()} was aborted.`,
          cause: error,
        });
      }
      throw connectFailure({
        error,
        timedOut: controller.signal.reason === timedOut,
        exited: wasState === 'dead',
        phase,
        serverName: this.serverName,
        label: this.#parts.label,
        connectTimeoutMs: options.connectTimeoutMs,
        childProcess: this.#parts.stderr !== undefined,
        stderrTail: this.#parts.stderr?.tail(),
        sdk: this.#parts.sdk,
      });
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  refresh(): Promise<void> {
    if (this.#state === 'closed') {
      return Promise.reject(
        new McpConnectionError({
          server: this.serverName,
          message: `The connection to MCP server ${this.#quotedName()} is closed; connect again to refresh its tools.`,
        }),
      );
    }
    if (this.#refreshing === undefined) {
      this.#refreshing = this.#refreshNow(undefined, false).finally(() => {
        this.#refreshing = undefined;
      });
      return this.#refreshing;
    }
    // One more listing after the running one, shared by everyone who asks meanwhile.
    this.#refreshQueued ??= this.#refreshing
      .catch(() => undefined)
      .then(() => {
        this.#refreshQueued = undefined;
        return this.refresh();
      });
    return this.#refreshQueued;
  }

  close(): Promise<void> {
    this.#state = 'closed';
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    if (this.#exitHook !== undefined) process.off('exit', this.#exitHook);
    this.#exitHook = undefined;
    try {
      // The SDK ends a child process: stdin closed, then SIGTERM after 2 s, then SIGKILL.
      await this.#parts.client.close();
    } catch {
      // Closing a transport that already failed can throw; the process is gone either way.
    }
  }

  /** A child that outlives us would be an orphan: end it when this process exits without close(). */
  #hookProcessExit(): void {
    const pid = (this.#parts.transport as { pid?: unknown }).pid;
    if (typeof pid !== 'number' || typeof process === 'undefined') return;
    this.#exitHook = () => {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    };
    process.once('exit', this.#exitHook);
  }

  async #refreshNow(signal: AbortSignal | undefined, initial: boolean): Promise<void> {
    const { options } = this.#parts;
    let listings: McpToolListing[];
    try {
      listings = await this.#listTools(signal);
    } catch (error) {
      if (initial) throw error;
      const message = `Refreshing the tools of MCP server ${this.#quotedName()} failed (${errorMessage(error)}); the previous tools stay in place.`;
      this.#warn({ code: 'refresh_failed', message });
      throw new McpConnectionError({ server: this.serverName, message, cause: error });
    }
    if (options.filterNames !== undefined) {
      const offered = new Set(listings.map((listing) => listing.name));
      const missing = options.filterNames.filter((name) => !offered.has(name));
      if (missing.length > 0) {
        const message = `names tools MCP server ${this.#quotedName()} does not offer: ${missing.map((name) => JSON.stringify(name)).join(', ')}. It offers: ${[...offered].join(', ') || '(no tools)'}.`;
        if (initial)
          throw new InvalidArgumentError({ argument: 'toolFilter', value: options.filterNames, message });
        this.#warn({ code: 'filter_unmatched', message: `toolFilter ${message}` });
      }
    }
    const selected = options.toolFilter === undefined ? listings : listings.filter(options.toolFilter);
    const names = assignToolNames(
      selected.map((listing) => listing.name),
      options.prefix,
    );
    const next = new Map<string, { tool: Tool; serverName: string; signature: string }>();
    for (const listing of selected) {
      const registryName = names.get(listing.name)!;
      if (next.has(registryName)) continue;
      const signature = JSON.stringify([listing.name, listing.description, listing.inputSchema]);
      const previous = this.tools[registryName];
      if (previous !== undefined && this.#signatures.get(registryName) === signature) {
        next.set(registryName, { tool: previous, serverName: listing.name, signature });
        continue;
      }
      const built = createMcpTool(registryName, listing, {
        timeoutMs: options.timeoutMs,
        call: (input, signal) => this.#call(listing.name, input, signal),
      });
      if (typeof built === 'string') {
        this.#reportSkip(listing.name, built);
        continue;
      }
      next.set(registryName, { tool: built, serverName: listing.name, signature });
    }
    const changed =
      next.size !== this.#signatures.size ||
      [...next].some(([name, entry]) => this.#signatures.get(name) !== entry.signature);
    for (const name of Object.keys(this.tools)) {
      if (!next.has(name)) delete this.tools[name];
    }
    this.serverToolNames.clear();
    for (const [name, entry] of next) {
      this.tools[name] = entry.tool;
      this.serverToolNames.set(name, entry.serverName);
    }
    this.#signatures = new Map([...next].map(([name, entry]) => [name, entry.signature]));
    if (changed && !initial) {
      try {
        options.onToolsChanged?.(this.tools);
      } catch {
        // A throwing listener must not fail the refresh.
      }
    }
  }

  async #listTools(signal: AbortSignal | undefined): Promise<McpToolListing[]> {
    const { client, options } = this.#parts;
    if (client.getServerCapabilities()?.tools === undefined) {
      this.#reportSkip('', `MCP server ${this.#quotedName()} offers no tools (it has no tools capability).`);
      return [];
    }
    return listMcpTools(client, { timeoutMs: options.connectTimeoutMs, signal }, (toolName, reason) =>
      this.#reportSkip(toolName, reason),
    );
  }

  async #call(serverToolName: string, input: unknown, signal: AbortSignal): Promise<string | ToolContent> {
    if (this.#state === 'dead') throw new Error(this.#deathMessage());
    if (this.#state === 'closed') {
      throw new Error(
        `The connection to MCP server ${this.#quotedName()} was closed, so its tools cannot be called.`,
      );
    }
    const { client, sdk, options } = this.#parts;
    let result: McpCallResult;
    try {
      result = await client.callTool(
        { name: serverToolName, arguments: input as Record<string, unknown> },
        { signal, timeout: options.timeoutMs + backstopMs },
      );
    } catch (error) {
      // The runner reports its own timeout or the run's abort.
      if (signal.aborted) throw error;
      const code = (error as { code?: unknown } | null)?.code;
      if ((this.#state as ConnectionState) === 'dead' || code === sdk.SdkErrorCode.ConnectionClosed) {
        this.#onClose();
        throw new Error(this.#deathMessage(), { cause: error });
      }
      if (error instanceof sdk.ProtocolError) {
        throw new Error(
          `MCP server ${this.#quotedName()} answered with an error (JSON-RPC ${error.code}): ${error.message}`,
          { cause: error },
        );
      }
      if (code === sdk.SdkErrorCode.RequestTimeout) {
        throw new Error(`MCP server ${this.#quotedName()} did not answer within ${options.timeoutMs} ms.`, {
          cause: error,
        });
      }
      throw new Error(
        `The call to MCP server ${this.#quotedName()} did not complete: ${errorMessage(error)}`,
        {
          cause: error,
        },
      );
    }
    const content = mcpResultContent(result);
    if (result.isError === true) {
      const text = contentAsText(content);
      throw new Error(text === '' ? 'the MCP server reported an error without a message.' : text);
    }
    return typeof content === 'string' ? content : toolContent(content);
  }

  #onClose(): void {
    if (this.#state === 'connecting') {
      this.#state = 'dead';
      return;
    }
    if (this.#state !== 'open') return;
    this.#state = 'dead';
    if (this.#exitHook !== undefined) process.off('exit', this.#exitHook);
    this.#exitHook = undefined;
    const tail = this.#parts.stderr?.tail();
    this.#warn({
      code: 'server_exited',
      message: `MCP server ${this.#quotedName()} exited. It is not restarted: its tools now return errors; close() this connection and connect again to use them.${tail === undefined ? '' : `\nLast stderr output of the server:\n${tail}`}`,
    });
  }

  /** The full report (with the stderr tail) the first time, a short one after that. */
  #deathMessage(): string {
    const base = `MCP server ${this.#quotedName()} is not running: it exited and is not restarted automatically, so its tools cannot be used now.`;
    if (this.#deathReported) return `${base} (Its last stderr output was shown earlier.)`;
    this.#deathReported = true;
    const tail = this.#parts.stderr?.tail();
    return tail === undefined ? base : `${base}\nLast stderr output of the server:\n${tail}`;
  }

  #onTransportError(error: Error): void {
    // A late answer to a call that was cancelled or timed out is expected, not a problem.
    if (this.#state !== 'open' || this.#transportErrorReported || /unknown message ID/i.test(error.message))
      return;
    this.#transportErrorReported = true;
    const notJsonRpc = Array.isArray((error as { issues?: unknown }).issues);
    this.#warn({
      code: 'transport_error',
      message: notJsonRpc
        ? `MCP server ${this.#quotedName()} wrote JSON that is not an MCP (JSON-RPC) message; it was ignored (later ones are not reported).`
        : `MCP server ${this.#quotedName()} sent something the MCP client could not use (later problems are not reported): ${oneLine(error.message)}`,
    });
  }

  #reportSkip(toolName: string, reason: string): void {
    const key = `${toolName}\n${reason}`;
    if (this.#reportedSkips.has(key)) return;
    this.#reportedSkips.add(key);
    if (toolName === '') {
      this.#warn({ code: 'tools_unavailable', message: reason });
      return;
    }
    this.#warn({
      code: 'tool_skipped',
      toolName,
      message: `Skipped tool ${JSON.stringify(toolName)} of MCP server ${this.#quotedName()}: ${reason}`,
    });
  }

  #warn(warning: Omit<McpWarning, 'server'>): void {
    try {
      this.#parts.options.onWarning({ ...warning, server: this.serverName });
    } catch {
      // A throwing listener must not break the connection.
    }
  }

  #quotedName(): string {
    return JSON.stringify(this.serverName);
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 297)}...` : flat;
}
