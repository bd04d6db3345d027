import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { McpTransport } from './mcp-sdk-types.js';

/** An MCP server started as a child process and spoken to over its stdin and stdout. */
export interface McpStdioServerSpec {
  /** The executable, e.g. `'npx'` or `process.execPath`. */
  readonly command: string;
  readonly args?: readonly string[];
  /**
   * Environment variables for the server, added to a safe default set (`HOME`, `LOGNAME`, `PATH`,
   * `SHELL`, `TERM`, `USER` on POSIX): the rest of this process's environment is not passed on.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** @default this process's working directory */
  readonly cwd?: string;
}

/** An MCP server reached over Streamable HTTP. */
export interface McpHttpServerSpec {
  /** The endpoint, e.g. `'http://127.0.0.1:3000/mcp'`. */
  readonly url: string | URL;
  /** Sent with every request, e.g. `{ Authorization: 'Bearer ...' }`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Any transport of the MCP SDK, e.g. one end of `InMemoryTransport.createLinkedPair()`. */
export interface McpTransportServerSpec {
  readonly transport: McpTransport;
}

/** Where an MCP server is: a command to start, a URL, or a ready transport. */
export type McpServerSpec = McpStdioServerSpec | McpHttpServerSpec | McpTransportServerSpec;

/** The spec, checked, with its kind. */
export type CheckedServerSpec =
  | { readonly kind: 'stdio'; readonly spec: McpStdioServerSpec; readonly label: string }
  | { readonly kind: 'http'; readonly spec: McpHttpServerSpec; readonly url: URL; readonly label: string }
  | { readonly kind: 'transport'; readonly spec: McpTransportServerSpec; readonly label: string };

/**
 * Checks a server spec and names it for messages.
 *
 * @throws {InvalidArgumentError} when it is none of the three shapes or a field has the wrong type.
 */
export function checkServerSpec(server: McpServerSpec): CheckedServerSpec {
  const record = server as unknown as Record<string, unknown> | null;
  if (typeof record !== 'object' || record === null) {
    throw invalid(server, 'must be { command, args?, env?, cwd? }, { url, headers? } or { transport }.');
  }
  const shapes = ['command', 'url', 'transport'].filter((key) => record[key] !== undefined);
  if (shapes.length !== 1) {
    throw invalid(
      server,
      `must have exactly one of "command" (a child process), "url" (Streamable HTTP) or "transport"; got ${shapes.length === 0 ? 'none' : shapes.join(' and ')}.`,
    );
  }
  if (record['command'] !== undefined) {
    const spec = server as McpStdioServerSpec;
    if (typeof spec.command !== 'string' || spec.command.trim() === '') {
      throw invalid(server, 'command must be a non-empty string, e.g. "npx" or process.execPath.');
    }
    if (
      spec.args !== undefined &&
      !(Array.isArray(spec.args) && spec.args.every((arg) => typeof arg === 'string'))
    ) {
      throw invalid(server, 'args must be an array of strings.');
    }
    if (spec.env !== undefined && !isStringRecord(spec.env)) {
      throw invalid(server, 'env must map variable names to string values.');
    }
    if (spec.cwd !== undefined && typeof spec.cwd !== 'string')
      throw invalid(server, 'cwd must be a path string.');
    return { kind: 'stdio', spec, label: commandLine(spec) };
  }
  if (record['url'] !== undefined) {
    const spec = server as McpHttpServerSpec;
    let url: URL;
    try {
      url = new URL(spec.url);
    } catch {
      throw invalid(server, 'url must be an absolute http(s) URL, e.g. "http://127.0.0.1:3000/mcp".');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw invalid(server, `url must use http or https; got ${url.protocol}`);
    }
    if (spec.headers !== undefined && !isStringRecord(spec.headers)) {
      throw invalid(server, 'headers must map header names to string values.');
    }
    // Never put credentials or query strings (tokens) into messages.
    return { kind: 'http', spec, url, label: `${url.origin}${url.pathname}` };
  }
  const spec = server as McpTransportServerSpec;
  const transport = spec.transport as unknown as Record<string, unknown> | null;
  if (
    typeof transport !== 'object' ||
    transport === null ||
    typeof transport['start'] !== 'function' ||
    typeof transport['send'] !== 'function' ||
    typeof transport['close'] !== 'function'
  ) {
    throw invalid(server, 'transport must be an MCP SDK transport (with start, send and close methods).');
  }
  return { kind: 'transport', spec, label: 'the given transport' };
}

function commandLine(spec: McpStdioServerSpec): string {
  const line = [spec.command, ...(spec.args ?? [])]
    .map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part)))
    .join(' ');
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

function isStringRecord(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => typeof item === 'string')
  );
}

function invalid(value: unknown, message: string): InvalidArgumentError {
  return new InvalidArgumentError({ argument: 'server', value, message });
}
