import { parseArgs } from 'node:util';
import { codeToolNames, createCodeTools } from '../explore/create-code-tools.js';
import { serveMcp } from '../mcp/serve-mcp.js';
import type { CliIo } from './cli-io.js';
import { UsageError, exitCodes } from './cli-io.js';
import { repoFlag } from './flag-values.js';
import { parseFlags } from './parse-flags.js';
import { packageVersion } from './version.js';

/** The help of `mcp`; kept here so the command is one file. */
const mcpHelp = `Usage: tool-orchestrator mcp serve --repo DIR [--tools a,b] [--exclude GLOB]...

Serves the read-only code-exploration tools over MCP on stdio, for any MCP host (editors,
desktop assistants, coding CLIs). Stdout carries the protocol; logs go to stderr. It stops when
the host closes stdin (exit code 0) or on Ctrl-C (130).
Needs the optional package @modelcontextprotocol/server next to tool-orchestrator, and typescript
(5 or 6) for the code-intelligence tools.

Flags:
  --repo DIR        the repository the tools may read (required: hosts start servers in any directory)
  --tools a,b       serve only these tools (default: all ${codeToolNames.length}: ${codeToolNames.join(', ')})
  --exclude GLOB    hide matching files from every tool; repeat for more globs
  -h, --help        show this help

Host configuration (e.g. claude_desktop_config.json or .cursor/mcp.json):
  {"mcpServers": {"code": {"command": "npx", "args": ["-y", "-p", "tool-orchestrator", "-p",
    "@modelcontextprotocol/server", "-p", "typescript@5", "tool-orchestrator", "mcp", "serve",
    "--repo", "/path/to/repo"]}}}`;

/** `mcp serve --repo DIR`: serves the code tools over MCP on stdio until the host closes stdin. */
export async function mcpCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(
    'mcp',
    {
      repo: { type: 'string', placeholder: 'DIR' },
      tools: { type: 'string', placeholder: 'a,b' },
      exclude: { type: 'string', placeholder: 'GLOB' },
    },
    argv,
  );
  if (values.help) {
    // Help is asked for on a terminal, not by a host: stdout is fine here.
    io.stdout(`${mcpHelp}\n`);
    return exitCodes.ok;
  }
  const [subcommand, ...extra] = positionals;
  if (subcommand !== 'serve') {
    throw new UsageError(
      subcommand === undefined
        ? 'missing the subcommand: tool-orchestrator mcp serve --repo DIR'
        : `unknown subcommand ${JSON.stringify(subcommand)}; the only one is serve: tool-orchestrator mcp serve --repo DIR`,
      { code: subcommand === undefined ? 'missing_argument' : 'invalid_argument' },
    );
  }
  if (extra.length > 0) {
    throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}: mcp serve takes only flags.`, {
      code: 'invalid_argument',
    });
  }
  if (values.repo === undefined) {
    throw new UsageError(
      '--repo DIR is required: the repository the tools may read (hosts start servers in their own working directory).',
      { code: 'missing_argument' },
    );
  }
  const root = repoFlag(values.repo);
  const tools = values.tools
    ?.split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = tools?.filter((name) => !codeToolNames.includes(name)) ?? [];
  if (unknown.length > 0 || tools?.length === 0) {
    throw new UsageError(
      `--tools ${JSON.stringify(values.tools)} names ${unknown.length > 0 ? `unknown tools ${unknown.join(', ')}` : 'no tool'}; choose from ${codeToolNames.join(', ')}.`,
      { code: 'invalid_flag_value' },
    );
  }
  const exclude = allValues(argv, 'exclude');
  // Stdout is the protocol: anything a library prints with console.log would corrupt it.
  console.log = console.info = console.debug = (...data: unknown[]) => console.error(...data);
  const registry = createCodeTools({
    root,
    ...(tools === undefined ? {} : { tools }),
    ...(exclude.length === 0 ? {} : { exclude }),
  });
  const server = await serveMcp(registry, {
    name: 'tool-orchestrator',
    version: packageVersion,
    instructions: `Read-only code exploration of the repository at ${root}. Paths are relative to it. get_definition and get_references resolve symbols precisely (TypeScript compiler, not text search); repo_map gives an overview; search_text searches text.`,
    onToolCall: (call) =>
      io.stderr(
        `${call.name} ${Math.round(call.durationMs)}ms${call.error === undefined ? '' : ` error: ${oneLine(call.error)}`}\n`,
      ),
    onError: (error) => io.stderr(`mcp serve: ${oneLine(error.message)}\n`),
  });
  io.stderr(
    `tool-orchestrator mcp serve: ${Object.keys(registry).length} read-only tools for ${root} on stdio\n`,
  );
  const interrupted = io.trapInterrupts();
  const onInterrupt = (): void => void server.close();
  interrupted.addEventListener('abort', onInterrupt, { once: true });
  await server.closed;
  interrupted.removeEventListener('abort', onInterrupt);
  return interrupted.aborted ? exitCodes.interrupted : exitCodes.ok;
}

/** Every value of a repeatable flag (`parseFlags` keeps the last one; it has checked the flags already). */
function allValues(argv: readonly string[], name: string): string[] {
  const { values } = parseArgs({
    args: [...argv],
    options: { [name]: { type: 'string', multiple: true } },
    strict: false,
    allowPositionals: true,
  });
  const found = values[name];
  return Array.isArray(found) ? found.filter((value): value is string => typeof value === 'string') : [];
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}
